// The "terminates" half of the termination searches (`verify --property termination` and `nonterm`):
// a certified bound on every loop and recursion (bounds), or where none was found a certified ranking
// function — per loop (ranking.ts) and per recursion (recursion-ranking.ts).
import type { Program } from '../ir/cfg.js';
import { runProgram } from '../interpreter/index.js';
import { nondetAsParameters, nondetStreamOf, type NondetInput, type NondetParameters } from '../conditions/nondet-inputs.js';
import { candidateInputs } from '../conditions/points.js';
import type { ConditionOptions } from '../conditions/search.js';
import { withDeadline, type Settings } from '../settings.js';
import { Problem } from '../problem/prepare.js';
import { bounds, type LoopBound } from './bounds.js';
import { rankLoops, type RankedLoop } from './ranking.js';
import { rankRecursion, recursiveCycles, type RankedProcedure, type RecursionRanking } from './recursion-ranking.js';
import { COUNTED_RUN_STEPS, NONTERM_SHOWN_RUN_STEPS, TERMINATION_PROBE_INPUTS, type Deadline } from '../limits.js';

/** Why every run ends: bounds for some loops and recursions, ranking functions for the others. */
export interface TerminationProof {
  readonly bounds?: readonly LoopBound[];
  readonly ranked?: readonly RankedLoop[];
  readonly rankedRecursion?: readonly RankedProcedure[];
  /** The nondet reads the bounds name as parameters (`nondet_K`). */
  readonly nondetInputs: readonly NondetInput[];
}

export interface TerminationProofs {
  /** Bounds first (half the time), then ranking functions for what they left (unless `rankAfter` is false). */
  readonly bounded: (within: Deadline, rankAfter?: boolean) => Promise<TerminationProof | string>;
  /** Ranking functions for every loop and recursion, no bounds. */
  readonly rankedFirst: (within: Deadline) => Promise<TerminationProof | string>;
  /** Whether the last bounds search stopped at the end of its share of the time (on a busy machine
   * it may finish with more). */
  readonly boundsTimedOut: () => boolean;
}

/** The two orders of the search; a recursion's ranking is searched once for both. Each returns the
 * proof, or why there is none. */
export function terminationProofs(program: Program, fn: string, settings: Settings, options: ConditionOptions): TerminationProofs {
  let recursionRanking: Promise<RecursionRanking> | undefined;

  // The bounds are over the parameters and the reads outside loops (each read once per call: the
  // rewritten program has the same runs).
  // A loop without such a bound (its runs too long to count, say) may still have a ranking function.
  let boundsTimedOut = false;
  async function bounded(within: Deadline, rankAfter = true): Promise<TerminationProof | string> {
    const once = nondetAsParameters(program, fn);
    const share = rankAfter ? within.part(0.5) : within;
    const b = await boundedForEveryInput(once.program, fn, withDeadline(settings, share), options);
    boundsTimedOut = !b.complete && share.passed;
    const onOriginal = b.bounded.map((bound) => tightOnOriginal(program, once, fn, bound));
    if (b.complete) return { bounds: onOriginal, nondetInputs: once.inputs };
    if (!rankAfter) return `no certified bound for every loop and recursion${within.passed ? ` (${within.timeoutReason()})` : ''}`;
    return ranked(within, onOriginal, once.inputs, b.callsBounded);
  }

  // A recursion the bounds search did not bound gets a ranking function over its parameters first
  // (recursion-ranking.ts), then each loop not bounded one of its own. A loop inside a recursive
  // procedure is neither bounded nor ranked here.
  async function ranked(within: Deadline, bounded: readonly LoopBound[], inputs: readonly NondetInput[] = [], recursionBounded = false): Promise<TerminationProof | string> {
    let rankedRecursion: readonly RankedProcedure[] = [];
    const problem = Problem.of(program, fn);
    if (problem.needsSummaries && !recursionBounded) {
      const cycles = recursiveCycles(problem.inlined.program, fn);
      const looping = cycles.flat().find((p) => problem.inlined.program.procedures.get(p)!.locations.some((l) => l.loopHeader));
      if (looping) return `no certified bound on a recursion, and ${looping} has a loop: recursion is ranked only without loops`;
      // Searched once: the bounds search's fallback does not repeat what ranking first found.
      recursionRanking ??= rankRecursion(program, fn, withDeadline(settings, within.part(0.5)));
      const recursion = await recursionRanking;
      if (!recursion.complete) return `no certified bound or ranking function for a recursion (${recursion.reason})`;
      rankedRecursion = recursion.ranked;
    }
    const ranking = await rankLoops(program, fn, bounded, withDeadline(settings, within), options);
    if (ranking.complete) {
      return {
        ...(bounded.length > 0 ? { bounds: bounded } : {}),
        ranked: ranking.ranked,
        ...(rankedRecursion.length > 0 ? { rankedRecursion } : {}),
        nondetInputs: inputs,
      };
    }
    return `no certified ${bounded.length > 0 ? 'bound or ' : ''}ranking function for every loop (${ranking.reason})`;
  }

  return { bounded, rankedFirst: (within) => ranked(within, []), boundsTimedOut: () => boundsTimedOut };
}

