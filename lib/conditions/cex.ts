// `farkas cex`: most-general counterexamples for safety (paper 004, Section 6.2, Claim 2). The function
// is rewritten with an error variable (B1, instrument.ts: a failing assertion sets err and jumps to
// the end, where assert(err == 1) stands) and with a counter and a bound assertion on every loop (B2,
// lib/bounds: the bound fitted to the iteration counts of concrete runs that reach the end), so a
// precondition of the new program describes inputs on which an assertion of the original fails after
// finitely many iterations — not inputs on which the function merely never returns. Weakest
// preconditions of that program are computed, and every condition is kept only with a concrete input
// inside it on which the ORIGINAL program fails an assertion, replayed by the interpreter with its
// trace; the others are listed as dropped. When no sampled input fails, the constraint engine first
// tries to prove every assertion (a certified "safe" means there is no counterexample to look for):
// without it, a search for failing conditions of a safe program only ends at the timeout.
import { BAD_STATE_RUN_STEPS, CEX_FAILURE_STEPS, CEX_INPUT_RUN_STEPS, CEX_NO_INPUT_RUN_STEPS, REPLAY_RUN_STEPS, REPLAY_SLACK_STEPS } from '../limits.js';
import { guardFailingConditions } from '../guard/conditions-guard.js';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { Program } from '../ir/cfg.js';
import { runProgram } from '../interpreter/index.js';
import type { RunResult } from '../interpreter/types.js';
import { replayed } from '../guard/replay.js';
import { Problem } from '../problem/prepare.js';
import { withErrorVariable, withNegatedAssertions } from './instrument.js';
import { nondetAsParameters, nondetStreamOf, type NondetInput, type NondetParameters } from './nondet-inputs.js';
import { candidateInputs, failingInputIn, inputRunner } from './points.js';
import { coverageOf, wp, type WpOptions } from './wp.js';
import type { ConditionAnswer, ConditionStats, Coverage, IncompleteSearch } from './types.js';
import { withIterationCounters } from './counters.js';
import { fitBounds, observeIterations } from './bounds-fit.js';
import { verify } from '../engines/constraint/verify.js';
import type { Counterexample, InvariantReport } from '../result.js';
import { loopFreeFailingCondition } from '../falsify/failing-condition.js';
import { everyRunFails, valuesPinnedBy } from '../falsify/bmc.js';
import { guessedSummaries } from '../falsify/guessed-summaries.js';
import type { Deadline } from '../limits.js';
import type { Settings } from '../settings.js';

export interface CexCondition extends ConditionAnswer {
  /** Values of the condition's variables (the parameters, and nondet_K for whole programs). */
  readonly input: ReadonlyMap<string, bigint>;
  /** The original program's nondet stream of the replayed run. */
  readonly nondet: readonly bigint[];
  /** Line of the failing assertion in the original program. */
  readonly line: number;
  readonly replayed: boolean;
  /** The replayed run, step by step. */
  readonly run: RunResult;
}

export interface CexResult {
  readonly function: string;
  /** Whole programs: the nondet reads outside loops that became the parameters nondet_1, nondet_2, … */
  readonly nondetInputs: readonly NondetInput[];
  readonly instrumented: Program;
  readonly conditions: readonly CexCondition[];
  /** Certified preconditions of the instrumented program without a replayed failing input. */
  readonly dropped: readonly { readonly expression: string; readonly reason: string }[];
  readonly reason?: string;
  /** No sampled input failed, and verify proved every assertion: no input fails one. The invariants
   * are verify's, certified by z3 and held to runs of the program. */
  readonly provedSafe?: { readonly invariants: readonly InvariantReport[] };
  /** Failing inputs were left outside every condition when the time for more ran out. */
  readonly incomplete?: IncompleteSearch;
  /** Of the sampled failing inputs (of the program with nondet reads as parameters), how many lie
   * inside a condition reported. */
  readonly coverage?: Coverage;
  readonly stats: ConditionStats;
}

/** A failing run of the original program found by sampling inputs, replayed by the interpreter: a
 * counterexample, though not yet a condition (no precondition search has run for it). */
export interface ConcreteCounterexample {
  /** Values of the original function's parameters. */
  readonly input: ReadonlyMap<string, bigint>;
  /** The nondet stream of the replayed run. */
  readonly nondet: readonly bigint[];
  /** Line of the failing assertion. */
  readonly line: number;
  /** The replayed run, step by step. */
  readonly run: RunResult;
}

