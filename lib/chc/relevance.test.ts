import { readFileSync } from 'node:fs';
import test from 'ava';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { joined } from './affine-join.js';
import { bodyInTermsOfHead, carriedGuards, imagesOf } from './images.js';
import { readChc } from './index.js';
import { liveArguments } from './relevance.js';
import { smallCombinations } from './runs.js';
import { smallCoefficients } from './clause-solver.js';
import { affineHull } from '../observe/equalities.js';

// A loop over (i, n, c, x): c is a copy of the input nobody reads, x is read only by the query.
const LOOP = `(set-logic HORN)
(declare-fun p (Int Int Int Int) Bool)
(declare-fun q (Int Int Int Int) Bool)
(assert (forall ((i Int) (n Int) (c Int) (x Int)) (=> (and (= i 0) (= c n) (= x 0)) (p i n c x))))
(assert (forall ((i Int) (n Int) (c Int) (x Int) (j Int) (y Int)) (=> (and (p i n c x) (< i n) (= j (+ i 1)) (= y (+ x 2))) (q j n c y))))
(assert (forall ((i Int) (n Int) (c Int) (x Int)) (=> (q i n c x) (p i n c x))))
(assert (forall ((i Int) (n Int) (c Int) (x Int)) (=> (and (p i n c x) (>= i n) (< x 0)) false)))
`;

const atoms = (f: F.Formula): F.Formula[] => (f.kind === 'atom' ? [f] : f.kind === 'and' || f.kind === 'or' ? f.args.flatMap(atoms) : f.kind === 'not' ? atoms(f.arg) : []);

const names = (chc: ReturnType<typeof readChc>, p: string, vars: readonly string[]): string[] => vars.map((v) => `${p}${chc.predicates.get(p)!.vars.indexOf(v)}`);

test('the live arguments are those a clause reads, directly or through the predicates after it', (t) => {
  const chc = readChc(LOOP, 'loop.smt2');
  const live = liveArguments(chc);
  // i and n are read by the guard, x by the query; c only travels.
  t.deepEqual(names(chc, 'p', live.get('p')!), ['p0', 'p1', 'p3']);
  t.deepEqual(names(chc, 'q', live.get('q')!), ['q0', 'q1', 'q3']);
});

test('a body argument a clause compares with a constant is live even when no variable is read', (t) => {
  const chc = readChc(`(set-logic HORN)
(declare-fun p (Int Int) Bool)
(assert (forall ((a Int) (b Int)) (=> (= a 0) (p a b))))
(assert (forall ((a Int)) (=> (p a 3) false)))
`, 'constant.smt2');
  t.deepEqual(names(chc, 'p', liveArguments(chc).get('p')!), ['p1']);
});

test('a clause maps the body predicate\'s variables to the head\'s: copies, steps and defined values', (t) => {
  const chc = readChc(LOOP, 'loop.smt2');
  const step = chc.formulas.find((c) => c.body[0]?.predicate === 'p' && c.head?.predicate === 'q')!;
  const map = bodyInTermsOfHead(chc, step)!;
  const [p0, p1, , p3] = chc.predicates.get('p')!.vars;
  const [q0, q1, , q3] = chc.predicates.get('q')!.vars;
  t.is(L.toC(map.get(p0!)!), `${q0} - 1`);
  t.is(L.toC(map.get(p1!)!), q1);
  t.is(L.toC(map.get(p3!)!), `${q3} - 2`);
  // x == 2i before the step is x == 2i after it.
  const [image] = imagesOf([F.eqZero(L.sub(L.variable(p3!), L.variable(p0!, 2n)))], map);
  t.is(F.toC(image!), F.toC(F.eqZero(L.sub(L.variable(q3!), L.variable(q0!, 2n)))));
});

test('a guard stated after a step reaches the predicate before it, shifted by the step', (t) => {
  const chc = readChc(LOOP, 'loop.smt2');
  const guards = carriedGuards(chc, chc.formulas, chc.formulas.map((c) => atoms(c.constraint)), 8, 24);
  const [q0, q1] = chc.predicates.get('q')!.vars;
  // i < n at p is i' <= n at q, after i' = i + 1.
  const text = guards.get('q')!.map((g) => F.toC(g));
  t.true(text.includes(F.toC(F.compare(L.variable(q0!), '<=', L.variable(q1!)))), text.join(' ; '));
});

