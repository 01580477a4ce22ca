// `verify` for programs with (mutually) recursive procedures: assume-guarantee reasoning with q
// unknown pre/post pairs per procedure (paper 004, Section 3). One bilinear system per schedule step
// holds the entry function's VCs (calls assume the summaries) and, for every procedure P and pair i,
// the VCs of `assume(A_i); body; assert(B_i)` with that pair's own loop invariants. A solution is
// reported as "safe" only after the certificate checker has re-proved every body under every pair
// and the entry function, all with calls replaced by the decoded summaries.
import { satStepLimits, SatWorkBudget, stepBuildStopped, VERIFY_SAT_WORK, type Deadline, type SatWork } from '../../limits.js';
import * as F from '../../ir/formula.js';
import type { Formula } from '../../ir/formula.js';
import { locationPos } from '../../ir/cfg.js';
import { buildFarkasSystem, type FarkasInput, type SummaryTemplates } from '../../constraints/farkas.js';
import { decodeTemplate, makeNamedTemplate, makeTemplate, templateAtState, type Template, type TemplateShape } from '../../constraints/template.js';
import type { Schedule, ScheduleStep } from '../../constraints/schedule.js';
import { satisfies, type ConstraintSystem } from '../../constraints/system.js';
import { encodeUnknowns, type SystemEncoder, type UnknownOverride } from '../../encode/system-encoder.js';
import * as L from '../../ir/linear.js';
import type { Linear } from '../../ir/linear.js';
import { candidatePairs, type CandidatePair } from '../../observe/summary-candidates.js';
import type { SatBackend } from '../../sat/types.js';
import { replayed } from '../../guard/replay.js';
import { checkInvariants, type SummaryPairCertificate } from '../../certify/certificate.js';
import { simplifyInvariant } from '../../ir/simplify.js';
import { inputCopyName, summaryVariableToC } from '../../ir/summary-names.js';
import { PathExplosionError, type CutsetStrategy } from '../../vc/cutset.js';
import { AnalysisUnsupported, type Problem } from '../../problem/prepare.js';
import { prepareInterprocedural, type PreparedBody, type PreparedInterprocedural } from './summary-prepare.js';
import { selfCopyName } from './summary-outputs.js';
import { sampleCalls, sampleStates, type CallObservation } from '../../observe/samples.js';
import type { InvariantReport, ProgressEvent, StepStats, SummaryReport, VerifyResult } from '../../result.js';

export interface SummarySearch {
  readonly strategy: CutsetStrategy;
  readonly schedule: Schedule;
  readonly backend: SatBackend;
  /** The user's --timeout and verify's abort signal: aborting stops the running SAT solve, and no
   * further step starts. */
  readonly deadline: Deadline;
  /** A step's SAT budget unless the step sets its own (lib/limits.ts); all steps together get
   * VERIFY_SAT_WORK. */
  readonly stepWork: SatWork;
  readonly stepTimeLimitMs?: number;
  readonly onCnf?: (index: number, cnf: import('../../sat/types.js').Cnf) => void;
  readonly onProgress?: (e: ProgressEvent) => void;
}

/** The unknown relations of one step: summary pairs and loop invariants of every unit. */
export interface StepTemplates {
  readonly summaries: Map<string, SummaryTemplates[]>;
  /** Loop templates of the entry function. */
  readonly entryLoops: Map<number, Template>;
  /** Loop templates of each procedure body under each pair. */
  readonly bodyLoops: Map<string, Map<number, Template>[]>;
  readonly units: FarkasInput[];
  /** Unknowns of pinned (guessed) relations and their values. */
  readonly pinned: Map<string, UnknownOverride>;
}

