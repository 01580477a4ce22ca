// Affine equalities proposed by concrete runs: the affine hull of the states reached at a cut-point,
// by exact integer Gauss–Jordan elimination. verify uses them as known conjuncts of the invariant
// (assumed and required), so the unknown template only has to supply the inequalities (Fig. 2 needs
// x == y and x + y == 102). They are guesses — the runs may not span the reachable states — so every
// step is also tried without them, and the certificate check re-proves whatever is reported.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { State } from './samples.js';

/** Integer basis of { a : a·(s - s0) = 0 for all sampled s } over the given variables. */
export function affineHull(variables: readonly string[], states: readonly State[]): Formula[] {
  if (states.length === 0 || variables.length === 0) return [];
  const s0 = states[0]!;
  const rows: bigint[][] = states.slice(1).map((s) => variables.map((v) => (s.get(v) ?? 0n) - (s0.get(v) ?? 0n)));
  const pivots = gaussJordan(rows, variables.length);
  const pivotCols = new Set(pivots.map((p) => p.col));
  const equalities: Formula[] = [];
  for (let free = 0; free < variables.length; free++) {
    if (pivotCols.has(free)) continue;
    // x_free = D, other free columns 0, each pivot column solved from its row.
    let d = 1n;
    for (const p of pivots) d = lcm(d, abs(p.row[p.col]!));
    const a: bigint[] = variables.map(() => 0n);
    a[free] = d;
    for (const p of pivots) a[p.col] = (-p.row[free]! * d) / p.row[p.col]!;
    const g = a.reduce((acc, x) => L.gcd(acc, x), 0n);
    const coeffs = variables.map((v, i) => [v, a[i]! / g] as [string, bigint]);
    const lhs = L.fromTerms(coeffs);
    const value = L.evaluate(lhs, (v) => s0.get(v) ?? 0n);
    equalities.push(F.eqZero(L.addConstant(lhs, -value)));
  }
  return equalities.filter((e) => e.kind === 'atom');
}

interface Pivot { col: number; row: bigint[] }

/** Reduces rows in place to an integer reduced row-echelon form; returns the pivot rows. */
function gaussJordan(rows: bigint[][], cols: number): Pivot[] {
  const pivots: Pivot[] = [];
  let r = 0;
  for (let c = 0; c < cols && r < rows.length; c++) {
    const at = rows.findIndex((row, i) => i >= r && row[c] !== 0n);
    if (at < 0) continue;
    [rows[r], rows[at]] = [rows[at]!, rows[r]!];
    const pivot = rows[r]!;
    for (let i = 0; i < rows.length; i++) {
      if (i === r || rows[i]![c] === 0n) continue;
      const f = rows[i]![c]!;
      const p = pivot[c]!;
      rows[i] = normalise(rows[i]!.map((x, j) => x * p - pivot[j]! * f));
    }
    rows[r] = normalise(pivot);
    pivots.push({ col: c, row: rows[r]! });
    r++;
  }
  // Later eliminations may have rescaled earlier pivot rows; take the final rows.
  return pivots.map((p) => ({ col: p.col, row: rows.find((row) => row[p.col] !== 0n && pivots.every((q) => q.col === p.col || row[q.col] === 0n))! }));
}

function normalise(row: bigint[]): bigint[] {
  const g = row.reduce((acc, x) => L.gcd(acc, x), 0n);
  return g > 1n ? row.map((x) => x / g) : row;
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

function lcm(a: bigint, b: bigint): bigint {
  return (a / L.gcd(a, b)) * b;
}

/** The variables some equalities fix, and the values of those they fix with integer coefficients. */
export interface FixedVariables {
  /** One variable per independent equality: on the equalities' solutions, a function of the others. */
  readonly fixed: ReadonlySet<string>;
  /** For each fixed variable whose reduced equality has a coefficient ±1 on it: its value, an
   * integer expression over the variables not fixed (the other fixed ones have none). */
  readonly values: ReadonlyMap<string, L.Linear>;
}

/**
 * The variables the equalities fix in terms of the others (Gauss–Jordan over the integers). On the
 * equalities' solutions a linear row over all `variables` equals a row over the rest, so a template
 * conjoined with them needs no coefficients for the fixed ones, and wherever the equalities are
 * assumed, a fixed variable with an integer value can be replaced by it (verify's hull attempts do
 * both: fewer unknowns, fewer multipliers, fewer bilinear products). A variable with a coefficient of
 * ±1 in its equality is preferred, so that its value stays integral, and then the later of the
 * `variables` (the earlier ones are the program's own, read first in reports).
 */
export function fixedVariables(equalities: readonly Formula[], variables: readonly string[]): FixedVariables {
  const order = new Map(variables.map((v, i) => [v, i] as const));
  const pending: L.Linear[] = equalities
    .filter((e): e is Extract<Formula, { kind: 'atom' }> => e.kind === 'atom' && e.rel === '==')
    .map((e) => reduced(e.expr))
    .filter((r) => L.variablesOf(r).some((v) => order.has(v)));
  const pivots: { variable: string; row: L.Linear }[] = [];
  while (pending.length > 0) {
    let best: { row: number; variable: string; unit: boolean; index: number } | null = null;
    for (const [k, row] of pending.entries()) {
      for (const [v, c] of row.coeffs) {
        const index = order.get(v);
        if (index === undefined) continue;
        const unit = c === 1n || c === -1n;
        if (!best || (unit && !best.unit) || (unit === best.unit && index > best.index)) best = { row: k, variable: v, unit, index };
      }
    }
    if (!best) break;
    const variable = best.variable;
    const pivot = pending.splice(best.row, 1)[0]!;
    const p = L.coefficientOf(pivot, variable);
    // The chosen variable leaves every other row, pending or already a pivot's: row·p - pivot·c.
    const without = (row: L.Linear): L.Linear => {
      const c = L.coefficientOf(row, variable);
      return c === 0n ? row : reduced(L.sub(L.scale(row, p), L.scale(pivot, c)));
    };
    for (const q of pivots) q.row = without(q.row);
    for (let k = pending.length - 1; k >= 0; k--) {
      pending[k] = without(pending[k]!);
      if (!L.variablesOf(pending[k]!).some((v) => order.has(v))) pending.splice(k, 1);
    }
    pivots.push({ variable, row: pivot });
  }
  const values = new Map<string, L.Linear>();
  for (const { variable, row } of pivots) {
    const p = L.coefficientOf(row, variable);
    if (p !== 1n && p !== -1n) continue;
    // p·v + rest == 0: v == -rest / p.
    const rest = L.sub(row, L.variable(variable, p));
    values.set(variable, p === 1n ? L.negate(rest) : rest);
  }
  return { fixed: new Set(pivots.map((q) => q.variable)), values };
}

/** The equality's expression divided by the gcd of its coefficients and constant. */
function reduced(e: L.Linear): L.Linear {
  const g = L.gcd(L.coefficientGcd(e), e.constant);
  return g > 1n ? L.fromTerms([...e.coeffs].map(([v, c]) => [v, c / g] as [string, bigint]), e.constant / g) : e;
}
