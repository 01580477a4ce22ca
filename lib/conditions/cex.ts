// `farkas cex`: most-general counterexamples for safety (paper 004, Section 6.2, Claim 2). The function
// is rewritten with an error variable (B1, instrument.ts: a failing assertion sets err and jumps to
// the end, where assert(err == 1) stands) and with a counter and a bound assertion on every loop (B2,
// lib/bounds: the bound fitted to the iteration counts of concrete runs that reach the end), so a
// precondition of the new program describes inputs on which an assertion of the original fails after
// finitely many iterations — not inputs on which the function merely never returns. Weakest
// preconditions of that program are computed, and every condition is kept only with a concrete input
// inside it on which the ORIGINAL program fails an assertion, replayed by the interpreter with its
// trace; the others are listed as dropped.
import * as F from '../ir/formula.js';
import type { Linear } from '../ir/linear.js';
import type { Program } from '../ir/cfg.js';
import { runProgram } from '../interp/index.js';
import type { RunResult } from '../interp/types.js';
import { replayed } from '../engine/verify.js';
import { resolveFunction } from '../engine/prepare.js';
import { withErrorVariable } from './instrument.js';
import { failingInputIn, inputRunner } from './points.js';
import { wp, type WpOptions } from './wp.js';
import type { ConditionAnswer, ConditionStats } from './types.js';
import { withIterationCounters } from '../bounds/instrument.js';
import { observeIterations } from '../bounds/bounds.js';
import { fitBounds } from '../bounds/fit.js';

export interface CexCondition extends ConditionAnswer {
  readonly input: ReadonlyMap<string, bigint>;
  readonly nondet: readonly bigint[];
  /** Line of the failing assertion in the original program. */
  readonly line: number;
  readonly replayed: boolean;
  /** The replayed run, step by step. */
  readonly run: RunResult;
}

export interface CexResult {
  readonly function: string;
  readonly instrumented: Program;
  readonly conditions: readonly CexCondition[];
  /** Certified preconditions of the instrumented program without a replayed failing input. */
  readonly dropped: readonly { readonly expression: string; readonly reason: string }[];
  readonly reason?: string;
  readonly stats: ConditionStats;
}

export interface CexOptions extends Omit<WpOptions, 'strategy'> {
  /** B2, bound assertions on every loop (default true); without it non-termination conditions come back. */
  readonly loopBounds?: boolean;
}

/** The program of Claim 2: B1 (error variable) and, unless disabled, B2 (loop counters with bounds). */
export function instrumentForCex(program: Program, functionName?: string, options: { loopBounds?: boolean } = {}): Program {
  const fn = resolveFunction(program, functionName);
  const b1 = withErrorVariable(program, fn);
  if (options.loopBounds === false) return b1;
  const counted = withIterationCounters(b1, fn, new Map(), { keepAssertions: true });
  const params = program.procedures.get(fn)!.params;
  const observed = observeIterations(counted, params, { budgetMs: 3000 });
  const bounds = new Map<number, Linear>();
  for (const loop of counted.loops) bounds.set(loop.header, fitBounds(params, observed.samples.get(loop.header) ?? [], 1)[0]!.bound);
  return withIterationCounters(b1, fn, bounds, { keepAssertions: true }).program;
}

export async function cex(program: Program, options: CexOptions = {}): Promise<CexResult> {
  const fn = resolveFunction(program, options.function);
  const instrumented = instrumentForCex(program, fn, options);
  const result = await wp(instrumented, { maxAnswers: 4, ...options, function: fn });
  const runner = inputRunner(program, fn, [], { maxSteps: 20000, seed: 5 });
  const conditions: CexCondition[] = [];
  const dropped: { expression: string; reason: string }[] = [];
  for (const answer of result.preconditions) {
    const failing = (await failingInputIn(runner, result.parameters, answer.formula, F.FALSE, { budgetMs: 5000 }))?.failure ?? null;
    const replay = failing ? replayed(program, fn, failing) : null;
    if (!failing || !replay) {
      dropped.push({ expression: answer.expression, reason: 'no input inside it fails an assertion (the function may not return there)' });
      continue;
    }
    const run = runProgram(program, { entry: fn, inputs: replay.inputs, nondet: replay.nondet, nondetDefault: null, recordTrace: true, maxSteps: failing.steps + 1000 });
    conditions.push({ ...answer, input: replay.inputs, nondet: replay.nondet, line: replay.line, replayed: true, run });
  }
  const reason = conditions.length > 0 ? undefined : result.reason ?? (dropped.length > 0 ? 'only non-termination conditions were found' : 'no failing condition found');
  return { function: fn, instrumented, conditions, dropped, ...(reason ? { reason } : {}), stats: result.stats };
}
