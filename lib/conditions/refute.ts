// `verify --cex`: when the proof search ends "unknown", look for a most-general failing condition
// (farkas cex) in the time left; a condition with a replayed failing run turns the verdict into
// "unsafe" with that run as the counterexample (for a whole program: over the nondet values in order).
import type { VerifyResult } from '../result.js';
import { InputError } from '../diagnostics.js';
import { AnalysisUnsupported, type Problem } from '../problem/prepare.js';
import { withDeadline, type Settings } from '../settings.js';
import { cex } from './cex.js';
import { CEX_AFTER_VERIFY_MIN_MS, CEX_AFTER_VERIFY_TIMEOUT_MS } from '../limits.js';

/** `settings` are verify's: the search gets what is left of its deadline, or CEX_AFTER_VERIFY_TIMEOUT_MS
 * without a --timeout. */
export async function refuteWithCex(problem: Problem, result: VerifyResult, settings: Settings): Promise<VerifyResult> {
  if (result.verdict !== 'unknown') return result;
  const deadline = settings.deadline.bounded ? settings.deadline : settings.deadline.within(CEX_AFTER_VERIFY_TIMEOUT_MS);
  if (deadline.left < CEX_AFTER_VERIFY_MIN_MS) return result;
  let found;
  try {
    // verify's proof has just ended unknown: cex does not run it again.
    found = await cex(problem, withDeadline(settings, deadline), { proveFirst: false });
  } catch (e) {
    // No parameters and no nondet reads, recursion, path explosion: cex does not apply; the verdict stands.
    if (e instanceof InputError || e instanceof AnalysisUnsupported || (e instanceof Error && e.name === 'PathExplosionError')) return result;
    throw e;
  }
  const condition = found.conditions[0];
  if (!condition) return { ...result, millis: result.millis + found.stats.millis, reason: `${result.reason ?? 'unknown'}; no failing condition either (${found.reason ?? 'none found'})` };
  const { reason: _unused, ...rest } = result;
  return {
    ...rest,
    verdict: 'unsafe',
    certified: false,
    millis: result.millis + found.stats.millis,
    counterexample: { inputs: condition.run.inputs, nondet: condition.nondet, line: condition.line, replayed: true },
    failingCondition: { expression: condition.expression, certified: condition.certified },
  };
}
