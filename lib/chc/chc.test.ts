import test from 'ava';
import { InputError } from '../diagnostics.js';
import { verify } from '../engines/constraint/verify.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { runProgram } from '../interpreter/index.js';
import { parseChc } from './parse.js';
import { printChc } from './print.js';
import { chcAnswer, readChc, solveHornClauses } from './index.js';
import { checkModel, Interpretations } from './model.js';
import { checkDerivation, derivationOf } from './derivation.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

test.after.always(async () => {
  await shutdownZ3();
});

const COUNTER = `(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (inv x y) (< x 100) (= x1 (+ x 1)) (= y1 (+ y STEP))) (inv x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (not (= y (* 2 x)))) false)))
(check-sat)
(exit)
`;

const inputError = (text: string): InputError => {
  const error = (() => {
    try {
      readChc(text, 'in.smt2');
    } catch (e) {
      return e;
    }
    return null;
  })();
  if (!(error instanceof InputError)) throw new Error(`expected an input error, got ${String(error)}`);
  return error;
};

test('input outside linear integer arithmetic is an input error at its line and column', (t) => {
  t.regex(inputError('(set-logic HORN)\n(declare-fun p (Real) Bool)\n').message, /^in\.smt2:2:17: unsupported: sort Real/);
  t.regex(inputError('(set-logic HORN)\n(declare-fun p ((Array Int Int)) Bool)\n').message, /^in\.smt2:2:17: unsupported: sort \(Array Int Int\): arrays/);
  t.regex(inputError('(set-logic HORN)\n(declare-fun p (Int) Bool)\n(assert (forall ((x Int) (y Int)) (=> (= x (* y y)) (p x))))\n').message, /^in\.smt2:3:44: unsupported: a product of two non-constant terms/);
  t.regex(inputError('(set-logic HORN)\n(declare-fun p (Int) Bool)\n(assert (forall ((x Int)) (=> (= x z) (p x))))\n').message, /^in\.smt2:3:36: error: unknown symbol 'z'/);
  t.regex(inputError('(set-logic HORN)\n(declare-fun p (Int) Bool)\n(assert (forall ((x Int)) (=> (= x 0) (p x)))\n').message, /^in\.smt2:3:1: error: unbalanced '\('/);
  t.regex(inputError('(set-logic HORN)\n(declare-datatypes ((L 0)) (((nil))))\n').message, /^in\.smt2:2:1: unsupported: declare-datatypes/);
  t.regex(inputError('(set-logic HORN)\n(declare-fun p (Int) Bool)\n(assert (forall ((x Int)) (=> (or (p x) (= x 0)) (p x))))\n').message, /^in\.smt2:3:35: unsupported: predicate 'p' under a negation, a disjunction/);
});

test('deeply nested and, let and not read without overflowing the stack', (t) => {
  const depth = 50_000;
  const ands = `${'(and (>= x 0) '.repeat(depth)}(>= x 0)${')'.repeat(depth)}`;
  const lets = `${'(let ((y x)) '.repeat(depth)}(= y 0)${')'.repeat(depth)}`;
  const nots = `${'(not '.repeat(2 * depth)}(= x 0)${')'.repeat(2 * depth)}`;
  const text = `(set-logic HORN)\n(declare-fun p (Int) Bool)\n(assert (forall ((x Int)) (=> (and ${ands} ${lets} ${nots}) (p x))))\n(assert (forall ((x Int)) (=> (and (p x) (> x 0)) false)))\n`;
  const chc = readChc(text, 'deep.smt2');
  t.is(chc.system.clauses.length, 2);
  t.true(chc.program.procedures.get('main')!.edges.length > 0);
});

test('parse, print and parse again give the same clauses', (t) => {
  const text = `(set-logic HORN)
(declare-fun |odd name| (Int Bool) Bool)
(declare-fun q () Bool)
(assert (forall ((x Int) (b Bool)) (=> (and (= x (div 7 2)) (= b (> (mod x 3) 0))) (|odd name| x b))))
(assert (forall ((x Int) (b Bool)) (=> (and (|odd name| x b) (let ((y (ite b (+ x 1) (- x)))) (distinct y 3))) q)))
(assert (forall ((z Int)) (not (and q (= z 1)))))
(check-sat)
`;
  const once = parseChc(text, 'a.smt2');
  const printed = printChc(once);
  const twice = parseChc(printed, 'a.smt2');
  t.is(printChc(twice), printed);
  t.deepEqual([...twice.predicates.values()].map((p) => [p.name, p.sorts]), [['odd name', ['Int', 'Bool']], ['q', []]]);
  t.deepEqual(twice.clauses.map((c) => [c.body.map((a) => a.predicate.name), c.head?.predicate.name ?? null]), [[[], 'odd name'], [['odd name'], 'q'], [['q'], null]]);
});