export async function verifyWithSummaries(problem: Problem, search: SummarySearch): Promise<VerifyResult> {
  const { program, function: fn } = problem;
  const { deadline, schedule, backend } = search;
  const started = Date.now();
  const base = {
    function: fn,
    cutset: search.strategy,
    schedule: schedule.name,
    cutpoints: 0,
    verificationConditions: 0,
    invariants: [] as InvariantReport[],
    certified: false,
  };
  const unknown = (reason: string, extra: Partial<VerifyResult> = {}): VerifyResult => ({
    ...base, stats: [], ...extra, verdict: 'unknown', reason, millis: Date.now() - started,
  });
  // Concrete runs (the interpreter executes the calls) find counterexamples cheaply, even in programs
  // the summaries do not support.
  const failing = sampleStates(program, fn, [], { deadline, untilFailure: true }).failure;
  const counterexample = failing ? replayed(program, fn, failing) : null;
  if (counterexample) return { ...base, stats: [], verdict: 'unsafe', certified: true, counterexample, millis: Date.now() - started };

  let prepared: PreparedInterprocedural;
  try {
    prepared = prepareInterprocedural(problem, search.strategy);
  } catch (e) {
    if (e instanceof AnalysisUnsupported || e instanceof PathExplosionError) return unknown(e.message);
    throw e;
  }
  const bodies = [prepared.entry, ...prepared.procedures.map((p) => p.body)];
  base.function = prepared.function;
  base.cutpoints = bodies.reduce((n, b) => n + b.cut.cutpoints.length, 0);
  base.verificationConditions = bodies.reduce((n, b) => n + b.vcs.length, 0);
  search.onProgress?.({ kind: 'prepared', cutpoints: base.cutpoints, verificationConditions: base.verificationConditions });

  // The prepared program: its procedures take localised globals as parameters and return each output.
  const observed = sampleCalls(prepared.program, prepared.function, { deadline });

  const guesses = guessedPairs(prepared, observed, maxSummaries(schedule));
  const stats: StepStats[] = [];
  let lastReason = 'no summaries and invariants found within the schedule';
  const attempts = scheduleAttempts(schedule, guesses);
  const satWork = new SatWorkBudget(VERIFY_SAT_WORK);
  for (const [index, attempt] of attempts.entries()) {
    if (deadline.aborted) return unknown('aborted', { stats });
    if (deadline.passed) return unknown(deadline.timeoutReason(), { stats });
    if (satWork.exhausted) {
      lastReason = `SAT work limit reached (${satWork.describe()} over all steps; last step: ${lastReason})`;
      break;
    }
    const { step, guided } = attempt;
    const q = step.summaries ?? 1;
    const template = `${step.shape.disjuncts}x${step.shape.conjuncts}q${guided ? pairCount(guided.pairs) : q}${guided ? `+${guided.mode}` : ''}`;
    search.onProgress?.({ kind: 'step-start', index, total: attempts.length, template, widths: step.widths });
    const encodeStart = Date.now();
    const templates = stepTemplates(prepared, step.shape, guided ? pairSpecs(prepared, guided, q) : q);
    let encoder: ReturnType<typeof encodeUnknowns>;
    let system: ReturnType<typeof combineUnits>;
    try {
      system = combineUnits(templates.units.map((u) => ({ ...u, deadline })));
      encoder = encodeUnknowns(system.unknowns, step.widths, { overrides: templates.pinned });
      for (const [k, c] of system.constraints.entries()) {
        if (k % 16 === 0) deadline.check();
        encoder.assertConstraint(c);
      }
      assertObservedCalls(encoder, prepared, templates, observed);
    } catch (e) {
      const stopped = stepBuildStopped(e);
      if (stopped.timeout) return unknown(deadline.timeoutReason(`last step: ${template} not encoded in time`), { stats });
      lastReason = `step ${template} not encoded: ${stopped.reason}`;
      continue;
    }
    const cnf = encoder.builder.toCnf();
    const encodeMillis = Date.now() - encodeStart;
    search.onProgress?.({ kind: 'step-encoded', index, variables: encoder.stats.vars, clauses: encoder.stats.clauses });
    search.onCnf?.(index, cnf);
    // A guess that is wrong usually shows quickly (unsat); it gets half of the step's budget only.
    const share = guided ? 2 : 1;
    const stepTimeLimitMs = step.timeLimitMs ?? search.stepTimeLimitMs;
    const work = satWork.next({
      conflicts: Math.ceil((step.conflicts ?? search.stepWork.conflicts) / share),
      propagations: Math.ceil((step.propagations ?? search.stepWork.propagations) / share),
    });
    const sat = await backend.solve(cnf, satStepLimits(work, stepTimeLimitMs === undefined ? undefined : stepTimeLimitMs / share, deadline));
    satWork.charge(sat);
    const stepStats: StepStats = {
      template, disjuncts: step.shape.disjuncts, conjuncts: step.shape.conjuncts, widths: step.widths,
      unknowns: system.unknowns.length - templates.pinned.size, constraints: system.constraints.length,
      variables: encoder.stats.vars, clauses: encoder.stats.clauses, encodeMillis, satMillis: sat.millis,
      ...(sat.solverMillis !== undefined ? { solverMillis: sat.solverMillis } : {}),
      ...(sat.conflicts !== undefined ? { conflicts: sat.conflicts } : {}),
      ...(sat.propagations !== undefined ? { propagations: sat.propagations } : {}),
      backend: sat.backend, result: sat.status, ...(sat.reason ? { reason: sat.reason } : {}),
      summaries: guided ? pairCount(guided.pairs) : q,
    };
    stats.push(stepStats);
    search.onProgress?.({ kind: 'step-done', index, stats: stepStats });
    if (sat.status === 'unsat') continue;
    if (sat.status === 'unknown') {
      lastReason = sat.reason ?? 'SAT solver gave no answer';
      if (deadline.passed) return unknown(deadline.timeoutReason(`last step: ${lastReason}`), { stats });
      continue;
    }
    const values = encoder.decode(sat.model!);
    const value = (u: string): bigint => values.get(u) ?? 0n;
    if (!satisfies(system, value)) return unknown('internal: the SAT model does not satisfy the bilinear system', { stats });
    const decoded = decodeAll(prepared, templates, value);
    search.onProgress?.({ kind: 'checking' });
    const check = await checkInvariants(prepared.preparedProgram, prepared.function, decoded.entryInvariants, {
      precondition: prepared.precondition,
      summaries: decoded.certificates,
      deadline,
    });
    const reports = { invariants: [...reportInvariants(prepared.entry, prepared.function, decoded.entryInvariants), ...decoded.bodyReports], summaries: decoded.summaryReports };
    if (!check.valid) return unknown(`certificate rejected: ${check.reason ?? 'an obligation was not proved'}`, { stats, ...reports });
    return { ...base, stats, ...reports, verdict: 'safe', certified: true, millis: Date.now() - started };
  }
  return unknown(lastReason, { stats });
}

