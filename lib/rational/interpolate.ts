// Linear-arithmetic interpolation from one Farkas certificate (McMillan's method): for a sequence of
// groups G_0 … G_n whose conjunction is infeasible, the partial sums of the certificate give
// sequence interpolants I_0 … I_{n-1}: G_0 ⇒ I_0, I_k ∧ G_{k+1} ⇒ I_{k+1}, I_{n-1} ∧ G_n is
// infeasible, and I_k mentions only variables shared by G_0..k and G_k+1..n (the certificate's
// total has no variable, and a variable local to the prefix does not occur in the suffix).
// Infeasibility that holds over the integers only (no real certificate, even after normalising atoms)
// yields 'no-certificate': callers answer weaker or "unknown", never guess.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { normalizeAtom, normalizeCube, type Atom } from './constraints.js';
import { farkasCertificate } from './farkas-certificate.js';
import { addQ, lcm, mulQ, rational, signQ, ZERO, type Rational } from './rational.js';

export type InterpolationResult =
  | { readonly status: 'interpolants'; readonly interpolants: Formula[] }
  | { readonly status: 'no-certificate' };

export interface InterpolationOptions {
  /**
   * State every interpolant as an inequality, even one summing equalities only: Σλe >= 0 is implied
   * as well as Σλe == 0 and still refutes the suffix (the certificate only needs the sum's sign),
   * so it is a weaker, more general interpolant (lazy annotation prefers those, notes/000 pitfall 10).
   */
  readonly inequalitiesOnly?: boolean;
}

export function sequenceInterpolants(groups: readonly (readonly Atom[])[], options: InterpolationOptions = {}): InterpolationResult {
  if (groups.length < 2) return { status: 'interpolants', interpolants: [] };
  const normalized = groups.map((g) => normalizeCube(g));
  const infeasibleGroup = normalized.findIndex((g) => g === null);
  if (infeasibleGroup >= 0) {
    // One atom is false over the integers on its own: true before it, false from it on.
    return { status: 'interpolants', interpolants: groups.slice(0, -1).map((_, k) => (k < infeasibleGroup ? F.TRUE : F.FALSE)) };
  }
  const cubes = normalized as Atom[][];
  const atoms = cubes.flat();
  const owner = cubes.flatMap((g, k) => g.map(() => k));
  const multipliers = farkasCertificate(atoms);
  if (multipliers === null) return { status: 'no-certificate' };
  const interpolants: Formula[] = [];
  for (let k = 0; k < groups.length - 1; k++) {
    const prefix = atoms.map((a, i) => ({ a, l: multipliers[i]!, i })).filter(({ i, l }) => owner[i]! <= k && signQ(l) !== 0);
    interpolants.push(combination(prefix.map(({ a, l }) => ({ atom: a, multiplier: l })), options.inequalitiesOnly ?? false));
  }
  return { status: 'interpolants', interpolants };
}

/** Interpolant of A against B (A ⇒ I, I ∧ B infeasible, I over shared variables), or null. */
export function binaryInterpolant(a: readonly Atom[], b: readonly Atom[], options: InterpolationOptions = {}): Formula | null {
  const r = sequenceInterpolants([a, b], options);
  return r.status === 'interpolants' ? r.interpolants[0]! : null;
}

/** Σ λ_i atom_i as one integer atom (an equality when every contributing atom is one). */
function combination(terms: readonly { atom: Atom; multiplier: Rational }[], inequalitiesOnly: boolean): Formula {
  if (terms.length === 0) return F.TRUE;
  const coeffs = new Map<string, Rational>();
  let constant: Rational = ZERO;
  for (const { atom, multiplier } of terms) {
    for (const [v, k] of atom.expr.coeffs) coeffs.set(v, addQ(coeffs.get(v) ?? ZERO, mulQ(multiplier, rational(k))));
    constant = addQ(constant, mulQ(multiplier, rational(atom.expr.constant)));
  }
  let scaleBy = constant.den;
  for (const q of coeffs.values()) scaleBy = lcm(scaleBy, q.den);
  const integer = (q: Rational): bigint => (q.num * scaleBy) / q.den;
  const expr = L.fromTerms([...coeffs].map(([v, q]) => [v, integer(q)] as [string, bigint]), integer(constant));
  const rel = !inequalitiesOnly && terms.every(({ atom }) => atom.rel === '==') ? '==' : '>=';
  const n = normalizeAtom({ rel, expr });
  if (n === null) return F.FALSE;
  if (n === 'true') return F.TRUE;
  return n.rel === '>=' ? F.geqZero(n.expr) : F.eqZero(n.expr);
}