export interface CexOptions extends Omit<WpOptions, 'strategy'> {
  /** Called at most once, before the most-general search, with the first input found (by sampling,
   * within `concreteSteps`) on which the program fails an assertion, replayed by the interpreter;
   * a caller can show it while the search goes on. */
  readonly onCounterexample?: (c: ConcreteCounterexample) => void;
  /** Interpreter steps for that sampling (default CEX_FAILURE_STEPS; it ends at the first failing input). */
  readonly concreteSteps?: number;
  /** B2, bound assertions on every loop (default true); without it non-termination conditions come back. */
  readonly loopBounds?: boolean;
  /** B1, the error variable (default true); without it each assertion is negated in place, which asks
   * for inputs on which EVERY check fails — the paper's useless `n <= 0` for an assertion in a loop. */
  readonly errorVariable?: boolean;
  /** When no sampled input fails, first try verify's proof (default true): a caller that has just
   * run it (`verify --cex`) says false. */
  readonly proveFirst?: boolean;
}

type Instrumentation = Pick<CexOptions, 'loopBounds' | 'errorVariable'>;

/** The program of Claim 2: B1 (error variable) and, unless disabled, B2 (loop counters with bounds);
 * nondet reads outside loops are parameters first (nondet-inputs.ts). */
export function instrumentForCex(program: Program, functionName?: string, options: Instrumentation = {}): Program {
  const fn = Problem.of(program, functionName).function;
  return instrument(nondetAsParameters(program, fn).program, fn, options);
}

function instrument(program: Program, fn: string, options: Instrumentation): Program {
  const b1 = options.errorVariable === false ? withNegatedAssertions(program, fn) : withErrorVariable(program, fn);
  if (options.loopBounds === false) return b1;
  const counted = withIterationCounters(b1, fn, new Map(), { keepAssertions: true });
  const params = program.procedures.get(fn)!.params;
  const observed = observeIterations(counted, params);
  const bounds = new Map<number, Linear>();
  for (const loop of counted.loops) bounds.set(loop.header, fitBounds(params, observed.samples.get(loop.header) ?? [], 1)[0]!.bound);
  return withIterationCounters(b1, fn, bounds, { keepAssertions: true }).program;
}

export async function cex(problem: Problem, settings: Settings, options: CexOptions = {}): Promise<CexResult> {
  const { program, function: fn } = problem;
  const whole = nondetAsParameters(program, fn);
  const target = whole.program;
  if (target.procedures.get(fn)!.params.length === 0) return withoutInputs(program, fn, options.onCounterexample);
  const started = Date.now();
  const { deadline } = settings;
  const { found: first, runs: sampledRuns } = firstFailure(program, whole, fn, options.concreteSteps ?? CEX_FAILURE_STEPS);
  if (first) options.onCounterexample?.(first);
  const instrumented = instrument(target, fn, options);
  // No sampled input fails, or the function calls a recursive procedure (which the precondition
  // search cannot analyse): a loop-free function has an exact failing condition, its failing paths
  // executed over the inputs (lib/falsify/failing-condition.ts; recursive calls by guessed summaries).
  if (!first || Problem.of(target, fn).needsSummaries) {
    const exact = await exactConditions(program, whole, fn, deadline);
    if (exact) {
      options.onCounterexample?.(exact.first);
      const stats: ConditionStats = { queries: [], iterations: 0, concreteRuns: sampledRuns + exact.conditions.length, millis: Date.now() - started };
      return { function: fn, nondetInputs: whole.inputs, instrumented, conditions: exact.conditions, dropped: [], stats };
    }
  }
  // Otherwise verify: a proof says there is no counterexample to look for, and its falsifier (bounded
  // model checking) may find the failing input that sampling missed; the search then starts from it.
  let seed: (ConcreteCounterexample & { wholeInput: ReadonlyMap<string, bigint> }) | null = null;
  if (!first && options.proveFirst !== false) {
    const proof = await verify(problem, settings, { observedBounds: 'second' });
    if (proof.verdict === 'safe' && proof.certified) {
      const stats: ConditionStats = { queries: [], iterations: 0, concreteRuns: sampledRuns, millis: Date.now() - started };
      return { function: fn, nondetInputs: whole.inputs, instrumented, conditions: [], dropped: [], provedSafe: { invariants: proof.invariants }, reason: 'no input fails an assertion: verify proved every assertion with certified invariants', stats };
    }
    if (proof.verdict === 'unsafe' && proof.counterexample) {
      seed = asWholeInput(program, whole, fn, proof.counterexample);
      if (seed) options.onCounterexample?.(seed);
    }
  }
  const result = await wp(Problem.of(instrumented, fn), settings, { maxAnswers: 4, ...options, ...(seed ? { seedInputs: [seed.wholeInput] } : {}) });
  const runner = inputRunner(target, fn, [], { maxSteps: CEX_INPUT_RUN_STEPS, seed: 5 });
  const conditions: CexCondition[] = [];
  const dropped: { expression: string; reason: string }[] = [];
  for (const answer of result.preconditions) {
    const found = (await failingInputIn(runner, result.parameters, answer.formula, F.FALSE, { steps: CEX_FAILURE_STEPS }))?.failure ?? null;
    const replay = found ? replayOnOriginal(program, whole, fn, found) : null;
    if (!found || !replay) {
      dropped.push({ expression: answer.expression, reason: 'no input inside it fails an assertion of the original program' });
      continue;
    }
    conditions.push({ ...answer, input: found.inputs, nondet: replay.nondet, line: replay.line, replayed: true, run: replay.run });
  }
  await pinValues(target, fn, conditions, deadline);
  // Certified on the instrumented program: held to runs of the program itself before they are returned.
  guardFailingConditions(program, fn, conditions.map((c) => ({ answer: c, input: c.input, nondet: c.nondet })));
  const reason = conditions.length > 0 ? undefined : result.reason ?? (dropped.length > 0 ? 'every condition found was dropped: no input inside it fails an assertion' : 'no failing condition found');
  const coverage = result.observedInputs ? coverageOf(result.observedInputs, conditions.map((c) => c.formula)) : undefined;
  return { function: fn, nondetInputs: whole.inputs, instrumented, conditions, dropped, ...(reason ? { reason } : {}), ...(result.incomplete ? { incomplete: result.incomplete } : {}), ...(coverage ? { coverage } : {}), stats: result.stats };
}

