// The Houdini fast path: candidates from observed states, the inductive subset the checker keeps,
// and verify answering from it only when the checker proved the result.
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import * as F from '../ir/formula.js';
import { WorkBudget } from '../limits.js';
import * as L from '../ir/linear.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { checkInvariants } from '../certify/certificate.js';
import { equivalent } from '../certify/lia.js';
import { branchAtoms, candidateConjuncts, heldGuards, inductiveSubset, minimalConjuncts, splitCandidates, substituteEqualities, unitDirections, unsignedUpperBounds, wrappedEqualities } from './houdini.js';
import { prepareAnalysis } from '../problem/prepare.js';
import { verify } from '../index.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

test.after.always(async () => {
  await shutdownZ3();
});

const state = (x: number, y: number) => new Map([['x', BigInt(x)], ['y', BigInt(y)]]);
const conjuncts = (fs: readonly F.Formula[]) => fs.map((f) => F.toC(f));

test('candidates are the tightest octagonal bounds of the observed states, plus the hull', (t) => {
  const hull = [F.eqZero(L.fromTerms([['x', 1n], ['y', -1n]]))];
  const found = conjuncts(candidateConjuncts(['x', 'y'], [state(0, 0), state(3, 3), state(1, 1)], hull));
  t.is(found[0], F.toC(hull[0]!));
  for (const expected of ['x <= 3', 'x >= 0', 'y <= 3', 'y >= 0', 'x + y <= 6', 'x + y >= 0']) t.true(found.includes(expected), expected);
  // Each candidate holds in every observed state, so it cannot exclude a reachable one that was seen.
  for (const f of candidateConjuncts(['x', 'y'], [state(0, 0), state(3, 3), state(-2, 5)], [])) {
    for (const s of [state(0, 0), state(3, 3), state(-2, 5)]) t.true(F.evaluate(f, (v) => s.get(v) ?? 0n), F.toC(f));
  }
  // A cut-point no run reached gets `false`, which the checker keeps only if it is unreachable.
  t.deepEqual(candidateConjuncts(['x'], [], []), [F.FALSE]);
});

// x counts to 10 while y stays 0; z is 5 in the runs seen but the program could set it to 6 later.
const COUNT = `void count(int k) {
  int x = 0;
  int y = 0;
  int z = 5;
  while (x < 10) {
    x++;
    if (x > 100) z = 6;
  }
  assert(x == 10);
}
`;

test('the inductive subset drops what a step of the program breaks and keeps what it preserves', async (t) => {
  const prepared = prepareAnalysis(parseProgram(COUNT, 'count.c'), undefined, 'headers');
  const [header] = prepared.unknownCutpoints;
  const atoms = ['x >= 0', 'x <= 10', 'y == 0', 'x <= 3', 'z == 5'].map((c) => {
    const [name, op, bound] = c.split(' ');
    const v = L.variable(name!);
    const k = L.constant(BigInt(bound!));
    return F.compare(v, op as '>=' | '<=' | '==', k);
  });
  const result = await inductiveSubset(prepared, new Map([[header!, atoms]]), { work: 50_000_000 });
  const kept = conjuncts(result.kept.get(header!) ?? []);
  t.true(kept.includes('x <= 10') && kept.includes('x >= 0') && kept.includes('y == 0'), kept.join(', '));
  t.false(kept.includes('x <= 3'), 'x <= 3 is broken by the fourth iteration');
  // z == 5 is inductive together with x <= 10 (the branch that sets 6 is unreachable then), so it stays.
  t.true(kept.includes('z == 5'));
  t.true(result.provesSafety);
  // What is kept is inductive by itself: the checker proves it, assertions included.
  const check = await checkInvariants(prepared.preparedProgram, prepared.function, result.facts, { precondition: prepared.precondition });
  t.true(check.valid);
});

const PV2 = `void PV2() {
  int x = 0;
  int y = 0;
  while (1) {
    if (x <= 50) y++; else y--;
    if (y < 0) break;
    x++;
  }
  assert(x == 102);
}
`;

