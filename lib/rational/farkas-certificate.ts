// Farkas certificates by an exact (bigint rational) phase-1 simplex.
// A conjunction of atoms a_i·x + b_i >= 0 (i in I) and a_j·x + b_j == 0 (j in E) has no real solution
// iff there are multipliers λ_i >= 0 (i in I), λ_j free (j in E) with Σ λ a = 0 and Σ λ b = -1
// (Farkas' lemma, affine form). We look for λ as a feasibility LP in standard form; free multipliers
// are split into two non-negative columns. Bland's rule guarantees termination.
import type { Atom } from './constraints.js';
import { addQ, divQ, mulQ, negQ, ONE, rational, signQ, subQ, ZERO, type Rational } from './rational.js';

/** Multipliers (one per atom, in order) proving the conjunction infeasible over the reals, or null
 * when it is feasible over the reals (it may still be infeasible over the integers). */
export function farkasCertificate(atoms: readonly Atom[], maxPivots = 20_000): Rational[] | null {
  const variables = [...new Set(atoms.flatMap((a) => [...a.expr.coeffs.keys()]))].sort();
  // Columns: per atom one (inequality) or two (equality: + and -).
  const columns: { atom: number; sign: bigint }[] = [];
  atoms.forEach((a, i) => {
    columns.push({ atom: i, sign: 1n });
    if (a.rel === '==') columns.push({ atom: i, sign: -1n });
  });
  const n = columns.length;
  const rowsCount = variables.length + 1;
  // Rows: one per variable (Σ λ a_v = 0), then the constant row (Σ λ b = -1).
  const A: Rational[][] = [];
  const rhs: Rational[] = [];
  for (let r = 0; r < rowsCount; r++) {
    const row: Rational[] = columns.map(({ atom, sign }) => {
      const e = atoms[atom]!.expr;
      const k = r < variables.length ? (e.coeffs.get(variables[r]!) ?? 0n) : e.constant;
      return rational(k * sign);
    });
    let b = r < variables.length ? ZERO : rational(-1n);
    if (signQ(b) < 0) {
      for (let j = 0; j < n; j++) row[j] = negQ(row[j]!);
      b = negQ(b);
    }
    // Artificial columns n .. n + rowsCount - 1 form the initial basis.
    for (let k = 0; k < rowsCount; k++) row.push(k === r ? ONE : ZERO);
    A.push(row);
    rhs.push(b);
  }
  const width = n + rowsCount;
  const basis = Array.from({ length: rowsCount }, (_, r) => n + r);
  // Reduced costs of the phase-1 objective (minimise the sum of artificials).
  const cost: Rational[] = Array.from({ length: width }, (_, j) => {
    if (j >= n) return ZERO;
    let s = ZERO;
    for (let r = 0; r < rowsCount; r++) s = subQ(s, A[r]![j]!);
    return s;
  });
  let objective = rhs.reduce((s, b) => addQ(s, b), ZERO);
  for (let pivots = 0; pivots < maxPivots; pivots++) {
    const entering = cost.findIndex((c) => signQ(c) < 0);
    if (entering < 0) break;
    let leaving = -1;
    let best: Rational | null = null;
    for (let r = 0; r < rowsCount; r++) {
      const a = A[r]![entering]!;
      if (signQ(a) <= 0) continue;
      const ratio = divQ(rhs[r]!, a);
      const cmp = best === null ? -1 : signQ(subQ(ratio, best));
      if (cmp < 0 || (cmp === 0 && basis[r]! < basis[leaving]!)) {
        best = ratio;
        leaving = r;
      }
    }
    if (leaving < 0) return null; // unbounded cannot happen in phase 1; be safe
    const pivot = A[leaving]![entering]!;
    const pivotRow = A[leaving]!.map((x) => (signQ(x) === 0 ? x : divQ(x, pivot)));
    const pivotRhs = divQ(rhs[leaving]!, pivot);
    A[leaving] = pivotRow;
    rhs[leaving] = pivotRhs;
    // The tableau is sparse: only the pivot row's non-zero columns change.
    const nonzero: number[] = [];
    for (let j = 0; j < width; j++) if (signQ(pivotRow[j]!) !== 0) nonzero.push(j);
    for (let r = 0; r < rowsCount; r++) {
      if (r === leaving) continue;
      const f = A[r]![entering]!;
      if (signQ(f) === 0) continue;
      const row = A[r]!;
      for (const j of nonzero) row[j] = subQ(row[j]!, mulQ(f, pivotRow[j]!));
      rhs[r] = subQ(rhs[r]!, mulQ(f, pivotRhs));
    }
    const fc = cost[entering]!;
    for (const j of nonzero) cost[j] = subQ(cost[j]!, mulQ(fc, pivotRow[j]!));
    objective = addQ(objective, mulQ(fc, pivotRhs)); // z = z0 + d_e·x_e, x_e = pivotRhs
    basis[leaving] = entering;
  }
  if (signQ(objective) !== 0) return null;
  const multipliers: Rational[] = atoms.map(() => ZERO);
  basis.forEach((col, r) => {
    if (col >= n) return;
    const { atom, sign } = columns[col]!;
    multipliers[atom] = addQ(multipliers[atom]!, sign > 0n ? rhs[r]! : negQ(rhs[r]!));
  });
  return verifyCertificate(atoms, multipliers) ? multipliers : null;
}

/** Exact check of a certificate: non-negative on inequalities, Σ λ a = 0, Σ λ b < 0. */
export function verifyCertificate(atoms: readonly Atom[], multipliers: readonly Rational[]): boolean {
  const sums = new Map<string, Rational>();
  let constant = ZERO;
  for (const [i, a] of atoms.entries()) {
    const l = multipliers[i]!;
    if (a.rel === '>=' && signQ(l) < 0) return false;
    for (const [v, k] of a.expr.coeffs) sums.set(v, addQ(sums.get(v) ?? ZERO, mulQ(l, rational(k))));
    constant = addQ(constant, mulQ(l, rational(a.expr.constant)));
  }
  return [...sums.values()].every((s) => signQ(s) === 0) && signQ(constant) < 0;
}