test('guards that split no derived state of a predicate yield its quota to those that do, and fill what is left', (t) => {
  const chc = readChc(LOOP, 'loop.smt2');
  const atomsByClause = chc.formulas.map((c) => atoms(c.constraint));
  const all = carriedGuards(chc, chc.formulas, atomsByClause, 1, 64).get('p')!.map((g) => F.toC(g));
  t.true(all.length >= 2 && all.length < 64, all.join(' ; '));
  // Say every state derived at p satisfies its first guard: it tells no phases apart there.
  const idle = all[0]!;
  const splits = (p: string, g: F.Formula): boolean => p !== 'p' || F.toC(g) !== idle;
  const one = carriedGuards(chc, chc.formulas, atomsByClause, 1, 1, splits).get('p')!.map((g) => F.toC(g));
  t.is(one.length, 1);
  t.not(one[0], idle);
  t.true(all.includes(one[0]!), one.join(' ; '));
  // With room in the quota, the idle guard is still a candidate, after the splitting ones.
  const roomy = carriedGuards(chc, chc.formulas, atomsByClause, 1, 64, splits).get('p')!.map((g) => F.toC(g));
  t.deepEqual([...roomy].sort(), [...all].sort());
  t.is(roomy[roomy.length - 1], idle);
});

test('an equality of a loop or a query is a guard itself; the loop guards come before the initial values', (t) => {
  const file = new URL('../../../benchmarks/chc/flag.smt2', import.meta.url);
  const chc = readChc(readFileSync(file, 'utf8'), 'flag.smt2');
  // Seven equalities in the fact alone would fill a quota of 24 guards with their halves.
  const guards = carriedGuards(chc, chc.formulas, chc.formulas.map((c) => atoms(c.constraint)), 8, 24).get('inv')!.map((g) => F.toC(g));
  const [f, x] = chc.predicates.get('inv')!.vars;
  const flag = F.toC(F.eqZero(L.variable(f!)));
  t.true(guards.includes(flag), guards.join(' ; '));
  // The fact's x == 0 is an initial value: its halves split the states, and come after the loop's.
  t.false(guards.includes(F.toC(F.eqZero(L.variable(x!)))), guards.join(' ; '));
  t.true(guards.indexOf(flag) < guards.indexOf(F.toC(F.geqZero(L.negate(L.variable(x!))))), guards.join(' ; '));
});

test('a state that breaks equalities keeps their combinations that hold in it (the affine join)', (t) => {
  const [k, m, n] = [L.variable('k'), L.variable('m'), L.variable('n')];
  const halves = (e: L.Linear) => [F.geqZero(e), F.geqZero(L.negate(e))];
  // m == k + 1 and n == 2k + 2 on one branch; a state from the other has m == 2k + 2, n == k + 1.
  const candidates = [...halves(L.addConstant(L.sub(m, k), -1n)), ...halves(L.addConstant(L.sub(n, L.scale(k, 2n)), -2n)), F.geqZero(k)];
  const state = new Map([['k', 1n], ['m', 4n], ['n', 2n]]);
  const out = joined(candidates, state).map((f) => F.toC(f));
  const sum = L.addConstant(L.sub(L.add(m, n), L.scale(k, 3n)), -3n);
  t.true(out.includes(F.toC(F.geqZero(sum))) && out.includes(F.toC(F.geqZero(L.negate(sum)))), out.join(' ; '));
  t.true(out.includes(F.toC(F.geqZero(k))));
  // Every survivor holds in the state.
  for (const f of joined(candidates, state)) t.true(F.evaluate(f, (v) => state.get(v) ?? 0n));
});

test('the initial states\' small combinations: every value of two arguments apart, in order of size', (t) => {
  t.deepEqual(smallCombinations(2, 5), [[1n, 0n], [0n, 1n], [-1n, 0n], [1n, 1n], [0n, -1n]]);
  const pairs = new Set(smallCombinations(2, 15).map((c) => c.join(',')));
  for (const [a, b] of [[1n, -1n], [-1n, 1n], [2n, 0n], [1n, 1n]]) t.true(pairs.has(`${a},${b}`));
  t.is(smallCombinations(0, 4).length, 0);
});

test('the hull of few states in many dimensions: its accidental equalities with large coefficients are not candidates', (t) => {
  const state = (x: bigint, a: bigint, b: bigint, c: bigint): Map<string, bigint> => new Map([['x', x], ['y', x], ['a', a], ['b', b], ['c', c]]);
  const hull = affineHull(['x', 'y', 'a', 'b', 'c'], [state(0n, 7n, 3n, 11n), state(5n, 1234n, 977n, 31n), state(9n, 2n, 4091n, 6007n)]);
  // Three points in five dimensions: y == x, and two accidental equalities with 7-digit coefficients.
  t.is(hull.length, 3, hull.map((f) => F.toC(f)).join('; '));
  t.deepEqual(hull.filter(smallCoefficients).map((f) => F.toC(f)), ['y == x']);
});
