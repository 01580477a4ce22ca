import test from 'ava';
import * as F from '../ir/formula.js';
import { affineHull } from './equalities.js';

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
