// The answer on Horn clauses, as CHC-COMP tools print it: `sat`, `unsat` or `unknown` alone on the
// first line; then the model (sat), the derivation of false (unsat) or the reason (unknown), the
// latter two as SMT-LIB comments so that the output stays readable by SMT-LIB tools.
import { derivationJson, type ChcAnswer, type VerifyResult } from '../../lib/index.js';
import { verifyJson } from './verify.js';

export function formatChc(answer: ChcAnswer, quiet: boolean): string {
  if (quiet) return `${answer.verdict}\n`;
  const lines: string[] = [answer.verdict];
  if (answer.model !== undefined) lines.push(answer.model);
  if (answer.derivationText !== undefined) {
    lines.push(`; derivation of false, ${answer.derivation!.steps.length} clause instance(s), each checked by evaluation:`);
    lines.push(...answer.derivationText.split('\n').map((l) => `; ${l}`));
  }
  if (answer.reason !== undefined) lines.push(`; ${answer.reason}`);
  return lines.join('\n') + '\n';
}

const VERDICT = { sat: 'safe', unsat: 'unsafe', unknown: 'unknown' } as const;

/** verify's JSON object, its verdict that of the checked CHC answer, plus `chc`, `model`, `derivation`. */
export function chcJson(file: string, answer: ChcAnswer, result: VerifyResult): object {
  return {
    // Without the program: the C semantics fields (data model, overflow premise) do not apply.
    ...verifyJson(file, result),
    verdict: VERDICT[answer.verdict],
    ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
    certified: answer.verdict !== 'unknown',
    chc: answer.verdict,
    ...(answer.model !== undefined ? { model: answer.model } : {}),
    ...(answer.derivation ? { derivation: derivationJson(answer.derivation) } : {}),
  };
}
