// `farkas verify`: the constraint-solving pipeline of paper 004 end to end.
// program → cut-set → VCs → templates → Farkas → bilinear system → CNF → SAT → invariants →
// independent certificate check (z3, integer arithmetic) → verdict. "safe" is only ever reported
// after the certificate check has proved every obligation.
import * as F from '../../ir/formula.js';
import type { Formula } from '../../ir/formula.js';
import type { Program } from '../../ir/cfg.js';
import { stepSystem, widenedStep, type StepSystem } from './step-system.js';
import { decodeTemplate } from '../../constraints/template.js';
import { satisfies } from '../../constraints/system.js';
import { encodeUnknowns } from '../../encode/system-encoder.js';
import { orderTemplatePositions } from '../../encode/symmetry.js';
import { checkInvariants } from '../../certify/certificate.js';
import { warmUpChecker } from '../../certify/lia-solver.js';
import { simplifyInvariant } from '../../ir/simplify.js';
import { PathExplosionError, type CutsetStrategy } from '../../vc/cutset.js';
import { AnalysisUnsupported, constantBitsNeeded, Problem, type PreparedAnalysis } from '../../problem/prepare.js';
import { constantsOf } from '../../ir/constants.js';
import { readableInvariants } from '../../certify/readable.js';
import type { RunResult } from '../../interpreter/types.js';
import { sampleBadStates, sampleStates, wholeRun, withLongRuns, type Samples } from '../../observe/samples.js';
import { singleRunInvariants } from '../../observe/single-run.js';
import { affineHull, fixedVariables, type FixedVariables } from '../../observe/equalities.js';
import { branchAtoms, candidateConjuncts, guardsOver, heldGuards, proveByObservedBounds, splitCandidates, unsignedUpperBounds, wrappedEqualities } from '../../observe/houdini.js';
import { IntTypes, typingOf } from '../../frontend/ctypes.js';
import type { Counterexample, HoudiniReport, InvariantReport, OverflowReport, ProgressEvent, StepStats, VerifyResult } from '../../result.js';
import { verifyWithSummaries } from './verify-summaries.js';
import type { Settings } from '../../settings.js';
import { assertStateConditions, searchBySamples, stateConditions } from './sample-search.js';
import type { ScheduleStep } from '../../constraints/schedule.js';
import { conjoinFacts, cutpointPosition, describePins, placePins } from './pins.js';
import { ghostDefinition, ghostNames, withRemainderGhosts } from '../../ir/remainder-ghosts.js';
import { guardSafe, guardSummaries } from '../../guard/verify-guard.js';
import { Falsifier } from '../../falsify/bmc.js';
import { guessedSummaries } from '../../falsify/guessed-summaries.js';
import { replayed, replayNondet, replayOnOriginal } from '../../guard/replay.js';
import { type Deadline, satStepLimits, SatWorkBudget, stepBuildStopped, VERIFY_SAT_WORK, READABLE_CHECK_WORK, READABLE_INVARIANT_CHECKS, READABLE_CONSTANT_CHECKS, HOUDINI_HEADERS_FIRST_VC_RATIO, GHOSTED_HEADERS_MAX_PATHS, type SatWork } from '../../limits.js';

/** What a verify call asks beyond its problem and settings: hooks, pins and the order of the search. */
export interface VerifySearch {
  /** Write each step's CNF here (DIMACS) — `--emit-dimacs`. */
  readonly onCnf?: (index: number, cnf: import('../../sat/types.js').Cnf) => void;
  readonly onProgress?: (e: ProgressEvent) => void;
  /** Which attempts of the intraprocedural search to run (default: all, in order). An attempt is a
   * schedule step with or without the hull equalities; `index` is its place in the full sequence
   * (the index of its progress events). The portfolio (lib/portfolio) splits the search this way.
   * Searches with procedure summaries ignore it. */
  readonly selectAttempt?: (attempt: AttemptInfo) => boolean;
  /** Pinned invariants, keyed by the source line the engine reports for a cut-point (over the IR
   * variables of the analysed procedure): a known conjunct of the invariant at every cut-point on
   * that line, in every attempt (see pins.ts). They are part of the invariants the certificate check
   * proves; a pin that is not inductive, or false on a sampled run, makes the answer unknown. */
  readonly knownInvariants?: ReadonlyMap<number, Formula>;
  /** When the observed bounds (Houdini) are tried. 'first' (the default): before any template step.
   * 'second': once the first template attempt has failed (or first, when its step is large or the
   * constants wide), as the searches of bounds, ranking functions and cex do, whose many small
   * proofs the first step usually settles. 'never': the template search alone (`--no-observed-bounds`). */
  readonly observedBounds?: 'first' | 'second' | 'never';
}

export interface AttemptInfo {
  /** Position in the full attempt sequence (0-based). */
  readonly index: number;
  readonly total: number;
  /** Position of the step among the schedule's intraprocedural steps (0-based). */
  readonly step: number;
  /** Tried with the sampled runs' hull equalities as known conjuncts. */
  readonly hull: boolean;
}

/** With 'second' (VerifySearch.observedBounds): a first step with more clauses than this is
 * expensive (seconds of SAT at least), and Houdini goes before it. */
const LARGE_STEP_CLAUSES = 150_000;
/** With 'second': template constants wider than this (bits) make the first template step expensive,
 * and Houdini goes first. */
const WIDE_CONSTANT_BITS = 24;

export async function verify(problem: Problem, settings: Settings, options: VerifySearch = {}): Promise<VerifyResult> {
  return new Verification(problem, settings, options).run();
}

/** A schedule step with or without the hull equalities as known conjuncts (and the pins in both). */
interface Attempt {
  readonly step: ScheduleStep;
  readonly stepIndex: number;
  readonly hull: boolean;
  readonly facts: ReadonlyMap<number, Formula>;
  readonly fixed: Map<number, FixedVariables> | undefined;
}

