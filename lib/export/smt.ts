// The bilinear system of one schedule step (template coefficients × Farkas multipliers, after
// Farkas' lemma) as SMT-LIB over the integers (QF_NIA), with each unknown's bit-width bounds: the
// same problem the bit-blaster hands to the SAT solver, for any SMT solver.
import type { ConstraintSystem, Polynomial, Widths } from '../constraints/system.js';
import { unknownRange, widthFor } from '../encode/system-encoder.js';
import { numeral } from '../certify/lia.js';

const sym = (v: string): string => `|${v.replace(/[|\\]/g, '_')}|`;

function polyToSmt(p: Polynomial): string {
  const terms = [...p.terms.values()].map((t) => {
    const factors = [...(t.coeff === 1n && t.vars.length > 0 ? [] : [numeral(t.coeff)]), ...t.vars.map(sym)];
    return factors.length === 1 ? factors[0]! : `(* ${factors.join(' ')})`;
  });
  if (terms.length === 0) return '0';
  return terms.length === 1 ? terms[0]! : `(+ ${terms.join(' ')})`;
}

export function systemToSmt(system: ConstraintSystem, widths: Widths, comment: string): string {
  const lines = [`; farkas: ${comment}`, '(set-logic QF_NIA)'];
  for (const u of system.unknowns) lines.push(`(declare-fun ${sym(u.name)} () Int)`);
  for (const u of system.unknowns) {
    const [lo, hi] = unknownRange(widthFor(u, widths), u.nonNegative);
    lines.push(`(assert (and (<= ${numeral(lo)} ${sym(u.name)}) (<= ${sym(u.name)} ${numeral(hi)})))`);
  }
  for (const c of system.constraints) {
    lines.push(`(assert (${c.rel === '==' ? '=' : '>='} ${polyToSmt(c.poly)} 0))${c.origin ? ` ; ${c.origin.replace(/\n/g, ' ')}` : ''}`);
  }
  lines.push('(check-sat)', '(get-model)', '(exit)');
  return lines.join('\n') + '\n';
}
