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
