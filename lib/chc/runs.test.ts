import test from 'ava';
import { readFileSync } from 'node:fs';
import { withLiaSolver } from '../certify/lia-solver.js';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { CHC_RUN_INITIAL_STATES, Deadline } from '../limits.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { checkDerivation } from './derivation.js';
import { divisorsOf, euclideanMod, residueName, withResidues } from './features.js';
import { readChc, solveHornClauses } from './index.js';
import { checkModel, Interpretations } from './model.js';
import { deriveStates, runForward } from './runs.js';
import { liveArguments } from './relevance.js';
import { resolveSettings } from '../settings.js';

test.after.always(async () => {
  await shutdownZ3();
});

// B counts the even values A has passed: B == (A + A mod 2) / 2, affine only with A's residue.
const PARITY = (query: string) => `(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((A Int) (B Int)) (=> (and (= A 0) (= B 0)) (inv A B))))
(assert (forall ((A Int) (B Int) (C Int) (D Int))
  (=> (and (inv A B) (let ((e (= (mod A 2) 0))) (and (= D (ite e (+ B 1) B)) (= C (+ A 1))))) (inv C D))))
(assert (forall ((A Int) (B Int)) (=> (and (inv A B) ${query}) false)))
`;

const derive = (text: string) => {
  const chc = readChc(text, 'parity.smt2');
  return { chc, derived: withLiaSolver((solver) => deriveStates(chc, solver, new Deadline(undefined), liveArguments(chc)), { fresh: true }) };
};

test('the clauses run forward from the facts: the states are the reachable ones, in order', async (t) => {
  const { chc, derived } = derive(PARITY('(= A (- 1))'));
  const { states, refutation } = await derived;
  t.is(refutation, null);
  const [a, b] = chc.predicates.get('inv')!.vars;
  const inv = states.get('inv')!;
  t.true(inv.length > 100);
  for (const [k, s] of inv.slice(0, 50).entries()) {
    t.is(s.get(a!), BigInt(k));
    t.is(s.get(b!), BigInt(Math.ceil(k / 2)));
  }
});

test('a run that reaches a query is a derivation of false that evaluation confirms', async (t) => {
  const { chc, derived } = derive(PARITY('(= A 41) (not (= B 20))'));
  const { refutation } = await derived;
  t.truthy(refutation);
  t.is(refutation!.steps.length, 43); // the fact, 41 steps, the query
  t.deepEqual(checkDerivation(chc.system.clauses, refutation!), { ok: true });
});

test('facts that leave values open get them from z3, several distinct ones', async (t) => {
  const text = `(set-logic HORN)
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (and (> x 5) (< x 100)) (p x))))
(assert (forall ((x Int)) (=> (and (p x) (< x 0)) false)))
`;
  const chc = readChc(text, 'open.smt2');
  const { states } = await withLiaSolver((solver) => deriveStates(chc, solver, new Deadline(undefined), liveArguments(chc)), { fresh: true });
  const [x] = chc.predicates.get('p')!.vars;
  const values = states.get('p')!.map((s) => s.get(x!)!);
  t.true(values.length >= 2);
  t.is(new Set(values).size, values.length);
  for (const v of values) t.true(v > 5n && v < 100n);
});

// Every step leaves its increment open, so z3 chooses it; the padding (600 conjuncts that always hold)
// makes each of those checks send some 20 KB.
const OPEN_STEPS = (padding: number) => `(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (n Int)) (=> (and (= x 0) (<= 0 n)) (inv x n))))
(assert (forall ((x Int) (n Int) (x1 Int) (c Int))
  (=> (and (inv x n) (<= 1 c) (<= c 2) (= x1 (+ x c))
    ${Array.from({ length: padding }, (_, k) => `(or (<= n ${k}) (<= ${k} n))`).join(' ')})
    (inv x1 n))))
(assert (forall ((x Int) (n Int)) (=> (and (inv x n) (< x 0)) false)))
`;

test('a run whose every step asks z3 leaves the second round of initial states its share', async (t) => {
  const initialStates = async (padding: number): Promise<number> => {
    const chc = readChc(OPEN_STEPS(padding), 'open-steps.smt2');
    const { states } = await withLiaSolver((solver) => deriveStates(chc, solver, new Deadline(undefined), liveArguments(chc)), { fresh: true });
    const [x] = chc.predicates.get('inv')!.vars;
    return states.get('inv')!.filter((s) => s.get(x!) === 0n).length;
  };
  // Small steps: the number of checks bounds the runs, and the first round's endless runs take them
  // all. Big ones: the first round may send half of the text the checks may send in all, and the
  // second round draws its initial states.
  t.is(await initialStates(0), CHC_RUN_INITIAL_STATES);
  t.true((await initialStates(600)) > CHC_RUN_INITIAL_STATES);
});

