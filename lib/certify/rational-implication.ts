// Implication between conjunctions of linear atoms decided without z3, by an exact rational Farkas
// certificate (the simplex the interpolation engines use). Only ever a sufficient test: "true" is an
// implication over the integers too, "false" may still be one (the integers imply more), and the
// caller then asks the checker or does without.
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { farkasCertificate } from '../rational/farkas-certificate.js';
import type { Atom } from '../rational/constraints.js';

/**
 * `atoms` imply `atom` because `atoms ∧ ¬atom` has no rational solution (an exact Farkas certificate;
 * over the integers ¬(e >= 0) is e <= -1, and ¬(e == 0) is e <= -1 or e >= 1). No rational solution
 * means no integer one, so a conjunct dropped on this ground is implied over the integers too; a
 * false answer may still be an integer implication (then the conjunct is kept).
 */
export function impliedOverRationals(atoms: readonly Formula[], atom: Formula): boolean {
  if (atom.kind !== 'atom') return false;
  const given: Atom[] = [];
  for (const a of atoms) {
    if (a.kind !== 'atom') return false;
    given.push({ rel: a.rel, expr: a.expr });
  }
  const below: Atom = { rel: '>=', expr: L.sub(L.constant(-1n), atom.expr) }; // e <= -1
  const above: Atom = { rel: '>=', expr: L.sub(atom.expr, L.constant(1n)) }; // e >= 1
  const refuted = (extra: Atom): boolean => farkasCertificate([...given, extra]) !== null;
  return refuted(below) && (atom.rel === '>=' || refuted(above));
}

/** Two conjunctions of atoms each imply every atom of the other over the rationals (so they are
 * equivalent over the integers); false when either is not a conjunction of atoms or this test cannot tell. */
export function equivalentOverRationals(a: Formula, b: Formula): boolean {
  const atomsOf = (f: Formula): Formula[] | null => {
    const parts = f.kind === 'and' ? f.args : [f];
    return parts.every((p) => p.kind === 'atom') ? [...parts] : null;
  };
  const [as, bs] = [atomsOf(a), atomsOf(b)];
  if (as === null || bs === null) return false;
  return bs.every((atom) => impliedOverRationals(as, atom)) && as.every((atom) => impliedOverRationals(bs, atom));
}
