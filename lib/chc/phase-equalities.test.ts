import test from 'ava';
import { withLiaSolver } from '../certify/lia-solver.js';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { Deadline } from '../limits.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { phaseEqualities } from './clause-solver.js';
import { readChc, solveHornClauses } from './index.js';
import { liveArguments } from './relevance.js';
import { deriveStates } from './runs.js';
import { resolveSettings } from '../settings.js';

test.after.always(async () => {
  await shutdownZ3();
});

// C counts the steps of A inside the window [7·D, 7·D + 30) that the parameter D places: C is 0
// before it, A - 7·D in it and 30 after it. Each phase's side of a guard holds another phase too, so
// no hull of one side states C == A - 7·D.
const WINDOW = `(set-logic HORN)
(declare-fun inv (Int Int Int) Bool)
(assert (forall ((A Int) (D Int) (C Int)) (=> (and (= A 0) (= C 0) (>= D 0)) (inv A D C))))
(assert (forall ((A Int) (D Int) (C Int) (E Int) (F Int))
  (=> (and (inv A D C) (= E (ite (and (<= (* 7 D) A) (< A (+ (* 7 D) 30))) (+ C 1) C)) (= F (+ A 1))) (inv F D E))))
(assert (forall ((A Int) (D Int) (C Int)) (=> (and (inv A D C) (>= A (+ (* 7 D) 60)) (not (= C 30))) false)))
`;

test('the states of one step effect, across runs, give the plane of their phase, each half where a guard cuts the other phases off', async (t) => {
  const chc = readChc(WINDOW, 'window.smt2');
  const [a, d, c] = chc.predicates.get('inv')!.vars.map((v) => L.variable(v));
  const derived = await withLiaSolver((solver) => deriveStates(chc, solver, new Deadline(undefined), liveArguments(chc)), { fresh: true });
  const states = derived.states.get('inv')!;
  const groups = derived.stepGroups.get('inv')!;
  // Two step effects: C up with A (in the window) and A alone (before and after it).
  t.is(groups.length, 2);
  // Runs from several D, each through all three phases.
  t.true(new Set(states.map((s) => s.get(chc.predicates.get('inv')!.vars[1]!))).size >= 3);
  const window = L.sub(L.sub(a!, L.scale(d!, 7n)), c!); // A - 7·D - C
  const inside = F.geqZero(L.sub(a!, L.scale(d!, 7n))); // A >= 7·D
  const before = F.geqZero(L.addConstant(L.sub(L.scale(d!, 7n), a!), 29n)); // A <= 7·D + 29
  const guards = [inside, before, F.geqZero(c!)];
  const out = phaseEqualities(chc.predicates.get('inv')!.vars.slice(), groups, states, guards).map((f) => F.toC(f));
  // Inside or after the window C <= A - 7·D; before it or inside C >= A - 7·D. Neither half holds
  // alone, and a guard that cuts off no phase (C >= 0) gives neither.
  t.deepEqual(out.sort(), [F.or(F.geqZero(L.addConstant(L.sub(L.scale(d!, 7n), a!), -1n)), F.geqZero(window)), F.or(F.geqZero(L.addConstant(L.sub(a!, L.scale(d!, 7n)), -30n)), F.geqZero(L.negate(window)))].map((f) => F.toC(f)).sort());
  // Every candidate holds in every derived state.
  for (const f of phaseEqualities(chc.predicates.get('inv')!.vars.slice(), groups, states, guards)) t.true(states.every((s) => F.evaluate(f, (v) => s.get(v) ?? 0n)));
});

test('a window placed by a parameter is proved sat on the clauses: the phase\'s plane, guarded', async (t) => {
  const out = await solveHornClauses(readChc(WINDOW, 'window.smt2'), resolveSettings({ timeoutMs: 60_000 }), { quick: true });
  t.is(out.answer.verdict, 'sat', out.answer.reason);
});