/** Pairs guessed from the observed calls, per procedure (procedures without a confirmed law are absent). */
type Guesses = ReadonlyMap<string, readonly CandidatePair[]>;

/** A guided attempt pins the guessed pairs ('pairs') or only their post-conditions ('posts'). */
interface Guided {
  readonly mode: 'pairs' | 'posts';
  readonly pairs: Guesses;
}

interface Attempt {
  readonly step: ScheduleStep;
  readonly guided: Guided | null;
}

/**
 * Before each schedule step, the guesses pinned at that step's widths and loop shape: first whole
 * pairs, then only the post-conditions (the pre-conditions searched), then the step itself, so a
 * wrong guess costs a little time and loses no solution.
 */
function scheduleAttempts(schedule: Schedule, guesses: Guesses): Attempt[] {
  // When a procedure has several guessed laws, its best-supported law alone (as guessed, then with a
  // searched pre-condition) comes before all of them: one pair is the simpler summary when it
  // suffices (Fig. 3(a): i >= 0 ⇒ \result == i + j covers the calls that \result == j explains too).
  const firstOnly: Guesses = new Map([...guesses].map(([name, pairs]) => [name, pairs.slice(0, 1)]));
  const several = [...guesses.values()].some((pairs) => pairs.length > 1);
  const guided: Guided[] = guesses.size === 0
    ? []
    : several
      ? [{ mode: 'pairs', pairs: firstOnly }, { mode: 'posts', pairs: firstOnly }, { mode: 'pairs', pairs: guesses }, { mode: 'posts', pairs: guesses }]
      : [{ mode: 'pairs', pairs: guesses }, { mode: 'posts', pairs: guesses }];
  return schedule.steps.flatMap((step) => [...guided.map((g) => ({ step, guided: g })), { step, guided: null }]);
}

function maxSummaries(schedule: Schedule): number {
  return Math.max(1, ...schedule.steps.map((s) => s.summaries ?? 1));
}

function pairCount(pairs: Guesses): number {
  return Math.max(...[...pairs.values()].map((p) => p.length));
}

