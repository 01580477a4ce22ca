// Summaries for the falsifier's calls of recursive procedures, guessed from observed calls: each
// affine law fitted to a cluster of calls ("its inputs' range ⇒ m·result = a·args + c", the same
// guesses the summary search starts from: lib/observe/summary-candidates.ts), and every observed call
// itself (these arguments, this result). The falsifier lets a call return only what one of them
// says (an under-approximation, if the guesses are right), so a bug 617 calls deep is one query:
// f(n) = 2n gives the n with 2n == 1234. The guesses may be wrong; a model built on a wrong one does
// not replay on the original program and is no answer.
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Program } from '../ir/cfg.js';
import type { CallSummaries } from '../certify/region-encoding.js';
import { sampleCalls } from '../observe/samples.js';
import { atomsFormula, candidatePairs } from '../observe/summary-candidates.js';
import type { Problem } from '../problem/prepare.js';
import type { Deadline } from '../limits.js';
import { RESULT_NAME } from './bmc.js';

/** Laws per procedure, at most. */
const MAX_LAWS = 4;
/** Observed calls per procedure kept as exact cases, at most. */
const MAX_CALLS = 24;

export function guessedSummaries(problem: Problem, deadline: Deadline): CallSummaries {
  const recursive = new Set(problem.inlined.recursiveCalls.map((c) => c.callee));
  if (recursive.size === 0) return new Map();
  const program: Program = problem.program;
  const observed = sampleCalls(program, problem.function, { deadline });
  const summaries = new Map<string, { params: readonly string[]; returnName: string; pairs: { pre: F.Formula; post: F.Formula }[] }>();
  for (const callee of [...recursive].sort()) {
    const params = program.procedures.get(callee)?.params ?? [];
    const calls = observed.get(callee) ?? [];
    const states = calls.map((c) => new Map([...params.map((p) => [p, c.args.get(p) ?? 0n] as const), [RESULT_NAME, c.result] as const]));
    const laws = candidatePairs(params, RESULT_NAME, states, { maxPairs: MAX_LAWS }).map((p) => ({ pre: atomsFormula(p.pre), post: atomsFormula(p.post) }));
    const cases = calls.slice(0, MAX_CALLS).map((c) => ({
      pre: F.and(...params.map((p) => F.eqZero(L.sub(L.variable(p), L.constant(c.args.get(p) ?? 0n))))),
      post: F.eqZero(L.sub(L.variable(RESULT_NAME), L.constant(c.result))),
    }));
    summaries.set(callee, { params, returnName: RESULT_NAME, pairs: [...laws, ...cases] });
  }
  return summaries;
}
