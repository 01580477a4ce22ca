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

/**
 * Variables that the equalities fix in terms of the other variables, one per independent equality:
 * on the equalities' solutions a linear row over all `variables` equals a row over the others, so a
 * template conjoined with them needs no coefficients for these (verify leaves them out of the hull
 * attempts' templates: fewer unknowns, fewer bilinear products). A variable with a coefficient of ±1
 * in its equality is preferred, so that the rows over the rest stay integral without scaling, and
 * then the later of the `variables` (the earlier ones are the program's own, read first in reports).
 */
export function determinedVariables(equalities: readonly Formula[], variables: readonly string[]): Set<string> {
  const order = new Map(variables.map((v, i) => [v, i] as const));
  let rows: L.Linear[] = equalities
    .filter((e): e is Extract<Formula, { kind: 'atom' }> => e.kind === 'atom' && e.rel === '==')
    .map((e) => reducedCoefficients(e.expr))
    .filter((r) => L.variablesOf(r).some((v) => order.has(v)));
  const determined = new Set<string>();
  while (rows.length > 0) {
    let best: { row: number; variable: string; unit: boolean; index: number } | null = null;
    for (const [k, row] of rows.entries()) {
      for (const [v, c] of row.coeffs) {
        const index = order.get(v);
        if (index === undefined) continue;
        const unit = c === 1n || c === -1n;
        if (!best || (unit && !best.unit) || (unit === best.unit && index > best.index)) best = { row: k, variable: v, unit, index };
      }
    }
    if (!best) break;
    determined.add(best.variable);
    const pivot = rows[best.row]!;
    const p = L.coefficientOf(pivot, best.variable);
    // Every other row without the chosen variable: row·p - pivot·(its coefficient there), reduced.
    rows = rows.flatMap((row, k) => {
      if (k === best.row) return [];
      const c = L.coefficientOf(row, best.variable);
      const reduced = c === 0n ? row : reducedCoefficients(L.sub(L.scale(row, p), L.scale(pivot, c)));
      return L.variablesOf(reduced).some((v) => order.has(v) && !determined.has(v)) ? [reduced] : [];
    });
  }
  return determined;
}

/** The expression's variable part divided by its coefficients' gcd (constants do not matter here). */
function reducedCoefficients(e: L.Linear): L.Linear {
  const g = [...e.coeffs.values()].reduce((acc, x) => L.gcd(acc, x), 0n);
  return L.fromTerms([...e.coeffs].map(([v, c]) => [v, g > 1n ? c / g : c] as [string, bigint]));
}