/** Conditions from the exact failing condition of a loop-free function, each cube with a failing run
 * of the original program from an input inside it; certified when z3 shows that no run from inside it
 * returns (and no guessed summary was used). Null when there is none. */
async function exactConditions(program: Program, whole: NondetParameters, fn: string, deadline: Deadline): Promise<{ conditions: CexCondition[]; first: ConcreteCounterexample } | null> {
  const problem = Problem.of(whole.program, fn);
  const summaries = problem.needsSummaries ? guessedSummaries(problem, deadline) : new Map();
  const exact = await loopFreeFailingCondition(problem, deadline, summaries);
  if (!exact) return null;
  const conditions: CexCondition[] = [];
  let first: ConcreteCounterexample | null = null;
  for (const cube of exact.cubes) {
    const found = runProgram(whole.program, { entry: fn, inputs: cube.input, nondet: [], nondetDefault: 0n, recordTrace: true, maxSteps: REPLAY_RUN_STEPS });
    const replay = found.outcome.kind === 'assertion-failed' ? replayOnOriginal(program, whole, fn, found) : null;
    if (!replay) continue;
    first ??= replay;
    const certified = exact.exact && (await everyRunFails(problem, cube.formula, deadline)) === 'yes';
    conditions.push({ expression: F.toC(cube.formula), formula: cube.formula, certified, invariants: [], neighbours: [], locallyOptimal: exact.exact && exact.cubes.length === 1, input: cube.input, nondet: replay.nondet, line: replay.line, replayed: true, run: replay.run });
  }
  if (!first) return null;
  await pinValues(whole.program, fn, conditions, deadline);
  guardFailingConditions(program, fn, conditions.map((c) => ({ answer: c, input: c.input, nondet: c.nondet })));
  return { conditions, first };
}

/**
 * A condition that leaves each of its variables one value on the inputs the function accepts is
 * stated as those values: `nondet_1 >= 19` under `assume(0 < n && n < 20)` is `nondet_1 == 19`. It
 * is the same set of accepted inputs (a subset of the condition, so every claim about it stands).
 */
async function pinValues(program: Program, fn: string, conditions: CexCondition[], deadline: Deadline): Promise<void> {
  const problem = Problem.of(program, fn);
  for (const [i, c] of conditions.entries()) {
    const variables = [...F.variablesOf(c.formula)];
    if (variables.length === 0 || c.formula.kind !== 'and' && c.formula.kind !== 'atom') continue;
    const pinned = await valuesPinnedBy(problem, c.formula, deadline);
    if (pinned.size !== variables.length) continue;
    const formula = F.and(...[...pinned].map(([v, x]) => F.eqZero(L.sub(L.variable(v), L.constant(x)))));
    if (F.toC(formula) === c.expression) continue;
    conditions[i] = { ...c, formula, expression: F.toC(formula) };
  }
}

/** A counterexample of the original program as an input of the rewritten one (nondet reads outside
 * loops as parameters): the values its run reads there, with the original's replayed run. */