/** What a template step leaves the search with: an answer, or the next step. */
type StepOutcome = { readonly answer: VerifyResult } | 'next' | 'stop';

/**
 * One verify: its answers (each reports the observed bounds' and the falsifier's work so far) and
 * its phases in order: procedure summaries, or on the prepared procedure the sampled runs, the
 * observed bounds (Houdini), the falsifier's rounds and the template steps, interleaved.
 */
class Verification {
  private readonly started = Date.now();
  private readonly program: Program;
  private readonly base: Omit<VerifyResult, 'verdict' | 'stats' | 'millis'> & { function: string; cutpoints: number; verificationConditions: number };
  private readonly pins: ReadonlyMap<number, Formula>;
  private houdini: HoudiniReport | undefined; // set once the fast path has run; every later answer reports it
  private falsifier: Falsifier | null = null; // set once the falsifier has run; every later answer reports it
  // The search on the prepared procedure (set by searchPrepared).
  private prepared!: PreparedAnalysis;
  private samples!: Samples;
  private overflow: OverflowReport | null = null;
  private longRunsPending = false;
  private hull = new Map<number, Formula>();
  private placed!: ReturnType<typeof placePins>;
  private attempts: Attempt[] = [];
  private houdiniPending = false;
  private readonly stats: StepStats[] = [];
  private lastReason = 'no invariant found within the schedule';
  private readonly satWork = new SatWorkBudget(VERIFY_SAT_WORK);
  private readonly tooLarge: { step: ScheduleStep; hull: boolean; template: string; reason: string }[] = [];

  constructor(private readonly problem: Problem, private readonly settings: Settings, private readonly options: VerifySearch) {
    this.program = problem.program;
    this.pins = options.knownInvariants ?? new Map<number, Formula>();
    this.base = {
      function: problem.function,
      cutset: settings.cutset,
      schedule: settings.schedule.name,
      cutpoints: 0,
      verificationConditions: 0,
      invariants: [] as InvariantReport[],
      certified: false,
      ...pinnedReport(options.knownInvariants),
    };
  }

  async run(): Promise<VerifyResult> {
    if (this.problem.needsSummaries) return this.withSummaries();
    let prepared: PreparedAnalysis;
    try {
      prepared = this.problem.analysis(this.settings.cutset);
    } catch (e) {
      if (!(e instanceof AnalysisUnsupported || e instanceof PathExplosionError)) throw e;
      return this.unprepared(e);
    }
    return this.searchPrepared(prepared);
  }

  // Every "unknown" says which pins the search was held to: a wrong pin is the likeliest reason.
  private unknown(reason: string, extra: Partial<VerifyResult> = {}): VerifyResult {
    const { pins, houdini, falsifier } = this;
    return {
      ...this.base,
      stats: [],
      ...extra,
      ...(houdini ? { houdini } : {}),
      ...(falsifier ? { falsifier: falsifier.report() } : {}),
      verdict: 'unknown',
      reason: pins.size > 0 && !reason.includes('pinned') ? `${reason}, with the pinned invariant${pins.size > 1 ? 's' : ''} (${describePins(pins)})` : reason,
      millis: Date.now() - this.started,
    };
  }

  private unsafe(counterexample: Counterexample, extra: Partial<VerifyResult> = {}): VerifyResult {
    return { ...this.base, stats: [], ...extra, verdict: 'unsafe', certified: true, counterexample, millis: Date.now() - this.started };
  }

  /** "safe", once runs of the original program have not broken the invariants (lib/guard). */
  private safe(prepared: PreparedAnalysis, invariants: ReadonlyMap<number, Formula>, extra: Partial<VerifyResult>): VerifyResult {
    return guarded(this.program, prepared, invariants, { ...this.base, stats: this.stats, ...(this.houdini ? { houdini: this.houdini } : {}), ...extra, verdict: 'safe', certified: true, millis: Date.now() - this.started });
  }

  // The falsifier: bounded model checking with z3 (lib/falsify), its rounds between the proof search's
  // steps, so that a cheap refutation comes before an expensive step and neither starves the other.
  // Its counterexamples are replayed on the original program like the sampled runs' failures.
  private async falsified(round: (f: Falsifier) => Promise<Counterexample | null>, extra: Partial<VerifyResult> = {}): Promise<VerifyResult | null> {
    const { deadline } = this.settings;
    const { problem } = this;
    if (deadline.passed || deadline.aborted) return null;
    this.falsifier ??= new Falsifier(problem, { deadline, ...(problem.needsSummaries ? { summaries: guessedSummaries(problem, deadline) } : {}) });
    const falsifier = this.falsifier;
    const counterexample = await round(falsifier);
    if (!counterexample) return null;
    return { ...this.base, stats: [], ...extra, ...(this.houdini ? { houdini: this.houdini } : {}), falsifier: falsifier.report(), verdict: 'unsafe', certified: true, counterexample, millis: Date.now() - this.started };
  }

