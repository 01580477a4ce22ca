import test from 'ava';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { affineHull, fixedVariables } from './equalities.js';

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

const fixedOf = (eqs: F.Formula[], vars: string[]) => [...fixedVariables(eqs, vars).fixed].sort();
const valuesOf = (eqs: F.Formula[], vars: string[]) => [...fixedVariables(eqs, vars).values].map(([v, e]) => `${v} = ${L.toC(e)}`).sort();

test('fixedVariables: one variable per independent equality, a unit coefficient first, then the later variable', (t) => {
  // 2y == x: x has the unit coefficient, so it is the one the equality fixes (x = 2y stays integral).
  t.deepEqual(fixedOf([eq({ x: -1, y: 2 })], ['x', 'y']), ['x']);
  t.deepEqual(valuesOf([eq({ x: -1, y: 2 })], ['x', 'y']), ['x = 2 * y']);
  // x + y == 102: both units, the later one is fixed.
  t.deepEqual(valuesOf([eq({ x: 1, y: 1 }, -102)], ['x', 'y']), ['y = -x + 102']);
  // A multiple of an equality fixes nothing more; a constant is fixed by itself.
  t.deepEqual(fixedOf([eq({ x: 1, y: -1 }), eq({ x: 2, y: -2 }), eq({ n: 1 }, -5)], ['n', 'x', 'y']), ['n', 'y']);
  t.deepEqual(valuesOf([eq({ x: 1, y: -1 }), eq({ x: 2, y: -2 }), eq({ n: 1 }, -5)], ['n', 'x', 'y']), ['n = 5', 'y = x']);
  // Variables outside the template's are never chosen, and no equality means nothing fixed.
  t.deepEqual(fixedOf([eq({ x: 1, t: -1 })], ['x']), ['x']);
  t.deepEqual(fixedOf([], ['x', 'y']), []);
  // 2a == 3b: no unit coefficient, a is fixed (left out of templates) but has no integer value.
  t.deepEqual(fixedOf([eq({ a: 2, b: -3 })], ['a', 'b']), ['b']);
  t.deepEqual(valuesOf([eq({ a: 2, b: -3 })], ['a', 'b']), []);
});

test('fixedVariables: the fixed variables are a basis of the equalities, and their values satisfy them, on random hulls', (t) => {
  // Hulls of random points on random affine subspaces of Z^5: each fixed variable must be a function
  // of the others on the hull (as many as the hull has equalities, full rank on their columns), and
  // each value must give the variable's own value in every sampled state.
  const vars = ['a', 'b', 'c', 'd', 'e'];
  let seed = 7;
  const next = (m: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % m; };
  let valued = 0;
  for (let trial = 0; trial < 40; trial++) {
    const dims = 1 + next(4);
    const directions = Array.from({ length: dims }, () => vars.map(() => next(7) - 3));
    const origin = vars.map(() => next(21) - 10);
    const point = (k: number[]) => vars.map((_, i) => origin[i]! + k.reduce((s, x, j) => s + x * directions[j]![i]!, 0));
    const all = states(Array.from({ length: 12 }, () => point(directions.map(() => next(9) - 4))), vars);
    const eqs = affineHull(vars, all);
    const { fixed, values } = fixedVariables(eqs, vars);
    t.is(fixed.size, eqs.length);
    const matrix = eqs.map((e) => [...fixed].map((v) => (e.kind === 'atom' ? L.coefficientOf(e.expr, v) : 0n)));
    t.is(rank(matrix), fixed.size, `trial ${trial}: ${eqs.map((e) => F.toC(e)).join(', ')} fixed ${[...fixed]}`);
    for (const [v, value] of values) {
      valued++;
      t.false(L.variablesOf(value).some((w) => fixed.has(w)), `${v} = ${L.toC(value)} uses a fixed variable`);
      for (const s of all) t.is(L.evaluate(value, (w) => s.get(w)!), s.get(v)!, `${v} = ${L.toC(value)}`);
    }
  }
  t.true(valued > 20, `only ${valued} fixed variables had values`);
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