test('verify answers Fig. 2 from the observed bounds, minimised and certified, before any template step', async (t) => {
  const r = await verify(Problem.of(parseProgram(PV2, 'pv2.c')), resolveSettings());
  t.is(r.verdict, 'safe');
  t.true(r.certified);
  t.true(r.houdini?.proved);
  t.is(r.stats.length, 0);
  // Minimised: of the 18 candidates kept, only an equality and two bounds per cut-point remain,
  // and they mean exactly the phases of the loop.
  const expressions = r.invariants.map((i) => i.expression);
  t.is(expressions.length, 2);
  for (const e of expressions) t.is(e.split('&&').length, 3, e);
  const rising = parseInvariant(expressions.find((e) => e.includes('y == x') || e.includes('x == y'))!);
  const phase1 = F.and(F.compare(L.variable('y'), '==', L.variable('x')), F.compare(L.variable('x'), '>=', L.constant(0)), F.compare(L.variable('x'), '<=', L.constant(50)));
  t.is((await equivalent(rising, phase1)).status, 'valid');
});

/** The invariants printed here are conjunctions of `a <= b`, `a >= b`, `a == b` over x, y and integers. */
function parseInvariant(text: string): F.Formula {
  const side = (s: string): L.Linear => s.trim().split('+').reduce((acc, term) => {
    const t = term.trim();
    return L.add(acc, /^-?\d+$/.test(t) ? L.constant(BigInt(t)) : L.variable(t));
  }, L.constant(0));
  return F.and(...text.split('&&').map((atom) => {
    const [lhs, op, rhs] = atom.trim().split(/\s*(<=|>=|==)\s*/);
    return F.compare(side(lhs!), op as '<=' | '>=' | '==', side(rhs!));
  }));
}

test('the observed bounds go first by default, after the first template attempt with second, and not at all with never', async (t) => {
  const pv1 = () => parseProgram('void PV1(int y) { int x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); }\n', 'pv1.c');
  const first = await verify(Problem.of(pv1()), resolveSettings());
  t.is(first.verdict, 'safe');
  t.true(first.houdini?.proved);
  t.is(first.stats.length, 0);
  // With 'second' the first attempt proves it, and the observed bounds are not tried.
  for (const observedBounds of ['second', 'never'] as const) {
    const r = await verify(Problem.of(pv1()), resolveSettings(), { observedBounds });
    t.is(r.verdict, 'safe');
    t.is(r.houdini, undefined, observedBounds);
    t.is(r.stats.length, 1);
    t.is(r.stats[0]!.result, 'sat');
  }
});

test('equalities eliminate a variable from the other atoms, so restated bounds coincide', (t) => {
  const x = L.variable('x');
  const y = L.variable('y');
  const atoms = [F.compare(y, '==', x), F.compare(y, '<=', L.constant(50)), F.compare(x, '<=', L.constant(50)), F.compare(L.add(x, y), '<=', L.constant(100))];
  const reduced = substituteEqualities(atoms);
  t.is(F.toC(reduced[0]!), F.toC(atoms[0]!), 'the equality itself stays');
  // All three bounds now speak of one variable and say the same thing.
  const vars = new Set(reduced.slice(1).flatMap((f) => [...F.variablesOf(f)]));
  t.is(vars.size, 1);
});

test('minimising drops exactly the conjuncts the others imply', async (t) => {
  const x = L.variable('x');
  const y = L.variable('y');
  const atoms = [F.compare(x, '>=', L.constant(0)), F.compare(y, '>=', L.constant(2)), F.compare(L.add(x, y), '>=', L.constant(1)), F.compare(L.sub(y, x), '<=', L.constant(7)), F.compare(x, '<=', L.constant(3))];
  const minimal = await minimalConjuncts(atoms, new WorkBudget(50_000_000));
  // x + y >= 1 follows from x >= 0 and y >= 2; nothing else follows from the rest.
  t.deepEqual(minimal.map((f) => F.toC(f)).sort(), [0, 1, 3, 4].map((i) => F.toC(atoms[i]!)).sort());
  t.is((await equivalent(F.and(...atoms), F.and(...minimal))).status, 'valid');
});

