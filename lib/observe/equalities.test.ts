import test from 'ava';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { affineHull, determinedVariables } from './equalities.js';

const states = (rows: number[][], vars: string[]) => rows.map((r) => new Map(vars.map((v, i) => [v, BigInt(r[i]!)])));

test('the hull of points on a line is that line', (t) => {
  const eqs = affineHull(['x', 'y'], states([[51, 51], [52, 50], [60, 42], [102, 0]], ['x', 'y']));
  t.deepEqual(eqs.map((e) => F.toC(e)), ['x + y == 102']);
});

test('points spanning the plane give no equality; one point gives one per variable', (t) => {
  t.deepEqual(affineHull(['x', 'y'], states([[0, 0], [1, 0], [0, 1]], ['x', 'y'])), []);
  t.deepEqual(affineHull(['x', 'y'], states([[3, -4]], ['x', 'y'])).map((e) => F.toC(e)).sort(), ['x == 3', 'y == -4']);
});

test('every state satisfies every equality of its hull (random points on random planes)', (t) => {
  // points (a, b, 2a - 3b + 7) and a free coordinate c: the hull is exactly z == 2x - 3y + 7
  const rows: number[][] = [];
  for (let i = 0; i < 12; i++) {
    const a = (i * 7) % 11 - 5;
    const b = (i * 5) % 13 - 6;
    rows.push([a, b, 2 * a - 3 * b + 7, (i * 3) % 4]);
  }
  const all = states(rows, ['x', 'y', 'z', 'c']);
  const eqs = affineHull(['x', 'y', 'z', 'c'], all);
  t.is(eqs.length, 1);
  for (const s of all) for (const e of eqs) t.true(F.evaluate(e, (v) => s.get(v)!));
  t.false(F.evaluate(eqs[0]!, (v) => ({ x: 0n, y: 0n, z: 8n, c: 0n } as Record<string, bigint>)[v]!));
});

const eq = (text: Record<string, number>, c = 0) => F.eqZero(L.fromTerms(Object.entries(text).map(([v, k]) => [v, BigInt(k)] as [string, bigint]), BigInt(c)));

test('determinedVariables: one variable per independent equality, a unit coefficient first, then the later variable', (t) => {
  // 2y == x: x has the unit coefficient, so it is the one the equality fixes (x = 2y stays integral).
  t.deepEqual([...determinedVariables([eq({ x: -1, y: 2 })], ['x', 'y'])], ['x']);
  // x == y: both units, the later one is fixed.
  t.deepEqual([...determinedVariables([eq({ x: 1, y: -1 })], ['x', 'y'])], ['y']);
  // A multiple of an equality fixes nothing more; a constant is fixed by itself.
  t.deepEqual([...determinedVariables([eq({ x: 1, y: -1 }), eq({ x: 2, y: -2 }, 4), eq({ n: 1 }, -5)], ['n', 'x', 'y'])].sort(), ['n', 'y']);
  // Variables outside the template's are never chosen, and no equality means nothing fixed.
  t.deepEqual([...determinedVariables([eq({ x: 1, t: -1 })], ['x'])], ['x']);
  t.deepEqual([...determinedVariables([], ['x', 'y'])], []);
});

test('determinedVariables: the fixed variables are a basis of the equalities, on random hulls', (t) => {
  // Hulls of random points on random affine subspaces of Z^5: each fixed variable must be a function
  // of the others on the hull, i.e. two hull points that agree on the rest agree on it too, and
  // there are as many as the hull has equalities.
  const vars = ['a', 'b', 'c', 'd', 'e'];
  let seed = 7;
  const next = (m: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % m; };
  for (let trial = 0; trial < 40; trial++) {
    const dims = 1 + next(4);
    const directions = Array.from({ length: dims }, () => vars.map(() => next(7) - 3));
    const origin = vars.map(() => next(21) - 10);
    const point = (k: number[]) => vars.map((_, i) => origin[i]! + k.reduce((s, x, j) => s + x * directions[j]![i]!, 0));
    const rows = Array.from({ length: 12 }, () => point(directions.map(() => next(9) - 4)));
    const eqs = affineHull(vars, states(rows, vars));
    const fixed = determinedVariables(eqs, vars);
    t.is(fixed.size, eqs.length);
    // Rank check: the equalities restricted to the fixed columns have full rank |fixed|.
    const matrix = eqs.map((e) => [...fixed].map((v) => (e.kind === 'atom' ? L.coefficientOf(e.expr, v) : 0n)));
    t.is(rank(matrix), fixed.size, `trial ${trial}: ${eqs.map((e) => F.toC(e)).join(', ')} fixed ${[...fixed]}`);
  }
});

function rank(rows: bigint[][]): number {
  const m = rows.map((r) => [...r]);
  let r = 0;
  for (let c = 0; c < (m[0]?.length ?? 0); c++) {
    const at = m.findIndex((row, i) => i >= r && row[c] !== 0n);
    if (at < 0) continue;
    [m[r], m[at]] = [m[at]!, m[r]!];
    for (let i = r + 1; i < m.length; i++) {
      const f = m[i]![c]!;
      const p = m[r]![c]!;
      m[i] = m[i]!.map((x, j) => x * p - m[r]![j]! * f);
    }
    r++;
  }
  return r;
}