  /** Recursive procedures remain after inlining: assume-guarantee reasoning with summaries. */
  private async withSummaries(): Promise<VerifyResult> {
    const { problem, program, settings, options, pins } = this;
    if (pins.size > 0) return this.unknown(`pinned invariants are not supported with procedure summaries (recursive procedures): ${describePins(pins)}`);
    const early = await this.falsified((f) => f.next());
    if (early) return early;
    const summarised = await verifyWithSummaries(problem, {
      strategy: settings.cutset, schedule: settings.schedule, backend: settings.backend, deadline: settings.deadline,
      stepWork: stepWork(settings),
      ...(settings.limits.stepTimeLimitMs !== undefined ? { stepTimeLimitMs: settings.limits.stepTimeLimitMs } : {}),
      ...(options.onCnf ? { onCnf: options.onCnf } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    if (summarised.verdict === 'safe') {
      // The summaries on runs of each summarised procedure, "safe" on runs of the function itself.
      guardSummaries(program, summarised.summaries ?? []);
      guardSafe(program, problem.function, { proc: program.procedures.get(problem.function)!, original: [] }, new Map());
    }
    if (summarised.verdict === 'unknown') {
      const late = await this.falsified((f) => f.rest(), { stats: summarised.stats });
      if (late) return late;
    }
    return { ...summarised, ...(this.falsifier ? { falsifier: this.falsifier.report() } : {}) };
  }

  /** No proof is possible here, but concrete runs of the original program may still find a bug. */
  private async unprepared(e: Error): Promise<VerifyResult> {
    const { program } = this;
    const { deadline } = this.settings;
    const fn = this.problem.function;
    const samples = sampleStates(program, fn, [], { deadline, untilFailure: true });
    const counterexample = samples.failure ? replayed(program, fn, samples.failure, deadline) : null;
    if (counterexample) return this.unsafe(counterexample, { function: fn });
    // Bounded model checking needs no path enumeration: it encodes the regions as large blocks.
    const found = await this.falsified((f) => f.rest());
    if (found) return found;
    return this.unknown(e.message);
  }

  private async searchPrepared(prepared: PreparedAnalysis): Promise<VerifyResult> {
    const { base, program, options, pins } = this;
    const { deadline, backend } = this.settings;
    this.prepared = prepared;
    base.function = prepared.function;
    base.cutpoints = prepared.cut.cutpoints.length;
    base.verificationConditions = prepared.vcs.length;
    options.onProgress?.({ kind: 'prepared', cutpoints: base.cutpoints, verificationConditions: base.verificationConditions });

    // z3 starts in the checker's thread while the samples are taken. MiniSat (compiled in its worker,
    // ~0.2 s of CPU) starts with them only when a template step comes first; otherwise the checker's
    // filtering of the observed candidates goes first, and it most often proves the program. A sampled
    // failure makes the starts wasted, but on other threads.
    warmUpChecker();
    const observedBounds = pins.size > 0 ? 'never' : options.observedBounds ?? 'first';
    const houdiniFirst = observedBounds === 'first' || (observedBounds === 'second' && constantBitsNeeded(prepared) > WIDE_CONSTANT_BITS);
    if (!houdiniFirst) backend.warmUp?.();
    const sampled = this.sample(!houdiniFirst);
    if (sampled) return sampled;
    // A function that reads no input: its one run's states, when few, may be the proof.
    const single = pins.size === 0 ? singleRunInvariants(prepared, prepared.function === program.entry) : null;
    if (single) {
      const check = await checkInvariants(prepared.preparedProgram, prepared.function, single, { precondition: prepared.precondition, deadline });
      if (check.valid) return this.safe(prepared, single, { stats: [], invariants: reportInvariants(prepared, single) });
    }
    this.hull = hullEqualities(prepared, this.samples);
    this.placed = placePins(prepared, pins);
    const pinned = this.pinsOnRuns();
    if (pinned) return pinned;
    this.attempts = this.attemptsWith(this.hull);
    // Without pins, the runs' bounds and hull, filtered by the checker to an inductive subset (Houdini),
    // may prove the program without any template search. First by default: since the checker got its
    // own thread and synchronous checks, its rounds cost less than MiniSat's start, the bad-state runs
    // and the first SAT attempt together (fig1: 0.81-0.95 of the time in three interleaved sets; 65
    // SV-COMP tasks: 0.83 in total). In a portfolio, only the lane that owns the first attempt takes it.
    const first = this.attempts[0];
    this.houdiniPending = observedBounds !== 'never' && first !== undefined && this.owns(first);
    const houdiniRanFirst = this.houdiniPending && houdiniFirst;
    if (houdiniRanFirst) {
      const proved = await this.tryObservedBounds();
      if (proved) return proved;
    }
    if (this.longRunsPending) {
      const failing = this.addLongRuns();
      if (failing) return failing;
    }
    const whole = await this.wholeRun(houdiniRanFirst);
    if (whole) return whole;
    // The falsifier's first round (cheap: shallow depths) comes before any template step; in a
    // portfolio, only the lane that owns the first attempt runs it.
    const falsifies = !options.selectAttempt || (first !== undefined && this.owns(first));
    if (falsifies) {
      const found = await this.falsified((f) => f.next());
      if (found) return found;
    }
    backend.warmUp?.();
    return this.templateSearch(falsifies);
  }

  /** Whether this search takes the first attempt, `first` (outside a portfolio's lanes, all of them). */
  private owns(first: Attempt): boolean {
    return !this.options.selectAttempt || this.options.selectAttempt({ index: 0, total: this.attempts.length, step: first.stepIndex, hull: first.hull });
  }

  // Sampling has a budget of interpreter steps (samples.ts), the same on any machine; it only guides the search.
  // Sampling stops at a failure that replays: the answer is then that failure. One that does not
  // replay on the original program is no answer, and the search goes on with the full samples.
  // The long runs (eight of 300,000 steps, only for failures that need many iterations) wait when the
  // observed bounds go first: they most often prove the program, and a proved program has no failure
  // to find. When a traced run read no input (most likely a function without inputs, whose long runs
  // are one run), they still go first: cheaper than a failed Houdini pass.
  private sample(longRuns: boolean): VerifyResult | null {
    const { prepared, program } = this;
    const { deadline } = this.settings;
    const untilFailure = sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, { deadline, untilFailure: true, longRuns });
    const counterexample = untilFailure.failure ? replayed(program, prepared.function, untilFailure.failure, deadline) : null;
    this.samples = untilFailure.failure && !counterexample ? sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, { deadline, longRuns }) : untilFailure;
    this.overflow = this.samples.overflow ? overflowReport(program, prepared.function, this.samples.overflow, deadline) : null;
    if (this.overflow) Object.assign(this.base, { overflow: this.overflow });
    if (counterexample) return this.unsafe(counterexample);
    this.longRunsPending = !longRuns;
    if (this.longRunsPending && this.samples.readsNoInput) return this.addLongRuns();
    return null;
  }

  /** The long runs' failure, replayed, as the answer; their samples (overflow, oneRunGoesOn) kept. */
  private addLongRuns(): VerifyResult | null {
    const { prepared, program } = this;
    const { deadline } = this.settings;
    this.longRunsPending = false;
    const long = withLongRuns(prepared.preparedProgram, prepared.function, this.samples, { deadline });
    // A failure of theirs that does not replay is no answer, as one of the samples' is not.
    const failing = long.failure && long.failure !== this.samples.failure ? replayed(program, prepared.function, long.failure, deadline) : null;
    if (failing) return this.unsafe(failing);
    const overflowed = long.overflow && !this.overflow ? overflowReport(program, prepared.function, long.overflow, deadline) : null;
    if (overflowed) Object.assign(this.base, { overflow: overflowed });
    this.samples = long;
    return null;
  }

  /** A pin without a cut-point, or false in a reachable state, can be no invariant: said before any search. */
  private pinsOnRuns(): VerifyResult | null {
    const { prepared, placed } = this;
    if (placed.unplaced.length > 0) return this.unknown(`no cut-point at line ${placed.unplaced.join(', ')} for the pinned invariant (cut-set ${this.settings.cutset})`);
    for (const [c, fact] of placed.facts) {
      const state = (this.samples.states.get(c) ?? []).find((s) => !F.evaluate(fact, (v) => s.get(v) ?? 0n));
      if (state) {
        const line = cutpointPosition(prepared, c).line;
        const values = [...state].filter(([v]) => F.variablesOf(fact).has(v)).map(([v, x]) => `${v} = ${x}`).join(', ');
        return this.unknown(`the pinned invariant at line ${line} (${F.toC(fact)}) is false in a reachable state${values ? ` (${values})` : ''}`);
      }
    }
    return null;
  }

  // Each step is tried first with the hull equalities as known conjuncts (smaller templates suffice,
  // and the instances are easier), then, if that fails, without them: the sampled runs may not span
  // the reachable states, so a hull equality can be false, and then only the plain step is complete.
  // Pins are known conjuncts in every attempt, with or without the hull equalities.
  // With the hull equalities, the variables they fix get no template coefficients, and their values
  // replace them where the equalities are assumed (step-system.ts).
  private attemptsWith(hull: Map<number, Formula>): Attempt[] {
    const { placed } = this;
    const fixed = fixedByHull(this.prepared, hull);
    return intraproceduralSteps(this.settings.schedule.steps).flatMap((step, stepIndex): Attempt[] => (hull.size > 0
      ? [{ step, stepIndex, hull: true, facts: conjoinFacts(hull, placed.facts), fixed }, { step, stepIndex, hull: false, facts: placed.facts, fixed: undefined }]
      : [{ step, stepIndex, hull: false, facts: placed.facts, fixed: undefined }]));
  }

  // A function that reads no input has one run; when it goes on past the sampling, it now runs to its
  // end (within a budget of steps). A failure there is the answer. Otherwise its states at the
  // cut-points (the corners of its path: samples.ts) bring the bounds and hull of the whole run, and
  // the observed bounds get another chance with them (mono-crafted_1: y == 50000 for x < 50000, then
  // y == x, up to x == 1000000).
  private async wholeRun(houdiniRanFirst: boolean): Promise<VerifyResult | null> {
    const { prepared, program } = this;
    const { deadline } = this.settings;
    const whole = wholeRun(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, this.samples, { deadline });
    if (!whole) return null;
    const failing = whole.failure ? replayed(program, prepared.function, whole.failure, deadline) : null;
    if (failing) return this.unsafe(failing);
    const overflowed = whole.overflow && !this.overflow ? overflowReport(program, prepared.function, whole.overflow, deadline) : null;
    if (overflowed) Object.assign(this.base, { overflow: overflowed });
    this.samples = whole;
    this.hull = hullEqualities(prepared, this.samples);
    this.attempts = this.attemptsWith(this.hull);
    return houdiniRanFirst ? this.tryObservedBounds(true) : null;
  }

  private async tryObservedBounds(onlyThisCutset = false): Promise<VerifyResult | null> {
    const { prepared, program } = this;
    const { deadline, cutset: strategy } = this.settings;
    this.houdiniPending = false;
    if (deadline.passed || deadline.aborted) return null;
    // Each of its three passes is bounded by z3 work (HOUDINI_WORK, lib/limits.ts), so it proves the
    // same programs at any load; the --timeout is the only clock. (A pass that also ended at a share
    // of the time left proved heapsort sooner at --timeout 20, but which pass ended where then
    // depended on the machine's load: nested5-1 was proved idle and not under load.)
    this.options.onProgress?.({ kind: 'checking' }); // the checker filters the candidates
    // At the loop headers (and for a function that takes remainders, with ghost quotients), and on
    // this cut-set with plain, then split candidates. The headers go first when the path cut-set has
    // many times their VCs: a pass over the paths that ends without a proof is then the expensive
    // part (eq1: 80 VCs against 10, 7.5 of 9 s, before the headers' pass proved it in 0.3 s).
    if (onlyThisCutset) return this.observedOnThisCutset();
    if (strategy === 'paths' && prepared.vcs.length >= HOUDINI_HEADERS_FIRST_VC_RATIO * headerVcCount(program, prepared.function)) {
      return (await this.observedAtHeaders()) ?? (await this.observedOnThisCutset());
    }
    return (await this.observedOnThisCutset()) ?? (await this.observedAtHeaders());
  }

  private async observedAtHeaders(): Promise<VerifyResult | null> {
    const { deadline, cutset } = this.settings;
    const proof = await proveAtHeaders(this.program, this.prepared.function, cutset, deadline);
    if (!proof) return null;
    this.houdini = proof.report;
    const cut = { cutset: 'headers' as const, cutpoints: proof.prepared.cut.cutpoints.length, verificationConditions: proof.prepared.vcs.length };
    const invariants = new Map(proof.invariants.map((i) => [i.location, i.formula] as const));
    return this.safe(proof.prepared, invariants, { ...cut, invariants: proof.invariants });
  }

  private async observedOnThisCutset(): Promise<VerifyResult | null> {
    const { prepared, samples, hull } = this;
    const limits = { deadline: this.settings.deadline };
    const plain = candidatesFromSamples(prepared, samples, hull);
    let proof = await proveByObservedBounds(prepared, plain, limits);
    // Not proved with conjunctions: once more with candidates split by the program's branch
    // conditions, which state the disjunctive invariants of loops with phases.
    const split = proof.invariants ? null : splitCandidatesFromSamples(prepared, samples, plain);
    if (split) proof = await proveByObservedBounds(prepared, split, limits);
    this.houdini = proof.report;
    if (!proof.invariants) return null;
    const shown = await readable(prepared, proof.invariants, this.settings.deadline);
    return this.safe(prepared, shown, { invariants: reportInvariants(prepared, shown) });
  }

  /** The schedule's steps in order, between the falsifier's deeper rounds and the observed bounds'
   * turn; then the falsifier's remaining work. */
  private async templateSearch(falsifies: boolean): Promise<VerifyResult> {
    const { prepared, options, stats } = this;
    const { deadline } = this.settings;
    // Only the template steps use the bad states: taken once one is next. The conditions concrete
    // states put on every invariant, whatever its template: the certificate's counterexamples add to
    // them from step to step (sample-search.ts).
    const conditions = stateConditions(this.samples.states, sampleBadStates(prepared.preparedProgram, prepared.function, this.samples, { deadline }));
    for (const [index, attempt] of this.attempts.entries()) {
      if (options.selectAttempt && !options.selectAttempt({ index, total: this.attempts.length, step: attempt.stepIndex, hull: attempt.hull })) continue;
      if (this.houdiniPending && index > 0) {
        const proved = await this.tryObservedBounds();
        if (proved) return proved;
      }
      // A deeper round of the falsifier before each later step.
      if (falsifies && index > 0) {
        const found = await this.falsified((f) => f.next(), { stats });
        if (found) return found;
      }
      if (this.satWork.exhausted) {
        this.lastReason = `SAT work limit reached (${this.satWork.describe()} over all steps; last step: ${this.lastReason})`;
        break;
      }
      if (deadline.aborted) return this.unknown('aborted', { stats });
      if (deadline.passed) return this.unknown(deadline.timeoutReason(), { stats });
      const outcome = await this.templateStep(attempt, index, conditions);
      if (outcome === 'stop') break;
      if (outcome !== 'next') return outcome.answer;
    }
    if (this.houdiniPending) {
      const proved = await this.tryObservedBounds();
      if (proved) return proved;
    }
    // The schedule is spent: the falsifier's remaining work.
    if (falsifies) {
      const found = await this.falsified((f) => f.rest(), { stats });
      if (found) return found;
    }
    return this.unknown(this.lastReason, { stats });
  }

  /** One attempt: its system built and encoded, solved, and a model checked by the certificate checker. */
  private async templateStep(attempt: Attempt, index: number, conditions: ReturnType<typeof stateConditions>): Promise<StepOutcome> {
    const { prepared, options, stats, settings } = this;
    const { deadline, backend } = settings;
    const { step: scheduled, hull: withHull, facts, fixed } = attempt;
    const step = widenedStep(prepared, scheduled);
    const template = `${step.shape.disjuncts}x${step.shape.conjuncts}${withHull ? '+eq' : ''}${this.placed.facts.size > 0 ? '+pin' : ''}`;
    // A step at least as large in every dimension as one that passed a size limit passes it too:
    // skipped without building (building up to the limit takes a minute and gigabytes).
    const smallerTooLarge = this.tooLarge.find((t) => t.hull === withHull && atLeastAsLarge(step, t.step));
    if (smallerTooLarge) {
      this.lastReason = `step ${template} not encoded: at least as large as step ${smallerTooLarge.template} (${smallerTooLarge.reason})`;
      return 'next';
    }
    options.onProgress?.({ kind: 'step-start', index, total: this.attempts.length, template, widths: step.widths });
    const encodeStart = Date.now();
    let templates: StepSystem['templates'];
    let system: StepSystem['system'];
    let encoder: ReturnType<typeof encodeUnknowns>;
    try {
      ({ templates, system } = stepSystem(prepared, scheduled, { facts, ...(fixed ? { fixed } : {}), deadline }));
      encoder = encodeUnknowns(system.unknowns, step.widths);
      for (const [k, c] of system.constraints.entries()) {
        if (k % 16 === 0) deadline.check();
        encoder.assertConstraint(c);
      }
      // One solution per permutation class of conjuncts and disjuncts (symmetry.ts): unsat steps end sooner.
      for (const t of templates.values()) orderTemplatePositions(encoder, t);
      // Necessary conditions from concrete states (see samples.ts, sample-search.ts): they remove no solution.
      assertStateConditions(encoder, templates, facts, conditions);
    } catch (e) {
      const stopped = stepBuildStopped(e);
      if (stopped.timeout) return { answer: this.unknown(deadline.timeoutReason(`last step: ${template} not encoded in time`), { stats }) };
      this.lastReason = `step ${template} not encoded: ${stopped.reason}`;
      this.tooLarge.push({ step, hull: withHull, template, reason: stopped.reason });
      return 'next';
    }
    const encoded = { cnf: encoder.builder.toCnf(), stats: encoder.stats, decode: (m: readonly boolean[]) => encoder.decode(m) };
    const encodeMillis = Date.now() - encodeStart;
    options.onProgress?.({ kind: 'step-encoded', index, variables: encoded.stats.vars, clauses: encoded.stats.clauses });
    options.onCnf?.(index, encoded.cnf);
    // A large first step waits for the cheap certifiable check (its size, not its time, decides:
    // the same order on any machine).
    if (this.houdiniPending && encoded.stats.clauses > LARGE_STEP_CLAUSES) {
      const proved = await this.tryObservedBounds();
      if (proved) return { answer: proved };
    }
    // A step's budget is work (conflicts and propagations), so that the same steps fail on an idle
    // or a busy machine and the next ones (and Houdini) get their turn in the same order; wall clock
    // only as the user set it. All steps together get VERIFY_SAT_WORK, so that the search as a whole
    // ends by its work.
    const work = this.satWork.next(stepWork(settings, step));
    const sat = await backend.solve(encoded.cnf, satStepLimits(work, step.timeLimitMs ?? settings.limits.stepTimeLimitMs, deadline));
    this.satWork.charge(sat);
    const stepStats: StepStats = {
      template,
      disjuncts: step.shape.disjuncts,
      conjuncts: step.shape.conjuncts,
      widths: step.widths,
      unknowns: system.unknowns.length,
      constraints: system.constraints.length,
      variables: encoded.stats.vars,
      clauses: encoded.stats.clauses,
      encodeMillis,
      satMillis: sat.millis,
      ...(sat.solverMillis !== undefined ? { solverMillis: sat.solverMillis } : {}),
      ...(sat.conflicts !== undefined ? { conflicts: sat.conflicts } : {}),
      ...(sat.propagations !== undefined ? { propagations: sat.propagations } : {}),
      backend: sat.backend,
      result: sat.status,
      ...(sat.reason ? { reason: sat.reason } : {}),
    };
    // A step whose SAT search ran out of work: its templates against the concrete states alone, refined
    // by the checker's counterexamples (sample-search.ts), may still refute it or give a certified
    // candidate. Only then: where the Farkas CNF answers, it is the cheaper of the two.
    const searchStart = Date.now();
    const searched = sat.status === 'unknown' && !deadline.passed && !deadline.aborted
      ? await searchBySamples({ prepared, templates, widths: step.widths, facts, conditions, backend, work: this.satWork.next(stepWork(settings, step)), deadline })
      : null;
    if (searched) this.satWork.charge(searched);
    // The reason counts rounds, not milliseconds: the same on every run (the time is statesMillis).
    const rounds = searched ? `${searched.rounds} round${searched.rounds === 1 ? '' : 's'}` : '';
    const statesMillis = Date.now() - searchStart;
    const byStates = searched === null ? null
      : searched.kind === 'open' ? { statesMillis, reason: `${sat.reason ?? 'no answer'}; then neither refuted nor solved by concrete states in ${rounds} (${searched.reason})` }
        : { statesMillis, result: searched.kind === 'refuted' ? 'unsat' as const : 'sat' as const, reason: `${sat.reason ?? 'no answer'}; then ${searched.kind === 'refuted' ? 'refuted' : 'solved'} by concrete states and the checker's counterexamples in ${rounds}` };
    const answered: StepStats = byStates ? { ...stepStats, ...byStates } : stepStats;
    stats.push(answered);
    options.onProgress?.({ kind: 'step-done', index, stats: answered });
    if (searched?.kind === 'proved') {
      const shown = await readable(prepared, searched.invariants, deadline);
      return { answer: this.safe(prepared, shown, { invariants: reportInvariants(prepared, shown) }) };
    }
    if (sat.status === 'unsat' || searched?.kind === 'refuted') return 'next';
    if (sat.status === 'unknown') {
      this.lastReason = sat.reason ?? 'SAT solver gave no answer';
      if (deadline.passed) return { answer: this.unknown(deadline.timeoutReason(`last step: ${this.lastReason}`), { stats }) };
      return 'next'; // a larger step may still be answered (e.g. a memory abort on one instance)
    }
    const values = encoded.decode(sat.model!);
    const value = (u: string): bigint => values.get(u) ?? 0n;
    if (!satisfies(system, value)) return { answer: this.unknown('internal: the SAT model does not satisfy the bilinear system', { stats }) };
    const invariants = new Map<number, Formula>();
    for (const [c, t] of templates) invariants.set(c, simplifyInvariant(F.and(facts.get(c) ?? F.TRUE, decodeTemplate(t, value))));
    options.onProgress?.({ kind: 'checking' });
    const check = await checkInvariants(prepared.preparedProgram, prepared.function, invariants, {
      precondition: prepared.precondition,
      deadline,
    });
    const reports = reportInvariants(prepared, invariants);
    if (!check.valid) {
      return { answer: this.unknown(`certificate rejected: ${check.reason ?? 'an obligation was not proved'}`, { stats, invariants: reports }) };
    }
    const shown = await readable(prepared, invariants, deadline);
    return { answer: this.safe(prepared, shown, { invariants: reportInvariants(prepared, shown) }) };
  }
}

/**
 * Certified invariants, made readable by dropping conjuncts while the checker still validates them.
 * Each try changes the invariant at one cut-point, so only the regions from and to it are checked
 * again (the others were proved with the same invariants at both ends); the result, when it differs,
 * is checked once more as a whole, and the invariants as given stand if that check does not pass.
 */
async function readable(prepared: PreparedAnalysis, invariants: ReadonlyMap<number, Formula>, deadline: Deadline): Promise<Map<number, Formula>> {
  const check = async (candidate: ReadonlyMap<number, Formula>, onlyRegionsTouching?: ReadonlySet<number>) =>
    (await checkInvariants(prepared.preparedProgram, prepared.function, candidate, {
      precondition: prepared.precondition,
      deadline,
      workPerCheck: READABLE_CHECK_WORK,
      ...(onlyRegionsTouching ? { onlyRegionsTouching } : {}),
    })).valid;
  // A try at `c` leaves out the paths from a cut-point none of whose paths lead to `c`.
  const targetsFrom = new Map<number, Set<number | null>>();
  for (const vc of prepared.vcs) targetsFrom.set(vc.from, (targetsFrom.get(vc.from) ?? new Set()).add(vc.to));
  const leavesOut = (c: number): boolean => [...targetsFrom].some(([from, targets]) => from !== c && !targets.has(c));
  let partial = false;
  const shown = await readableInvariants(invariants, (candidate, changedAt) => {
    partial ||= leavesOut(changedAt);
    return check(candidate, new Set([changedAt]));
  }, READABLE_INVARIANT_CHECKS, READABLE_CONSTANT_CHECKS, constantsOf(prepared.cut.proc));
  const same = [...invariants].every(([c, f]) => shown.has(c) && F.toC(shown.get(c)!) === F.toC(f));
  return same || !partial || (await check(shown)) ? shown : new Map(invariants);
}

/** A certified "safe" is returned only after runs of the original program have not broken it or its
 * invariants (lib/guard): the certificate is about the prepared procedure, built by code that can err. */
function guarded(program: Program, prepared: PreparedAnalysis, invariants: ReadonlyMap<number, Formula>, result: VerifyResult): VerifyResult {
  guardSafe(program, prepared.function, prepared.cut, invariants);
  return result;
}


/** A sampled run that overflowed, replayed on the original program (where the line is the user's). */
function overflowReport(program: Program, fn: string, run: RunResult, deadline: Deadline): OverflowReport | null {
  const replay = replayOnOriginal(program, fn, run, deadline);
  if (replay.outcome.kind !== 'overflow') return null;
  return { line: replay.outcome.pos.line, inputs: replay.inputs, nondet: replayNondet(replay) };
}

function pinnedReport(pins: ReadonlyMap<number, Formula> | undefined): { pinned?: VerifyResult['pinned'] } {
  if (!pins || pins.size === 0) return {};
  return { pinned: [...pins].sort(([a], [b]) => a - b).map(([line, f]) => ({ line, expression: F.toC(f) })) };
}

/** Without recursive procedures there are no summaries: steps that only add summary pairs
 * (summaries > 1) are skipped, unless the schedule has nothing else. */
function intraproceduralSteps(steps: readonly ScheduleStep[]): readonly ScheduleStep[] {
  const plain = steps.filter((s) => (s.summaries ?? 1) === 1);
  return plain.length > 0 ? plain : steps;
}

/** Houdini's candidates at each unknown cut-point: the observed states' octagonal bounds and hull. */
function candidatesFromSamples(prepared: PreparedAnalysis, samples: Samples, hull: ReadonlyMap<number, Formula>): Map<number, Formula[]> {
  const guards = branchAtoms(prepared);
  const modulus = unsignedModulus(prepared.preparedProgram, prepared.function);
  return new Map(prepared.unknownCutpoints.map((c) => {
    const vars = prepared.variables.get(c) ?? [];
    const states = samples.observed?.get(c) ?? samples.states.get(c) ?? [];
    const equalities = hull.has(c) ? F.dnf(hull.get(c)!)[0] ?? [] : [];
    const bounds = candidateConjuncts(vars, states, equalities);
    const seen = new Set(bounds.map((f) => F.toC(f)));
    return [c, [...bounds, ...heldGuards(guards, vars, states).filter((g) => !seen.has(F.toC(g))), ...wrappedEqualities(equalities, modulus), ...unsignedUpperBounds(vars, modulus).filter((b) => !seen.has(F.toC(b)))]];
  }));
}

/** 2^w for a variable of an unsigned C type of w bits (not `_Bool`), undefined for any other. */
function unsignedModulus(program: Program, fn: string): (v: string) => bigint | undefined {
  const typing = typingOf(program, fn);
  const types = new IntTypes(typing.dataModel);
  return (v) => {
    const name = typing.typeOf(v);
    if (name === undefined || !types.has(name)) return undefined;
    const t = types.named(name);
    return t.signed || t.isBool ? undefined : 1n << BigInt(t.bits);
  };
}

/** `plain` plus, at each cut-point, candidates split by the atoms of the procedure's branch
 * conditions over its variables; null when no cut-point has such a condition. */
function splitCandidatesFromSamples(prepared: PreparedAnalysis, samples: Samples, plain: ReadonlyMap<number, readonly Formula[]>): Map<number, Formula[]> | null {
  const guards = branchAtoms(prepared);
  let any = false;
  const out = new Map<number, Formula[]>();
  for (const c of prepared.unknownCutpoints) {
    const vars = prepared.variables.get(c) ?? [];
    const own = guardsOver(guards, vars);
    const states = samples.observed?.get(c) ?? samples.states.get(c) ?? [];
    // A guard every state satisfies splits into itself alone, a plain candidate already (heldGuards).
    const listed = new Set((plain.get(c) ?? []).map((f) => F.toC(f)));
    const extra = own.length > 0 && states.length > 0 ? splitCandidates(vars, states, own).filter((f) => !listed.has(F.toC(f))) : [];
    if (extra.length > 0) any = true;
    out.set(c, [...(plain.get(c) ?? []), ...extra]);
  }
  return any ? out : null;
}

/** Equalities of the sampled states' affine hull at each cut-point (see equalities.ts). */
function hullEqualities(prepared: PreparedAnalysis, samples: Samples): Map<number, Formula> {
  const facts = new Map<number, Formula>();
  for (const c of prepared.unknownCutpoints) {
    const eqs = affineHull(prepared.variables.get(c) ?? [], samples.states.get(c) ?? []);
    if (eqs.length > 0) facts.set(c, F.and(...eqs));
  }
  return facts;
}

/** At each cut-point, the variables its hull equalities fix (equalities.ts, fixedVariables). */
function fixedByHull(prepared: PreparedAnalysis, hull: ReadonlyMap<number, Formula>): Map<number, FixedVariables> {
  const out = new Map<number, FixedVariables>();
  for (const [c, f] of hull) {
    const fixed = fixedVariables(f.kind === 'and' ? f.args : [f], prepared.variables.get(c) ?? []);
    if (fixed.fixed.size > 0) out.set(c, fixed);
  }
  return out;
}

/** The VCs of `fn` with the loop-header cut-set (Infinity when it cannot be prepared). */
function headerVcCount(program: Program, fn: string): number {
  try {
    return Problem.of(program, fn).analysis('headers').vcs.length;
  } catch (e) {
    if (e instanceof AnalysisUnsupported || e instanceof PathExplosionError) return Infinity;
    throw e;
  }
}

/**
 * Houdini at the loop headers: with the paths cut-set a loop's invariant is spread over one
 * cut-point per body path, each with its own samples and candidates, and a loop whose paths interleave
 * (heapsort) keeps none of them; at the header one invariant covers them all. For a function that
 * takes remainders the program first gets ghost quotients (`i == 3 * (i / 3)` says i is a multiple
 * of 3), and each ghost's definition joins the candidates; the ghost updates' branches would multiply
 * the paths anyway. The invariants are over the ghosted program (which the checker proves safe: its
 * ghosts never affect the original variables) and are reported with each ghost written as the C
 * division it stands for. Null at once when there is nothing new to try (headers already, no ghosts).
 */
async function proveAtHeaders(program: Program, fn: string, strategy: CutsetStrategy, deadline: Deadline): Promise<{ invariants: InvariantReport[]; report: HoudiniReport; prepared: PreparedAnalysis } | null> {
  const ghosted = withRemainderGhosts(program, fn) ?? { program, ghosts: [] };
  if (ghosted.ghosts.length === 0 && strategy === 'headers') return null;
  let prepared: PreparedAnalysis;
  try {
    prepared = Problem.of(ghosted.program, fn).analysis('headers', ghosted.ghosts.length > 0 ? GHOSTED_HEADERS_MAX_PATHS : undefined);
  } catch (e) {
    if (e instanceof AnalysisUnsupported || e instanceof PathExplosionError) return null;
    throw e;
  }
  // Nothing reads a ghost, so liveness leaves it out; it belongs wherever its variable is live.
  const withGhosts = new Map([...prepared.variables].map(([c, vars]) => [c, [...vars, ...ghosted.ghosts.filter((g) => vars.includes(g.variable) && !vars.includes(g.ghost)).map((g) => g.ghost)]]));
  prepared = { ...prepared, variables: withGhosts };
  // Long runs and guided runs only look for failures, and the search's own sampling takes them on the
  // same program (but for the ghosts, which never change it): here only the states at the headers are new.
  const samples = sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, { deadline, untilFailure: true, longRuns: false, guidedRuns: false });
  if (samples.failure) return null;
  const candidates = candidatesFromSamples(prepared, samples, hullEqualities(prepared, samples));
  for (const [c, list] of candidates) {
    const vars = prepared.variables.get(c) ?? [];
    for (const g of ghosted.ghosts) if (vars.includes(g.variable) && vars.includes(g.ghost)) list.push(ghostDefinition(g));
  }
  const proof = await proveByObservedBounds(prepared, candidates, { deadline });
  if (!proof.invariants) return null;
  return { invariants: reportInvariants(prepared, proof.invariants, ghostNames(ghosted.ghosts)), report: proof.report, prepared };
}

