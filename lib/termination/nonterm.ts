// `farkas nonterm`: most-general counterexamples for termination (paper 004, Section 6.3, Claim 3).
// The function gets `assert(false)` at its single exit; the weakest preconditions of that program are
// the conditions under which the function never returns. Each comes with its certificate (the
// invariants proving the exit unreachable: a recurrent set, checked by z3) and a concrete input inside
// it whose run the interpreter shows for the first iterations without returning. With no condition,
// the function is shown to terminate when every loop and recursion has a certified bound for every
// input or a ranking function (termination-proof.ts).
import { guardRecurrentSets } from '../guard/conditions-guard.js';
import * as F from '../ir/formula.js';
import type { Program } from '../ir/cfg.js';
import { InputError } from '../diagnostics.js';
import { runProgram } from '../interpreter/index.js';
import { statesAlong, type State } from '../observe/samples.js';
import { withFalseAtExit } from '../conditions/instrument.js';
import { candidateInputs } from '../conditions/points.js';
import { wp } from '../conditions/wp.js';
import type { ConditionOptions } from '../conditions/search.js';
import { withDeadline, type Settings } from '../settings.js';
import type { ConditionAnswer, ConditionStats } from '../conditions/types.js';
import { Problem } from '../problem/prepare.js';
import type { LoopBound } from './bounds.js';
import type { RankedLoop } from './ranking.js';
import type { RankedProcedure } from './recursion-ranking.js';
import { nondetFixedByParameters, type NondetInput } from '../conditions/nondet-inputs.js';
import { sampledRunGoesOn, terminationProofs, type TerminationProof } from './termination-proof.js';
import { type Deadline, NONTERM_SHOWN_INPUTS, NONTERM_SHOWN_RUN_STEPS, TERMINATION_PROOF_MIN_MS } from '../limits.js';
import type { TerminationStatus } from '../result.js';

export interface IterationShown {
  readonly line: number;
  readonly values: ReadonlyMap<string, bigint>;
}

export interface NontermCondition extends ConditionAnswer {
  /** An input satisfying the condition on which the run did not return within the step budget. */
  readonly input?: ReadonlyMap<string, bigint>;
  readonly iterationsShown: readonly IterationShown[];
}

export interface NontermResult {
  readonly function: string;
  readonly verdict: TerminationStatus;
  readonly conditions: readonly NontermCondition[];
  /** "terminates": the ranking argument — a certified bound for every input, or a ranking function,
   * for every loop and recursion. */
  readonly bounds?: readonly LoopBound[];
  readonly ranked?: readonly RankedLoop[];
  readonly rankedRecursion?: readonly RankedProcedure[];
  /** "terminates": the nondet reads outside loops that the bounds name as parameters (`nondet_K`). */
  readonly nondetInputs?: readonly NondetInput[];
  readonly reason?: string;
  readonly stats: ConditionStats;
}

export async function nonterm(problem: Problem, settings: Settings, options: ConditionOptions = {}): Promise<NontermResult> {
  const { program, function: fn } = problem;
  const proc = program.procedures.get(fn)!;
  if (proc.params.length === 0) {
    // A whole program reads its inputs with __VERIFIER_nondet_*(): the termination property is its question.
    throw new InputError('error', `function '${fn}' has no parameters: a non-termination condition is over the function's parameters (choose one with --function; for a whole program, 'farkas verify --property termination')`, proc.pos);
  }
  const { deadline } = settings;
  const started = Date.now();
  // "terminates" needs a certified bound or ranking function for every loop and recursion. When no
  // sampled run goes on, that proof goes first with 70% of the time; else the conditions get 60%
  // first, and the proof what is left when none was found. The order only saves time.
  const proofs = terminationProofs(program, fn, settings, options);
  const terminates = (proof: TerminationProof, stats: ConditionStats): NontermResult => ({
    function: fn,
    verdict: 'terminates',
    conditions: [],
    ...(proof.bounds && proof.bounds.length > 0 ? { bounds: proof.bounds } : {}),
    ...(proof.ranked && proof.ranked.length > 0 ? { ranked: proof.ranked } : {}),
    ...(proof.rankedRecursion ? { rankedRecursion: proof.rankedRecursion } : {}),
    ...(proof.nondetInputs.length > 0 ? { nondetInputs: proof.nondetInputs } : {}),
    stats,
  });
  const runsGoOn = sampledRunGoesOn(nondetFixedByParameters(program, fn).program, fn);
  const reasons: string[] = [];
  if (!runsGoOn) {
    const proof = await proofs.bounded(deadline.part(0.7));
    if (typeof proof !== 'string') return terminates(proof, { queries: [], iterations: 0, concreteRuns: 0, millis: Date.now() - started });
    reasons.push(proof);
  }
  const instrumented = withFalseAtExit(program, fn);
  const result = await wp(Problem.of(instrumented, fn), runsGoOn ? withDeadline(settings, deadline.part(0.6)) : settings, options);
  // The exit is also unreachable where an assume() blocks every run: such a condition is only kept
  // with an input inside it whose run really goes on (past the step budget).
  const conditions = result.preconditions.map((a) => ({ ...a, ...shownRun(program, fn, result.parameters, a.formula) })).filter((c) => c.input !== undefined);
  // Certified on the program with `assert(false)` at the exit: held to runs of the program itself.
  guardRecurrentSets(program, fn, conditions);
  // Ranking functions, then bounds alone (a loop whose sampled runs go on may still be bounded); or,
  // when the bounds search went first and stopped at the end of its share, the bounds again with all
  // the time left.
  const after = runsGoOn
    ? [(within: Deadline) => proofs.rankedFirst(within.part(0.5)), (within: Deadline) => proofs.bounded(within, false)]
    : proofs.boundsTimedOut() ? [(within: Deadline) => proofs.bounded(within, false)] : [];
  if (conditions.length === 0) {
    for (const search of after) {
      if (deadline.left < TERMINATION_PROOF_MIN_MS) break;
      const proof = await search(deadline);
      if (typeof proof !== 'string') return terminates(proof, result.stats);
      reasons.push(proof);
    }
  }
  return {
    function: fn,
    verdict: conditions.length > 0 ? 'non-terminating' : 'unknown',
    conditions,
    ...(conditions.length === 0 ? { reason: [result.reason ?? 'no non-termination condition found', ...reasons].join('; ') } : {}),
    stats: result.stats,
  };
}

/** The first loop-head states of a run from an input inside the condition that does not return. */
function shownRun(program: Program, fn: string, params: readonly string[], condition: F.Formula): { input?: State; iterationsShown: IterationShown[] } {
  const proc = program.procedures.get(fn)!;
  const heads = new Set(proc.locations.filter((l) => l.loopHeader).map((l) => l.id));
  for (const input of candidateInputs(params).slice(0, NONTERM_SHOWN_INPUTS)) {
    if (!F.evaluate(condition, (v) => input.get(v) ?? 0n)) continue;
    const run = runProgram(program, { entry: fn, inputs: input, nondet: [], nondetDefault: 0n, maxSteps: NONTERM_SHOWN_RUN_STEPS, recordTrace: true });
    if (run.outcome.kind !== 'step-limit') continue;
    const shown: IterationShown[] = [];
    for (const [loc, states] of statesAlong(program, fn, run, heads)) {
      const line = proc.locations[loc]?.pos?.line ?? proc.pos.line;
      for (const s of states.slice(0, 5)) shown.push({ line, values: new Map([...s].filter(([v]) => !v.startsWith('__'))) });
    }
    return { input, iterationsShown: shown.slice(0, 5) };
  }
  return { iterationsShown: [] };
}