/**
 * A bound's tight input is one of the rewritten program (the reads outside loops among its parameters,
 * `nondet_K`): it is shown, and replayed by the claim checks, as the original program's input and
 * nondet stream, taken from the rewritten program's run.
 */
function tightOnOriginal(program: Program, once: NondetParameters, fn: string, bound: LoopBound): LoopBound {
  const tight = bound.tight;
  if (tight === undefined || once.inputs.length === 0) return bound;
  const run = runProgram(once.program, { entry: fn, inputs: tight.input, nondet: [...tight.nondet], nondetDefault: 0n, maxSteps: COUNTED_RUN_STEPS, recordTrace: true });
  const own = new Set(program.procedures.get(fn)!.params);
  return { ...bound, tight: { ...tight, input: new Map([...tight.input].filter(([v]) => own.has(v))), nondet: nondetStreamOf(once, fn, run) } };
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

export async function boundedForEveryInput(program: Program, fn: string, settings: Settings, options: ConditionOptions): Promise<EveryInputBounds> {
  const proved = await bounds(Problem.of(program, fn), settings, options);
  const unconditional = (b: { certified: boolean; precondition: string }) => b.certified && b.precondition === '1';
  // A loop is bounded for every input by one unconditional bound, or by the cases of a split
  // (a loop is its line and column: two loops may share a line).
  const everyInput = (loop: LoopBound): boolean => {
    const answers = proved.loops.filter((l) => l.line === loop.line && l.col === loop.col && l.certified);
    return answers.some(unconditional) || answers.filter((l) => l.caseSplit).length >= 2;
  };
  const bounded = proved.loops.filter(everyInput);
  const unbounded = proved.loops.filter((l) => !everyInput(l)).map((l) => ({ line: l.line, col: l.col }));
  const callsBounded = proved.calleesWithLoops.length === 0 && proved.procedures.every(unconditional);
  return { bounded, unbounded, callsBounded, complete: callsBounded && unbounded.length === 0 };
}

/** Whether a run of `program` (its nondet values fixed by parameters, or none read), from one of the
 * first candidate inputs, goes past the step budget. */
export function sampledRunGoesOn(program: Program, fn: string): boolean {
  const params = program.procedures.get(fn)!.params;
  const inputs = params.length > 0 ? candidateInputs(params).slice(0, TERMINATION_PROBE_INPUTS) : [new Map<string, bigint>()];
  return inputs.some((input) =>
    runProgram(program, { entry: fn, inputs: input, nondet: [], nondetDefault: 0n, maxSteps: NONTERM_SHOWN_RUN_STEPS, foldIntoRange: true }).outcome.kind === 'step-limit');
}