function reportInvariants(prepared: PreparedAnalysis, invariants: ReadonlyMap<number, Formula>, name?: (v: string) => string): InvariantReport[] {
  return [...invariants]
    .map(([loc, formula]) => {
      const pos = cutpointPosition(prepared, loc);
      return { function: prepared.function, line: pos.line, col: pos.col, expression: F.toC(formula, name), location: loc, formula };
    })
    .sort((a, b) => a.line - b.line || a.col - b.col || a.location - b.location);
}

/** One schedule step's SAT budget: the step's own, else the options', else lib/limits.ts's. */
function stepWork(settings: Settings, step?: ScheduleStep): SatWork {
  return {
    conflicts: step?.conflicts ?? settings.limits.stepConflicts,
    propagations: step?.propagations ?? settings.limits.stepPropagations,
  };
}

/** `step` has at least the disjuncts, conjuncts and bit widths of `other`: its system and CNF contain
 * at least as many unknowns, Farkas applications and clauses. */
function atLeastAsLarge(step: ScheduleStep, other: ScheduleStep): boolean {
  return step.shape.disjuncts >= other.shape.disjuncts && step.shape.conjuncts >= other.shape.conjuncts
    && step.widths.coefficient >= other.widths.coefficient && step.widths.constant >= other.widths.constant
    && step.widths.multiplier >= other.widths.multiplier;
}