test('a concrete run of the lowered clauses computes div, mod, ite and Booleans as SMT-LIB does', (t) => {
  // (div -7 2) = -4 and (mod -7 2) = 1: Euclidean, not C's truncation.
  const text = `(set-logic HORN)
(declare-fun p (Int Int Bool Int) Bool)
(assert (forall ((a Int) (b Int) (c Bool) (d Int)) (=> (and (= a (div (- 7) 2)) (= b (mod (- 7) 2)) (= c (< a b)) (= d (ite c 10 20))) (p a b c d))))
(assert (forall ((a Int) (b Int) (c Bool) (d Int)) (=> (p a b c d) false)))
`;
  const chc = readChc(text, 'ops.smt2');
  const run = runProgram(chc.program, { nondet: [], nondetDefault: 0n, recordTrace: true });
  t.is(run.outcome.kind, 'assertion-failed');
  const [a, b, c, d] = chc.predicates.get('p')!.vars;
  const state = new Map<string, bigint>();
  for (const s of run.trace!) for (const [v, x] of s.values) state.set(v, x);
  t.deepEqual([state.get(a!), state.get(b!), state.get(c!), state.get(d!)], [-4n, 1n, 1n, 10n]);
});

test('sat comes with a model that z3 validates on every clause; a broken model fails the check', async (t) => {
  const chc = readChc(COUNTER.replace('STEP', '2'), 'counter.smt2');
  const result = await verify(Problem.of(chc.program), resolveSettings({ cutset: 'headers', timeoutMs: 60_000 }));
  const answer = await chcAnswer(chc, result);
  t.is(answer.verdict, 'sat');
  t.regex(answer.model!, /^\(define-fun inv \(\(x Int\) \(y Int\)\) Bool\n/);
  const [x, y] = chc.predicates.get('inv')!.vars;
  // x >= 0 alone admits y = 1, x = 0: the query clause breaks.
  const weak = new Map([['inv', F.geqZero(L.variable(x!))]]);
  const broken = await checkModel(chc, new Interpretations(chc, weak, new Set(['inv'])));
  t.false(broken.ok);
  t.is(!broken.ok && broken.clause, 2);
  // y == 2x && x <= 50 does not hold after 51 steps: the step clause breaks.
  const notInductive = new Map([['inv', F.and(F.eqZero(L.sub(L.variable(y!), L.variable(x!, 2n))), F.geqZero(L.addConstant(L.negate(L.variable(x!)), 50n)))]]);
  const check = await checkModel(chc, new Interpretations(chc, notInductive, new Set(['inv'])));
  t.is(!check.ok && check.clause, 1);
});

test('unsat comes with a derivation that evaluation confirms; a tampered one fails the check', async (t) => {
  const chc = readChc(COUNTER.replace('STEP', '3'), 'counter.smt2');
  const result = await verify(Problem.of(chc.program), resolveSettings({ cutset: 'headers', timeoutMs: 60_000 }));
  t.is(result.verdict, 'unsafe');
  const answer = await chcAnswer(chc, result);
  t.is(answer.verdict, 'unsat');
  const derivation = derivationOf(chc, result.counterexample!, 1_000_000)!;
  t.deepEqual(checkDerivation(chc.system.clauses, derivation), { ok: true });
  t.is(derivation.steps[0]!.clause, 0);
  t.is(derivation.steps[derivation.steps.length - 1]!.clause, 2);
  // Change one value of the query's instance: its body fact was never derived.
  const steps = [...derivation.steps];
  const last = steps[steps.length - 1]!;
  steps[steps.length - 1] = { clause: last.clause, values: new Map([...last.values].map(([v, x]) => [v, v === 'y' ? (x as bigint) + 1n : x])) };
  const tampered = checkDerivation(chc.system.clauses, { steps });
  t.false(tampered.ok);
  t.regex(!tampered.ok ? tampered.reason : '', /inv\(.*\) was not derived before/);
  // Drop the fact: the first step's body was never derived.
  t.false(checkDerivation(chc.system.clauses, { steps: derivation.steps.slice(1) }).ok);
  // Stop before the query: false is not derived.
  t.false(checkDerivation(chc.system.clauses, { steps: derivation.steps.slice(0, -1) }).ok);
});

test('predicates off the cycles are no cut-points: their interpretation is written from their clauses and checked too', async (t) => {
  const text = `(set-logic HORN)
(declare-fun start (Int Int) Bool)
(declare-fun loop (Int Int) Bool)
(declare-fun done (Int) Bool)
(declare-fun never (Int) Bool)
(assert (forall ((x Int) (n Int)) (=> (and (= x 0) (>= n 0)) (start x n))))
(assert (forall ((x Int) (n Int)) (=> (start x n) (loop x n))))
(assert (forall ((x Int) (n Int) (x1 Int)) (=> (and (loop x n) (< x n) (= x1 (+ x 1))) (loop x1 n))))
(assert (forall ((x Int) (n Int)) (=> (and (loop x n) (>= x n)) (done (- x n)))))
(assert (forall ((d Int)) (=> (and (done d) (not (= d 0))) false)))
(assert (forall ((d Int)) (=> (never d) (never (+ d 1)))))
(assert (forall ((d Int)) (=> (and (never d) (> d 0)) false)))
`;
  const chc = readChc(text, 'chain.smt2');
  const result = await verify(Problem.of(chc.program), resolveSettings({ cutset: 'headers', timeoutMs: 60_000 }));
  const answer = await chcAnswer(chc, result);
  t.is(answer.verdict, 'sat', answer.reason);
  t.regex(answer.model!, /\(define-fun loop \(\(x_2 Int\) \(n_2 Int\)\) Bool\n  \(>= n_2 x_2\)\)/);
  t.regex(answer.model!, /\(define-fun never \(\(farkas!p0 Int\)\) Bool\n  false\)/);
  t.regex(answer.model!, /\(define-fun done \(\(farkas!p0 Int\)\) Bool\n  \(not \(forall /);
  // A loop invariant too weak for the query: done's interpretation inherits it and the query breaks.
  const [x] = chc.predicates.get('loop')!.vars;
  const weak = await checkModel(chc, new Interpretations(chc, new Map([['loop', F.geqZero(L.variable(x!))]]), new Set(['loop'])));
  t.is(!weak.ok && weak.clause, 4);
});

// Nonlinear clauses: a recursive sum whose query calls it twice, and fib(6) claimed not to be 8.
const SUM_CALLS = `(set-logic HORN)
(declare-fun sum (Int Int) Bool)
(assert (forall ((n Int)) (=> (<= n 0) (sum n 0))))
(assert (forall ((n Int) (s Int)) (=> (and (> n 0) (sum (- n 1) s)) (sum n (+ s n)))))
(assert (forall ((n Int) (m Int) (a Int) (b Int)) (=> (and (sum n a) (sum m b) (< (+ a b) 0)) false)))
`;
const FIB = `(set-logic HORN)
(declare-fun fib (Int Int) Bool)
(assert (forall ((n Int)) (=> (and (>= n 0) (<= n 1)) (fib n n))))
(assert (forall ((n Int) (a Int) (b Int)) (=> (and (>= n 2) (fib (- n 1) a) (fib (- n 2) b)) (fib n (+ a b)))))
(assert (forall ((r Int)) (=> (and (fib 6 r) (= r WANTED)) false)))
`;

test('nonlinear clauses are an input error where a control-flow graph is read, and solved by solveHornClauses', async (t) => {
  t.regex(inputError(SUM_CALLS).message, /^in\.smt2:5:1: unsupported: a clause with 2 predicate applications in its body: nonlinear clauses are solved by 'farkas verify' only/);
  const chc = readChc(SUM_CALLS, 'sum.smt2', { nonlinear: true });
  const { answer, result } = await solveHornClauses(chc, resolveSettings({ timeoutMs: 120_000 }));
  t.is(answer.verdict, 'sat', answer.reason);
  t.is(result.verdict, 'safe');
  t.regex(answer.model!, /^\(define-fun sum \(\(n Int\) \(/);
  // The model printed is the one z3 validated: s >= 0 is what the query needs.
  const [, s] = chc.predicates.get('sum')!.vars;
  t.true((await checkModel(chc, new Interpretations(chc, new Map([['sum', F.geqZero(L.variable(s!))]]), new Set(['sum'])))).ok);
  // sum(n, s) ⇒ s <= 0 is not inductive (sum(1, 1)): the step clause breaks.
  const wrong = await checkModel(chc, new Interpretations(chc, new Map([['sum', F.geqZero(L.negate(L.variable(s!)))]]), new Set(['sum'])));
  t.is(!wrong.ok && wrong.clause, 1);
});

test('unsat on nonlinear clauses: a derivation tree that evaluation confirms; a tampered or reordered one fails', async (t) => {
  const chc = readChc(FIB.replace('WANTED', '8'), 'fib.smt2', { nonlinear: true });
  const { answer, result } = await solveHornClauses(chc, resolveSettings({ timeoutMs: 120_000 }));
  t.is(answer.verdict, 'unsat', answer.reason);
  t.is(result.verdict, 'unsafe');
  const steps = answer.derivation!.steps;
  t.deepEqual(checkDerivation(chc.system.clauses, answer.derivation!), { ok: true });
  t.is(steps[steps.length - 1]!.values.get('r'), 8n);
  // fib(6) = 8 needs both recursive calls: some instance of clause 2 uses two facts.
  t.true(steps.some((s) => s.clause === 1));
  const tampered = [...steps];
  const last = tampered[tampered.length - 1]!;
  tampered[tampered.length - 1] = { clause: last.clause, values: new Map([['r', 9n]]) };
  t.false(checkDerivation(chc.system.clauses, { steps: tampered }).ok);
  // A fact used before the instance that derives it.
  const reordered = [steps[steps.length - 2]!, ...steps.filter((_, k) => k !== steps.length - 2)];
  t.false(checkDerivation(chc.system.clauses, { steps: reordered }).ok);
  // fib(6) is 8, so a query for 9 is never reached: sat.
  const safe = await solveHornClauses(readChc(FIB.replace('WANTED', '9'), 'fib.smt2', { nonlinear: true }), resolveSettings({ timeoutMs: 30_000 }));
  t.not(safe.answer.verdict, 'unsat');
});