test('among split candidates, an atom the other atoms imply goes without a checker call', async (t) => {
  const x = L.variable('x');
  const y = L.variable('y');
  const split = F.or(F.compare(x, '>=', L.constant(5)), F.compare(y, '==', L.constant(0)));
  const atoms = [F.compare(x, '>=', L.constant(0)), F.compare(y, '>=', L.constant(2)), split, F.compare(L.add(x, y), '>=', L.constant(1))];
  // One unit of z3 work: too little for any implication check, and spent by the first one.
  const minimal = await minimalConjuncts(atoms, new WorkBudget(1));
  t.false(minimal.map((f) => F.toC(f)).includes('x + y >= 1'), minimal.map((f) => F.toC(f)).join(' && '));
  t.true(minimal.map((f) => F.toC(f)).includes('x >= 0'));
});

// The runs keep n small, so no observed bound says n <= 1000; the program's own condition does.
const BOUNDED = `void bounded(int n) {
  if (n < 0 || n > 1000) return;
  int i = 0;
  while (i < n) {
    i = i + 1;
  }
  assert(i <= 1000);
}
`;

test('the program\'s conditions that every observed state satisfies are candidates, and prove what the bounds cannot', async (t) => {
  const prepared = prepareAnalysis(parseProgram(BOUNDED, 'bounded.c'), undefined, 'headers');
  const [header] = prepared.unknownCutpoints;
  const guards = branchAtoms(prepared);
  // n < 0, n > 1000 and i < n, each once (an if's and a loop's two edges state a condition and its negation).
  t.is(guards.length, 3, conjuncts(guards).join(', '));
  const states = [0, 1, 2, 3].map((i) => new Map([['i', BigInt(i)], ['n', 3n]])).concat([new Map([['i', 0n], ['n', 0n]])]);
  const held = conjuncts(heldGuards(guards, ['i', 'n'], states));
  t.deepEqual(held.sort(), ['n <= 1000', 'n >= 0']);
  t.deepEqual(heldGuards(guards, ['i', 'n'], []), []);
  t.deepEqual(heldGuards(guards, ['i'], states), [], 'a condition over a variable not in scope is no candidate');
  const bounds = candidateConjuncts(['i', 'n'], states, []);
  const withoutGuards = await inductiveSubset(prepared, new Map([[header!, bounds]]), { work: 50_000_000 });
  t.false(withoutGuards.provesSafety);
  const withGuards = await inductiveSubset(prepared, new Map([[header!, [...bounds, ...heldGuards(guards, ['i', 'n'], states)]]]), { work: 50_000_000 });
  t.true(withGuards.provesSafety);
  t.true(conjuncts(withGuards.kept.get(header!) ?? []).includes('n <= 1000'));
});

test('a hull equality over unsigned variables is also a candidate modulo 2^w, one case per multiple it can take', (t) => {
  const m = 1n << 32n;
  const modulus = (v: string) => (v === 'c' ? undefined : v === 'b' ? 256n : m);
  const e = (terms: [string, bigint][], k = 0n) => F.eqZero(L.fromTerms(terms, k));
  // sn - 2x over [0, 2^32 - 1]^2 lies in (-2^33, 2^32): 0 or -2^32.
  const [wrapped] = wrappedEqualities([e([['sn', 1n], ['x', -2n]])], modulus);
  t.is(F.toC(wrapped!), F.toC(F.or(e([['sn', 1n], ['x', -2n]]), e([['sn', 1n], ['x', -2n]], m))));
  for (const [sn, x, holds] of [[0n, 0n, true], [m - 2n, m / 2n - 1n, true], [0n, m / 2n, true], [2n, m / 2n, false]] as const) {
    t.is(F.evaluate(wrapped!, (v) => (v === 'sn' ? sn : x)), holds, `sn = ${sn}, x = ${x}`);
  }
  // x - y lies in (-2^32, 2^32): a multiple of 2^32 there is 0, so there is nothing to add.
  t.deepEqual(wrappedEqualities([e([['x', 1n], ['y', -1n]])], modulus), []);
  // Not every variable unsigned, or of different widths, or too many cases: no candidate.
  t.deepEqual(wrappedEqualities([e([['sn', 1n], ['c', -2n]])], modulus), []);
  t.deepEqual(wrappedEqualities([e([['sn', 1n], ['b', -2n]])], modulus), []);
  t.deepEqual(wrappedEqualities([e([['sn', 1n], ['x', -9n]])], modulus), []);
  t.deepEqual(unsignedUpperBounds(['sn', 'c', 'b'], modulus).map((f) => F.toC(f)), ['sn <= 4294967295', 'b <= 255']);
});

