import test from 'ava';
import { verify } from '../engines/constraint/verify.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { parseChc } from './parse.js';
import { eliminatePredicates } from './eliminate.js';
import { chcAnswer, readChc } from './index.js';
import { checkDerivation } from './derivation.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

test.after.always(async () => {
  await shutdownZ3();
});

// A loop whose body calls a non-recursive relation twice (nonlinear), the relation written with a
// let and a Boolean argument: x grows by 3 per iteration, from 0.
const TWICE = `(set-logic HORN)
(declare-fun step (Int Bool Int) Bool)
(declare-fun loop (Int Int) Bool)
(assert (forall ((x Int) (b Bool) (y Int)) (=> (let ((d (ite b 2 1))) (= y (+ x d))) (step x b y))))
(assert (forall ((x Int) (n Int)) (=> (and (= x 0) (>= n 0)) (loop x n))))
(assert (forall ((x Int) (n Int) (y Int) (z Int) (b Bool))
  (=> (and (loop x n) (< x n) (step x b y) (step y (not b) z)) (loop z n))))
(assert (forall ((x Int) (n Int)) (=> (and (loop x n) QUERY) false)))
`;

const FIB = `(set-logic HORN)
(declare-fun fib (Int Int) Bool)
(assert (forall ((n Int)) (=> (and (>= n 0) (<= n 1)) (fib n n))))
(assert (forall ((n Int) (a Int) (b Int)) (=> (and (>= n 2) (fib (- n 1) a) (fib (- n 2) b)) (fib n (+ a b)))))
(assert (forall ((r Int)) (=> (and (fib 6 r) (= r 9)) false)))
`;

test('a predicate on no cycle is resolved away: the system becomes linear, each clause knowing the input clauses it stands for', (t) => {
  const system = parseChc(TWICE.replace('QUERY', '(< x 0)'), 'twice.smt2');
  const reduction = eliminatePredicates(system)!;
  t.deepEqual(reduction.eliminated, ['step']);
  t.deepEqual([...reduction.system.predicates.keys()], ['loop']);
  t.true(reduction.system.clauses.every((c) => c.body.length <= 1));
  t.deepEqual(reduction.system.clauses.map((c) => c.index), [0, 1, 2]);
  // The loop's step: input clause 3 with both applications of step resolved by clause 1.
  t.deepEqual(reduction.provenance.map((p) => p.map((i) => i.clause)), [[1], [2, 0, 0], [3]]);
  // Each resolved copy of step's clause has variables of its own in the reduced clause.
  const [, first, second] = reduction.provenance[1]!;
  t.not(first!.vars.get('x'), second!.vars.get('x'));
  // A linear system, or one whose predicates all recurse, is left as it is.
  t.is(eliminatePredicates(parseChc(TWICE.replace(/\(step x b y\) \(step y \(not b\) z\)/, '(= z (+ x 3))').replace('QUERY', '(< x 0)'), 'linear.smt2')), null);
  t.is(eliminatePredicates(parseChc(FIB, 'fib.smt2')), null);
});

test('sat on the reduced system: the model, step included, is validated by z3 on the input clauses; a wrong one is not', async (t) => {
  const chc = readChc(TWICE.replace('QUERY', '(< x 0)'), 'twice.smt2', { nonlinear: true });
  t.false(chc.nonlinear);
  t.truthy(chc.reducedFrom);
  const result = await verify(Problem.of(chc.program), resolveSettings({ cutset: 'headers', timeoutMs: 60_000 }));
  t.is(result.verdict, 'safe');
  const answer = await chcAnswer(chc, result);
  t.is(answer.verdict, 'sat', answer.reason);
  t.regex(answer.model!, /\(define-fun step \(/);
  t.regex(answer.model!, /\(define-fun loop \(\(x\w* Int\) \(n Int\)\) Bool\n  \(>= x\w* 0\)/);
  // x <= 0 holds initially but not after an iteration: the input's clause 3 breaks.
  const [x] = chc.predicates.get('loop')!.vars;
  const wrong = { ...result, invariants: result.invariants.map((i) => ({ ...i, formula: F.geqZero(L.negate(L.variable(x!))) })) };
  const rejected = await chcAnswer(chc, wrong);
  t.is(rejected.verdict, 'unknown');
  t.regex(rejected.reason!, /clause 3 \(line 6\)/);
});

test('unsat on the reduced system: the derivation is expanded into input instances that evaluation confirms', async (t) => {
  const chc = readChc(TWICE.replace('QUERY', '(= x 6)'), 'twice.smt2', { nonlinear: true });
  const result = await verify(Problem.of(chc.program), resolveSettings({ cutset: 'headers', timeoutMs: 60_000 }));
  t.is(result.verdict, 'unsafe');
  const answer = await chcAnswer(chc, result);
  t.is(answer.verdict, 'unsat', answer.reason);
  const input = chc.reducedFrom!.input.system.clauses;
  const steps = answer.derivation!.steps;
  t.deepEqual(checkDerivation(input, answer.derivation!), { ok: true });
  // Two iterations, each with two instances of step's clause before the loop's step.
  t.deepEqual(steps.map((s) => s.clause), [1, 0, 0, 2, 0, 0, 2, 3]);
  t.regex(answer.derivationText!, /step/);
  // An instance of step's clause with a wrong result: its constraint is false.
  const k = steps.findIndex((s) => s.clause === 0);
  const tampered = [...steps];
  tampered[k] = { clause: 0, values: new Map([...steps[k]!.values].map(([v, value]) => [v, v === 'y' ? (value as bigint) + 1n : value])) };
  t.false(checkDerivation(input, { steps: tampered }).ok);
});