function asWholeInput(program: Program, whole: NondetParameters, fn: string, c: Counterexample): (ConcreteCounterexample & { wholeInput: ReadonlyMap<string, bigint> }) | null {
  const run = runProgram(program, { entry: fn, inputs: c.inputs, nondet: c.nondet, nondetDefault: null, recordTrace: true, maxSteps: (c.steps ?? REPLAY_RUN_STEPS) + REPLAY_SLACK_STEPS });
  if (run.outcome.kind !== 'assertion-failed') return null;
  const wholeInput = new Map(run.inputs);
  for (const step of run.trace ?? []) {
    const param = step.depth === 0 && step.procedure === fn && step.kind === 'edge' ? whole.byEdge.get(step.edge) : undefined;
    if (param !== undefined) wholeInput.set(param, step.nondet?.[0] ?? 0n);
  }
  return { input: run.inputs, nondet: c.nondet, line: run.outcome.pos.line, run, wholeInput };
}

/** A failing run of the rewritten program (nondet reads as parameters), replayed on the original
 * program: its parameter values and nondet stream, the failing line and the recorded run; null when
 * the original does not fail an assertion on it. */
function replayOnOriginal(program: Program, whole: NondetParameters, fn: string, found: RunResult): ConcreteCounterexample | null {
  const originalParams = program.procedures.get(fn)!.params;
  const failing = whole.inputs.length > 0
    ? runProgram(program, { entry: fn, inputs: new Map([...found.inputs].filter(([k]) => originalParams.includes(k))), nondet: nondetStreamOf(whole, fn, found), nondetDefault: null, recordTrace: true, maxSteps: found.steps + REPLAY_SLACK_STEPS })
    : found;
  const replay = failing.outcome.kind === 'assertion-failed' ? replayed(program, fn, failing) : null;
  if (!replay) return null;
  const run = runProgram(program, { entry: fn, inputs: replay.inputs, nondet: replay.nondet, nondetDefault: null, recordTrace: true, maxSteps: failing.steps + REPLAY_SLACK_STEPS });
  return { input: replay.inputs, nondet: replay.nondet, line: replay.line, run };
}

/** The first sampled input (smallest first, then a few large ones: candidateInputs) on which the
 * program fails an assertion, replayed; null when none fails within the budget. A first pass cuts
 * runs short: inputs on which a loop never ends (common among samples) must not eat the budget
 * before the failing ones are reached; a second pass allows long runs. */
function firstFailure(program: Program, whole: NondetParameters, fn: string, budgetSteps: number): { found: ConcreteCounterexample | null; runs: number } {
  const inputs = candidateInputs(whole.program.procedures.get(fn)!.params);
  let earlierPasses = 0;
  let runs = 0;
  for (const maxSteps of [BAD_STATE_RUN_STEPS, CEX_INPUT_RUN_STEPS]) {
    const runner = inputRunner(whole.program, fn, [], { maxSteps, seed: 5 });
    for (const input of inputs) {
      if (earlierPasses + runner.steps >= budgetSteps) return { found: null, runs: runs + runner.runs };
      const failure = runner.run(input).failure;
      const replay = failure ? replayOnOriginal(program, whole, fn, failure) : null;
      if (replay) return { found: replay, runs: runs + runner.runs };
    }
    earlierPasses += runner.steps;
    runs += runner.runs;
  }
  return { found: null, runs };
}

/** No parameters and no nondet read outside a loop: there is nothing to state a condition over. The
 * answer is `1` when a run fails (replayed; not certified: no precondition search ran). */
function withoutInputs(program: Program, fn: string, onCounterexample?: (c: ConcreteCounterexample) => void): CexResult {
  const started = Date.now();
  const runner = inputRunner(program, fn, [], { maxSteps: CEX_NO_INPUT_RUN_STEPS, seed: 5, streams: 8 });
  const failing = runner.run(new Map()).failure;
  const replay = failing ? replayed(program, fn, failing) : null;
  const stats: ConditionStats = { queries: [], iterations: 0, concreteRuns: runner.runs, millis: Date.now() - started };
  const instrumented = program;
  if (!failing || !replay) return { function: fn, nondetInputs: [], instrumented, conditions: [], dropped: [], reason: 'the function has no inputs to state a condition over, and none of its runs failed', stats };
  const run = runProgram(program, { entry: fn, inputs: replay.inputs, nondet: replay.nondet, nondetDefault: null, recordTrace: true, maxSteps: failing.steps + REPLAY_SLACK_STEPS });
  onCounterexample?.({ input: replay.inputs, nondet: replay.nondet, line: replay.line, run });
  const condition: CexCondition = { expression: '1', formula: F.TRUE, certified: false, invariants: [], neighbours: [], locallyOptimal: false, input: new Map(), nondet: replay.nondet, line: replay.line, replayed: true, run };
  return { function: fn, nondetInputs: [], instrumented, conditions: [condition], dropped: [], stats };
}