function guessedPairs(prepared: PreparedInterprocedural, observed: ReadonlyMap<string, readonly CallObservation[]>, maxPairs: number): Guesses {
  const out = new Map<string, CandidatePair[]>();
  for (const p of prepared.procedures) {
    if (p.iface.returnName === null || p.iface.globals.length > 0) continue;
    const states = (observed.get(p.name) ?? []).filter((call) => p.inputs.every((x) => call.args.has(x))).map((call) => new Map([...call.args, [p.iface.returnName!, call.result]]));
    const pairs = candidatePairs(p.inputs, p.iface.returnName, states, { maxPairs });
    if (pairs.length > 0) out.set(p.name, pairs);
  }
  return out;
}

/** Per procedure, what each pair's pre and post are: unknown templates or pinned atoms. */
type PairSpec = { readonly pre: readonly Linear[] | null; readonly post: readonly Linear[] | null };

function pairSpecs(prepared: PreparedInterprocedural, guided: Guided, q: number): Map<string, PairSpec[]> {
  const specs = new Map<string, PairSpec[]>();
  for (const p of prepared.procedures) {
    const pairs = guided.pairs.get(p.name);
    specs.set(p.name, pairs
      ? pairs.map((pair) => ({ pre: guided.mode === 'pairs' ? pair.pre : null, post: pair.post }))
      : Array.from({ length: q }, () => ({ pre: null, post: null })));
  }
  return specs;
}

/** Necessary conditions from real calls: every pair satisfies A_i(args) ⇒ B_i(args, result). */
function assertObservedCalls(encoder: SystemEncoder, prepared: PreparedInterprocedural, t: StepTemplates, observed: ReadonlyMap<string, readonly CallObservation[]>): void {
  const b = encoder.builder;
  const holds = (tpl: Template, state: ReadonlyMap<string, bigint>) =>
    b.orN(templateAtState(tpl, state).map((conj) => b.andN(conj.map((k) => encoder.constraintLiteral(k)))));
  for (const p of prepared.procedures) {
    // The observation records the arguments only; a procedure that also reads globals is not sampled.
    if (p.iface.globals.length > 0) continue;
    for (const call of observed.get(p.name) ?? []) {
      // A procedure made to take globals as parameters (summary-outputs.ts) is not what was observed.
      if (!p.inputs.every((x) => call.args.has(x))) continue;
      const state = new Map(call.args);
      if (p.iface.returnName !== null) state.set(p.iface.returnName, call.result);
      for (const pair of t.summaries.get(p.name)!) b.assertLit(b.orN([-holds(pair.pre, state), holds(pair.post, state)]));
    }
  }
}

export function stepTemplates(prepared: PreparedInterprocedural, shape: TemplateShape, pairs: number | ReadonlyMap<string, readonly PairSpec[]>): StepTemplates {
  // Pairs are conjunctive (as in the paper): the negated pre-condition of a call is then a plain
  // disjunction of atoms, each one case of the Farkas encoding.
  const pairShape: TemplateShape = { disjuncts: 1, conjuncts: shape.conjuncts };
  const summaries = new Map<string, SummaryTemplates[]>();
  const pinned = new Map<string, UnknownOverride>();
  // A pinned relation is a template of as many conjuncts as it has atoms, every unknown fixed.
  const relation = (name: string, variables: readonly string[], atoms: readonly Linear[] | null): Template => {
    if (atoms === null) return makeNamedTemplate(name, variables, pairShape);
    const tpl = makeNamedTemplate(name, variables, { disjuncts: 1, conjuncts: atoms.length });
    atoms.forEach((atom, c) => {
      variables.forEach((v, i) => pinned.set(tpl.coefficient[0]![c]![i]!, { value: L.coefficientOf(atom, v) }));
      pinned.set(tpl.constant[0]![c]!, { value: atom.constant });
    });
    return tpl;
  };
  for (const p of prepared.procedures) {
    const outputs = p.iface.returnName === null ? [] : [p.iface.returnName];
    const specs = typeof pairs === 'number' ? Array.from({ length: pairs }, () => ({ pre: null, post: null })) : pairs.get(p.name)!;
    summaries.set(p.name, specs.map((spec, i) => ({
      pre: relation(`A.${p.name}.${i}`, p.inputs, spec.pre),
      post: relation(`B.${p.name}.${i}`, [...p.inputs, ...outputs], spec.post),
    })));
  }
  const loopTemplates = (body: PreparedBody, prefix: string) =>
    new Map(body.loopCutpoints.map((c) => [c, makeTemplate(c, body.variables.get(c) ?? [], shape, prefix)] as const));
  const entryLoops = loopTemplates(prepared.entry, 'I');
  const units: FarkasInput[] = [{
    vcs: prepared.entry.vcs, templates: entryLoops,
    known: new Map([[prepared.entry.cut.proc.entry, prepared.precondition]]), summaries, multiplierPrefix: 'l',
  }];
  const bodyLoops = new Map<string, Map<number, Template>[]>();
  for (const p of prepared.procedures) {
    const perPair: Map<number, Template>[] = [];
    summaries.get(p.name)!.forEach((pair, i) => {
      const loops = loopTemplates(p.body, `I.${p.name}.${i}.`);
      perPair.push(loops);
      const proc = p.body.cut.proc;
      const templates = new Map<number, Template>(loops);
      // assume(A_i) at the entry; assert(B_i) at the exit, where the inputs are their entry copies.
      templates.set(proc.entry, pair.pre);
      templates.set(proc.exit, { ...pair.post, variables: pair.post.variables.map((v) => (v === p.iface.returnName ? p.returnVar! : inputCopyName(v))) });
      units.push({ vcs: p.body.vcs, templates, known: new Map(), summaries, multiplierPrefix: `m.${p.name}.${i}.` });
    });
    bodyLoops.set(p.name, perPair);
  }
  return { summaries, entryLoops, bodyLoops, units, pinned };
}

