// `farkas nonterm`: most-general counterexamples for termination (paper 004, Section 6.3, Claim 3).
// The function gets `assert(false)` at its single exit; the weakest preconditions of that program are
// the conditions under which the function never returns. Each comes with its certificate (the
// invariants proving the exit unreachable: a recurrent set, checked by z3) and a concrete input inside
// it whose run the interpreter shows for the first iterations without returning. With no condition,
// the function is shown to terminate when every loop has a certified bound for every input (bounds).
import { guardRecurrentSets } from './conditions-guard.js';
import * as F from '../ir/formula.js';
import type { Program } from '../ir/cfg.js';
import { InputError } from '../diagnostics.js';
import { runProgram } from '../interpreter/index.js';
import { statesAlong, type State } from '../observe/samples.js';
import { withFalseAtExit } from './instrument.js';
import { candidateInputs } from './points.js';
import { wp, type WpOptions } from './wp.js';
import type { ConditionAnswer, ConditionStats } from './types.js';
import { Problem } from '../problem/prepare.js';
import { bounds, type LoopBound } from './bounds.js';
import { CONDITION_SEARCH_TIMEOUT_MS, Deadline, NONTERM_SHOWN_INPUTS, NONTERM_SHOWN_RUN_STEPS, TERMINATION_PROOF_MIN_MS } from '../limits.js';

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
  readonly verdict: 'non-terminating' | 'terminates' | 'unknown';
  readonly conditions: readonly NontermCondition[];
  /** "terminates": the ranking argument — a certified bound for every loop, for every input. */
  readonly bounds?: readonly LoopBound[];
  readonly reason?: string;
  readonly stats: ConditionStats;
}

export async function nonterm(program: Program, options: Omit<WpOptions, 'strategy'> = {}): Promise<NontermResult> {
  const fn = Problem.of(program, options.function).function;
  const proc = program.procedures.get(fn)!;
  if (proc.params.length === 0) {
    // A whole program reads its inputs with __VERIFIER_nondet_*(): the termination property is its question.
    throw new InputError('error', `function '${fn}' has no parameters: a non-termination condition is over the function's parameters (choose one with --function; for a whole program, 'farkas verify --property termination')`, proc.pos);
  }
  const deadline = options.deadline ?? new Deadline(options.timeoutMs ?? CONDITION_SEARCH_TIMEOUT_MS);
  const instrumented = withFalseAtExit(program, fn);
  const result = await wp(instrumented, { ...options, function: fn, deadline });
  // The exit is also unreachable where an assume() blocks every run: such a condition is only kept
  // with an input inside it whose run really goes on (past the step budget).
  const conditions = result.preconditions.map((a) => ({ ...a, ...shownRun(program, fn, result.parameters, a.formula) })).filter((c) => c.input !== undefined);
  // Certified on the program with `assert(false)` at the exit: held to runs of the program itself.
  guardRecurrentSets(program, fn, conditions);
  if (conditions.length === 0) {
    // No input keeps it running: try to prove that, with a certified bound on every loop.
    const proved = deadline.left > TERMINATION_PROOF_MIN_MS ? await boundedForEveryInput(program, fn, { ...options, deadline }) : null;
    if (proved?.complete) return { function: fn, verdict: 'terminates', conditions: [], bounds: proved.bounded, stats: result.stats };
  }
  return {
    function: fn,
    verdict: conditions.length > 0 ? 'non-terminating' : 'unknown',
    conditions,
    ...(conditions.length === 0 ? { reason: result.reason ?? 'no non-termination condition found' } : {}),
    stats: result.stats,
  };
}

/** What the bounds search proved for every input: the loops so bounded, the others, and whether every
 * recursion is bounded and no callee has a loop (bounds counts neither). */
export interface EveryInputBounds {
  readonly bounded: readonly LoopBound[];
  readonly unbounded: readonly { readonly line: number; readonly col: number }[];
  readonly callsBounded: boolean;
  /** Every loop bounded and every call: a ranking argument for "terminates". */
  readonly complete: boolean;
}

export async function boundedForEveryInput(program: Program, fn: string, options: Omit<WpOptions, 'strategy'>): Promise<EveryInputBounds> {
  const proved = await bounds(program, { ...options, function: fn });
  const unconditional = (b: { certified: boolean; precondition: string }) => b.certified && b.precondition === '1';
  // A loop is bounded for every input by one unconditional bound, or by the two cases of a split
  // (a loop is its line and column: two loops may share a line).
  const everyInput = (loop: LoopBound): boolean => {
    const answers = proved.loops.filter((l) => l.line === loop.line && l.col === loop.col && l.certified);
    return answers.some(unconditional) || answers.filter((l) => l.caseSplit).length === 2;
  };
  const bounded = proved.loops.filter(everyInput);
  const unbounded = proved.loops.filter((l) => !everyInput(l)).map((l) => ({ line: l.line, col: l.col }));
  const callsBounded = proved.calleesWithLoops.length === 0 && proved.procedures.every(unconditional);
  return { bounded, unbounded, callsBounded, complete: callsBounded && unbounded.length === 0 };
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