// SV-COMP loops/sum03-2: sn == 2 * x over the integers until 2 * x passes 2^32; modulo 2^32 always.
const WRAPPING = `unsigned int __VERIFIER_nondet_uint();
int main() {
  unsigned int sn = 0;
  unsigned int x = 0;
  while (1) {
    sn = sn + 2;
    x++;
    __VERIFIER_assert(sn == x * 2 || sn == 0);
  }
}
`;

test('an unsigned loop whose equality holds only modulo 2^32 is proved by the wrapped equality', async (t) => {
  const result = await verify(Problem.of(parseProgram(WRAPPING, 'wrapping.c')), resolveSettings({ cutset: 'headers' }));
  t.is(result.verdict, 'safe', result.reason);
  t.true(result.houdini?.proved);
  t.true(result.invariants.some((i) => i.expression.includes('4294967296')), result.invariants.map((i) => i.expression).join('; '));
});

// y >= 1 fails initiation (y starts at 0) and consecution (y decreases) in the same round; the
// consecution state may violate nothing else. x >= 0 must survive: it is inductive and proves the assertion.
const SAME_ROUND = `void down(int n) {
  int x = 0;
  int y = 0;
  while (x < n) {
    x = x + 1;
    y = y - 1;
  }
  assert(x >= 0);
}
`;

test('a state judged against candidates an earlier obligation of its round removed does not empty the cut-point', async (t) => {
  const prepared = prepareAnalysis(parseProgram(SAME_ROUND, 'down.c'), undefined, 'headers');
  const [header] = prepared.unknownCutpoints;
  const candidates = [F.geqZero(L.addConstant(L.variable('y'), -1n)), F.geqZero(L.variable('x'))];
  const result = await inductiveSubset(prepared, new Map([[header!, candidates]]), { work: 50_000_000 });
  t.deepEqual(conjuncts(result.kept.get(header!) ?? []), ['x >= 0']);
  t.true(result.provesSafety);
});

test('unit directions: intervals, then octagons, then three-term sums, each with every sign', (t) => {
  const show = (d: Map<string, bigint>) => [...d].map(([v, c]) => `${c > 0n ? '+' : '-'}${v}`).join('');
  t.deepEqual(unitDirections(['x', 'y'], 2).map(show), ['+x', '-x', '+y', '-y', '+x+y', '+x-y', '-x+y', '-x-y']);
  const three = unitDirections(['a', 'b', 'c', 'd'], 3);
  t.is(three.length, 8 + 6 * 4 + 4 * 8);
  t.true(three.map(show).includes('-a+b-d'));
  t.is(new Set(three.map(show)).size, three.length);
});

test('with loop-header cut-points, Fig. 2 needs a disjunctive invariant: candidates split by x <= 50 give it', async (t) => {
  const result = await verify(Problem.of(parseProgram(PV2, 'pv2.c')), resolveSettings({ cutset: 'headers' }));
  t.is(result.verdict, 'safe', result.reason);
  t.true(result.certified);
  t.true(result.houdini?.proved);
  const [inv] = result.invariants;
  t.regex(inv!.expression, /\(x <= 50 && y == x\) \|\| \(x >= 51 && x \+ y == 102\)/);
});

test('split candidates: an implication per bound of the states on each side of the guard', (t) => {
  const guard = F.compare(L.variable('x'), '<=', L.constant(50n));
  const split = conjuncts(splitCandidates(['x', 'y'], [state(0, 0), state(50, 50), state(51, 51), state(60, 42)], [guard]));
  t.true(split.includes('x >= 51 || y == x'), split.join(', '));
  t.true(split.includes('x <= 50 || x + y == 102'), split.join(', '));
  // A side no state reached is excluded outright.
  t.deepEqual(conjuncts(splitCandidates(['x'], [new Map([['x', 3n]])], [guard])).filter((c) => !c.includes('||')), ['x <= 50']);
});