/** One system for all units: each unit declares its own templates (a pair belongs to one body unit). */
export function combineUnits(units: readonly FarkasInput[]): ConstraintSystem {
  const unknowns = new Map<string, ConstraintSystem['unknowns'][number]>();
  const constraints: ConstraintSystem['constraints'][number][] = [];
  for (const unit of units) {
    const { system } = buildFarkasSystem(unit);
    for (const u of system.unknowns) unknowns.set(u.name, u);
    // Not push(...): a large system's constraints would overflow the call stack as arguments.
    for (const c of system.constraints) constraints.push(c);
  }
  return { unknowns: [...unknowns.values()], constraints };
}

function decodeAll(prepared: PreparedInterprocedural, t: StepTemplates, value: (u: string) => bigint) {
  const decode = (tpl: Template) => simplifyInvariant(decodeTemplate(tpl, value));
  const entryInvariants = new Map([...t.entryLoops].map(([c, tpl]) => [c, decode(tpl)] as const));
  const certificates = new Map<string, SummaryPairCertificate[]>();
  const summaryReports: SummaryReport[] = [];
  const bodyReports: InvariantReport[] = [];
  for (const p of prepared.procedures) {
    const pairs = t.summaries.get(p.name)!.map((pair, i) => ({
      pre: decode(pair.pre),
      post: decode(pair.post),
      invariants: new Map([...t.bodyLoops.get(p.name)![i]!].map(([c, tpl]) => [c, decode(tpl)] as const)),
    }));
    certificates.set(p.name, pairs);
    // A localised global (summary-outputs.ts) is printed as the global: its value at the call.
    const base = summaryVariableToC(p.name);
    const toC = (v: string) => (v.endsWith('!loc') ? v.slice(0, -'!loc'.length) : base(v));
    summaryReports.push({
      // The copy of a recursive analysed function summarises that function's calls: it is printed as the function.
      procedure: p.name === selfCopyName(prepared.program, prepared.function) ? prepared.function : p.name,
      pairs: pairs.map((pair) => ({ pre: F.toC(pair.pre, toC), post: F.toC(pair.post, toC), preFormula: pair.pre, postFormula: pair.post })),
    });
    pairs.forEach((pair) => bodyReports.push(...reportInvariants(p.body, p.name, pair.invariants, toC)));
  }
  return { entryInvariants, certificates, summaryReports, bodyReports };
}

function reportInvariants(body: PreparedBody, fn: string, invariants: ReadonlyMap<number, Formula>, name?: (v: string) => string): InvariantReport[] {
  const proc = body.cut.proc;
  return [...invariants]
    .map(([loc, formula]) => {
      const pos = locationPos(proc, loc);
      return { function: fn, line: pos.line, col: pos.col, expression: F.toC(formula, name), location: loc, formula };
    })
    .sort((a, b) => a.line - b.line || a.col - b.col || a.location - b.location);
}

