// Affine equalities as a cheap strengthening before the template search. The affine hull of the
// states concrete runs reached at a cut-point (exact integer Gauss–Jordan elimination) proposes
// equalities; Houdini then keeps the subset that the independent checker proves inductive (assertions
// ignored). Proven equalities are known hypotheses for the Farkas constraints, so the unknown template
// only has to supply the inequalities (Fig. 2 needs x == y and x + y == 102; with them known its
// templates shrink from four atoms to two). The final certificate check re-proves everything anyway.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Program, Procedure } from '../ir/cfg.js';
import { checkInvariants } from '../check/certificate.js';
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

/** The procedure with every assert turned into a skip: inductiveness without the safety obligations. */
function withoutAssertions(program: Program, fn: string): Program {
  const proc = program.procedures.get(fn)!;
  const edges = proc.edges.map((e) => (e.stmt.kind === 'assert' ? { ...e, stmt: { kind: 'skip' as const } } : e));
  const procedures = new Map(program.procedures);
  procedures.set(fn, { ...proc, edges } satisfies Procedure);
  return { ...program, procedures };
}

/**
 * Houdini: the largest subset of the candidate atoms that is inductive (initiation and consecution,
 * assertions ignored), found by dropping the atoms that a refuting state falsifies until the checker
 * proves the rest. Returns null when the checker could not decide (timeout).
 */
export async function inductiveSubset(
  program: Program,
  fn: string,
  cutpoints: readonly number[],
  candidates: ReadonlyMap<number, readonly Formula[]>,
  precondition: Formula,
  timeoutMs: number,
): Promise<Map<number, Formula[]> | null> {
  const relaxed = withoutAssertions(program, fn);
  const current = new Map<number, Formula[]>(cutpoints.map((c) => [c, [...(candidates.get(c) ?? [])]]));
  for (;;) {
    if ([...current.values()].every((atoms) => atoms.length === 0)) return current;
    const invariants = new Map<number, Formula>(cutpoints.map((c) => [c, F.and(...current.get(c)!)]));
    const result = await checkInvariants(relaxed, fn, invariants, { precondition, timeoutMs });
    if (result.valid) return current;
    let dropped = false;
    for (const o of result.obligations) {
      if (o.status === 'unknown') return null;
      if (o.status !== 'refuted' || (o.kind !== 'initiation' && o.kind !== 'consecution')) continue;
      const atoms = current.get(o.to);
      if (!atoms || atoms.length === 0) continue;
      const state = o.failingState;
      const keep = state
        ? atoms.filter((a) => {
            try {
              return F.evaluate(a, (v) => {
                const x = state.get(v);
                if (x === undefined) throw new Error('unknown value');
                return x;
              });
            } catch {
              return false;
            }
          })
        : [];
      if (keep.length < atoms.length) dropped = true;
      current.set(o.to, keep);
    }
    if (!dropped) return null; // refuted for a reason the candidates do not explain
  }
}
