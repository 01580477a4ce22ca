// Hull facets are candidate invariants: each must hold at every observed state and pass through
// observed states (tight), and the oblique facets of a sample must be found.
import test from 'ava';
import * as F from '../ir/formula.js';
import { convexHull, hullFacets, planarFacets } from './facets.js';
import type { State } from './samples.js';

const state = (d: number, t: number, s: number): State => new Map([['d', BigInt(d)], ['t', BigInt(t)], ['s', BigInt(s)]]);

/** The speedometer's reachable states up to three seconds: 0 <= s <= 5, s <= d <= s + 5t. */
function speedometerStates(): State[] {
  const out: State[] = [];
  for (let t = 0; t <= 3; t++) for (let s = 0; s <= 5; s++) for (let d = s; d <= s + 5 * t; d++) out.push(state(d, t, s));
  return out;
}

test('the speedometer sample has the facet d <= s + 5*t, and every facet is a tight bound of the sample', (t) => {
  const states = speedometerStates();
  const facets = hullFacets(['d', 't', 's'], states);
  const texts = facets.map((f) => F.toC(f));
  t.true(texts.includes('s + 5 * t >= d'), texts.join('; '));
  t.true(texts.includes('d >= s'), texts.join('; '));
  for (const f of facets) {
    const at = (s: State) => F.evaluate(f, (v) => s.get(v) ?? 0n);
    t.true(states.every(at), `${F.toC(f)} holds at every observed state`);
    // Tight: moving the bound by one excludes an observed state (the plane passes through one).
    const atom = (F.dnf(f)[0] ?? [])[0];
    if (atom?.kind !== 'atom' || atom.rel !== '>=') continue;
    t.true(states.some((s) => F.evaluate({ ...atom, expr: { ...atom.expr, constant: atom.expr.constant - 1n } }, (v) => s.get(v) ?? 0n) === false), `${F.toC(f)} is tight`);
  }
});

test('a box has only axis-parallel facets; points on one plane give none (that is an equality)', (t) => {
  const box: State[] = [];
  for (let d = 0; d <= 3; d++) for (let s = 0; s <= 2; s++) for (let u = 0; u <= 1; u++) box.push(state(d, u, s));
  for (const f of hullFacets(['d', 't', 's'], box)) t.is(F.variablesOf(f).size, 1, F.toC(f));
  const plane = [state(0, 0, 0), state(1, 0, 1), state(2, 1, 1), state(5, 2, 3), state(3, 3, 0)].map((s) => new Map([...s].map(([v, x]) => [v, v === 'd' ? (s.get('t') ?? 0n) + (s.get('s') ?? 0n) : x] as [string, bigint])));
  t.deepEqual(hullFacets(['d', 't', 's'], plane).filter((f) => F.variablesOf(f).size === 3), []);
});

test('convexHull: the corners of a square, counter-clockwise, without the points on its edges or inside', (t) => {
  const points = [[0, 0], [1, 0], [2, 0], [2, 2], [1, 1], [0, 2], [0, 1], [2, 1]].map((p) => p.map(BigInt));
  t.deepEqual(convexHull(points).map((p) => p.join(',')), ['0,0', '2,0', '2,2', '0,2']);
});

test('planarFacets: a phase moving a by 2 while c counts every other step gives a <= 4c <= a + 2, which hold at every state', (t) => {
  // a = 2n, c = ceil(n / 2): the counter of the steps where two parities agree.
  const states: State[] = Array.from({ length: 40 }, (_, n) => new Map([['a', BigInt(2 * n)], ['c', BigInt(Math.ceil(n / 2))]]));
  const facets = planarFacets(['a', 'c'], states, 4);
  const texts = facets.map((f) => F.toC(f));
  t.true(texts.some((f) => /4 \* c/.test(f)), texts.join('; '));
  for (const f of facets) t.true(states.every((s) => F.evaluate(f, (v) => s.get(v) ?? 0n)), F.toC(f));
  // Octagonal edges (the bounds a >= 0, a <= 78) are left to the octagons.
  t.true(facets.every((f) => F.variablesOf(f).size === 2), texts.join('; '));
  // A segment has no facets: the affine hull states it.
  t.deepEqual(planarFacets(['a', 'c'], states.map((s) => new Map([['a', s.get('a')!], ['c', s.get('a')! * 3n]])), 4), []);
});
