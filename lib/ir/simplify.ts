// Syntactic clean-up of decoded invariants, preserving meaning over the integers: divide each
// inequality by the gcd of its coefficients (rounding the constant down), drop atoms that are always
// true, drop disjuncts with an always-false atom, merge `e >= 0 ∧ -e >= 0` into `e == 0`, and remove
// duplicate atoms and disjuncts.
import * as L from './linear.js';
import type { Linear } from './linear.js';
import * as F from './formula.js';
import type { Formula } from './formula.js';

/** `e >= 0` normalised: coefficients divided by their gcd, constant rounded down. */
export function normaliseInequality(e: Linear): Linear {
  const g = L.coefficientGcd(e);
  if (g <= 1n) return e;
  return L.fromTerms([...e.coeffs].map(([v, k]) => [v, k / g] as [string, bigint]), L.floorDiv(e.constant, g));
}

/** A conjunction of `>=` atoms, simplified; null when it is unsatisfiable syntactically. */
function simplifyCube(atoms: readonly Linear[]): Formula | null {
  const ineqs = new Map<string, Linear>();
  for (const raw of atoms) {
    const e = normaliseInequality(raw);
    if (L.isConstant(e)) {
      if (e.constant < 0n) return null;
      continue;
    }
    // Keep only the tightest constant for the same left-hand side.
    const lhsKey = L.key({ coeffs: e.coeffs, constant: 0n });
    const prev = ineqs.get(lhsKey);
    if (!prev || e.constant < prev.constant) ineqs.set(lhsKey, e);
  }
  const parts: Formula[] = [];
  const used = new Set<string>();
  for (const [k, e] of ineqs) {
    if (used.has(k)) continue;
    const neg = L.negate({ coeffs: e.coeffs, constant: 0n });
    const negKey = L.key(neg);
    const opposite = ineqs.get(negKey);
    if (opposite) {
      used.add(negKey);
      // e >= 0 and -e' >= 0 with the same variable part: c1 + t >= 0 and c2 - t >= 0, i.e. -c1 <= t <= c2.
      const sum = e.constant + opposite.constant;
      if (sum < 0n) return null;
      if (sum === 0n) {
        parts.push(F.eqZero(e));
        continue;
      }
      parts.push(F.geqZero(e), F.geqZero(opposite));
      continue;
    }
    parts.push(F.geqZero(e));
  }
  return F.and(...parts);
}

/** Simplifies a formula whose DNF is small (decoded template invariants). */
export function simplifyInvariant(f: Formula): Formula {
  const cubes: Formula[] = [];
  const seen = new Set<string>();
  for (const cube of F.dnf(f)) {
    const atoms: Linear[] = [];
    for (const a of cube) {
      if (a.kind !== 'atom') continue;
      if (a.rel === '>=') atoms.push(a.expr);
      else atoms.push(a.expr, L.negate(a.expr));
    }
    const s = simplifyCube(atoms);
    if (s === null) continue;
    if (s.kind === 'true') return F.TRUE;
    const key = F.toC(s);
    if (seen.has(key)) continue;
    seen.add(key);
    cubes.push(s);
  }
  return F.or(...cubes);
}
