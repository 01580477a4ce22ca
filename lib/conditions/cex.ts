// `farkas cex`: most-general counterexamples for safety (paper 004, Section 6.2, Claim 2). The function
// is rewritten with an error variable (B1, instrument.ts) and the weakest preconditions of the new
// program are computed: conditions under which an assertion of the original fails — or under which
// the function never returns, since B2 (bound templates on every loop) is not implemented. Every
// condition is therefore kept only with a concrete input inside it on which the ORIGINAL program
// fails an assertion, replayed by the interpreter with its trace; the others are listed as dropped.
import * as F from '../ir/formula.js';
import type { Program } from '../ir/cfg.js';
import { runProgram } from '../interp/index.js';
import type { RunResult } from '../interp/types.js';
import { replayed } from '../engine/verify.js';
import { resolveFunction } from '../engine/prepare.js';
import { withErrorVariable } from './instrument.js';
import { candidateInputs, inputRunner } from './points.js';
import { wp, type WpOptions } from './wp.js';
import type { ConditionAnswer, ConditionStats } from './types.js';

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
  /** Certified preconditions of the instrumented program without a failing input (non-termination). */
  readonly dropped: readonly { readonly expression: string; readonly reason: string }[];
  readonly reason?: string;
  readonly stats: ConditionStats;
}

export function instrumentForCex(program: Program, functionName?: string): Program {
  return withErrorVariable(program, resolveFunction(program, functionName));
}

export async function cex(program: Program, options: Omit<WpOptions, 'strategy'> = {}): Promise<CexResult> {
  const fn = resolveFunction(program, options.function);
  const instrumented = withErrorVariable(program, fn);
  const result = await wp(instrumented, { maxAnswers: 4, ...options, function: fn });
  const conditions: CexCondition[] = [];
  const dropped: { expression: string; reason: string }[] = [];
  for (const answer of result.preconditions) {
    const failing = failingRunInside(program, fn, result.parameters, answer.formula);
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

function failingRunInside(program: Program, fn: string, params: readonly string[], condition: F.Formula): RunResult | null {
  const runner = inputRunner(program, fn, [], { maxSteps: 20000, seed: 5 });
  for (const input of candidateInputs(params, params.length <= 2 ? { radius: 250 } : {}).slice(0, 20000)) {
    if (!F.evaluate(condition, (v) => input.get(v) ?? 0n)) continue;
    const run = runner.run(input);
    if (run.failure) return run.failure;
  }
  return null;
}