test('runForward derives from any state, by propagation alone', (t) => {
  const chc = readChc(PARITY('(= A (- 1))'), 'parity.smt2');
  const [a, b] = chc.predicates.get('inv')!.vars;
  const reached = runForward(chc, 'inv', new Map([[a!, 7n], [b!, 100n]]), 10);
  t.deepEqual(reached.slice(0, 4).map((r) => [r.state.get(a!), r.state.get(b!)]), [[7n, 100n], [8n, 100n], [9n, 101n], [10n, 101n]]);
});

test('residues are SMT-LIB\'s Euclidean mod, of the divisors the clauses use, and parity', (t) => {
  t.is(euclideanMod(-7n, 2n), 1n);
  t.is(euclideanMod(-6n, 4n), 2n);
  t.deepEqual(divisorsOf(readChc(PARITY('(= (mod A 5) 3)'), 'p.smt2').system), [2n, 5n]);
  t.deepEqual(divisorsOf(readChc(`(set-logic HORN)\n(declare-fun p (Int) Bool)\n(assert (forall ((x Int)) (=> (= x 0) (p x))))\n`, 'p.smt2').system), []);
  t.is(withResidues(new Map([['x', -3n]]), [residueName('x', 2n)]).get(residueName('x', 2n)), 1n);
});

test('an invariant over a residue is found, printed with mod, and validated by z3; with the residue read as 0 it fails', async (t) => {
  const chc = readChc(PARITY('(= A 2702470) (not (= B 1351235))'), 'parity.smt2');
  const { answer, result } = await solveHornClauses(chc, resolveSettings({ timeoutMs: 120_000 }), { quick: true });
  t.is(answer.verdict, 'sat');
  t.regex(answer.model!, /\(mod A 2\)/);
  const [a] = chc.predicates.get('inv')!.vars;
  const invariant = result.invariants.find((r) => r.function === 'inv')!.formula;
  t.true(F.variablesOf(invariant).has(residueName(a!, 2n)));
  const all = new Set(chc.predicates.keys());
  t.deepEqual(await checkModel(chc, new Interpretations(chc, new Map([['inv', invariant]]), all)), { ok: true, clauses: 3 });
  const broken = F.substitute(invariant, new Map([[residueName(a!, 2n), L.constant(0n)]]));
  t.false((await checkModel(chc, new Interpretations(chc, new Map([['inv', broken]]), all))).ok);
});

test('one value of a flag splits the candidates: f == 0 as a guard, its complement as a disjunction', async (t) => {
  // The guards of the loop's clause and of the query come before those of the fact's initial values
  // (x == 0 … e == 0), which would otherwise fill the guards' quota.
  const file = new URL('../../../benchmarks/chc/flag.smt2', import.meta.url);
  const chc = readChc(readFileSync(file, 'utf8'), 'flag.smt2');
  const { answer } = await solveHornClauses(chc, resolveSettings({ timeoutMs: 120_000 }), { quick: true });
  t.is(answer.verdict, 'sat', answer.reason);
  // f != 0 || x >= y, beside y >= x.
  t.regex(answer.model!, /\(or \(>= f 1\) \(>= 0 \(\+ f 1\)\) \(>= x y\)\)/);
});

test('a loop whose branch an input flag chooses, through a chain of predicates: sat on the clauses alone', async (t) => {
  // The initial states vary the arguments a clause reads (n and f, not their copies), so both
  // branches run; each branch's hull says more than the loop keeps, and Houdini's affine join keeps
  // what both share (a + b == 3i).
  const file = new URL('../../../benchmarks/chc/branches.smt2', import.meta.url);
  const chc = readChc(readFileSync(file, 'utf8'), 'branches.smt2');
  const { answer } = await solveHornClauses(chc, resolveSettings({ timeoutMs: 120_000 }), { quick: true });
  t.is(answer.verdict, 'sat', answer.reason);
  t.regex(answer.model!, /\(= \(\+ a b\) \(\* 3 i\)\)/);
});
