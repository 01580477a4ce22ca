import test from 'ava';
import { withLiaSolver } from '../certify/lia-solver.js';
import { Deadline } from '../limits.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { uniformSegment } from './accelerate.js';
import type { ChcValue } from './evaluate.js';
import { readChc, solveHornClauses } from './index.js';
import { liveArguments } from './relevance.js';
import { deriveStates } from './runs.js';
import { resolveSettings } from '../settings.js';

test.after.always(async () => {
  await shutdownZ3();
});

// A counter A, and B that goes down by 2 below 2500 and from 12500 on, up by 1 between: B is 0 again
// at 15000, a phase past any step budget of the runs.
const PHASES = (query: string) => `(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((A Int) (B Int)) (=> (and (= A 0) (= B 0)) (inv A B))))
(assert (forall ((A Int) (B Int) (C Int) (D Int))
  (=> (and (inv A B) (let ((down (or (>= A 12500) (< A 2500)))) (and (= D (ite down (- B 2) (+ B 1))) (= C (+ A 1))))) (inv C D))))
(assert (forall ((A Int) (B Int)) (=> (and (inv A B) ${query}) false)))
`;

const values = (entries: Record<string, bigint>): Map<string, ChcValue> => new Map(Object.entries(entries));
const rule = () => readChc(PHASES('(= A 15000) (not (= B 0))'), 'phases.smt2').system.clauses[1]!;

test('a segment of one phase is uniform: every instance between its ends is an instance', (t) => {
  const c = rule();
  // Body A = 3 .. 2499: B goes down by 2 at each.
  t.true(uniformSegment(c, values({ A: 3n, B: -6n, C: 4n, D: -8n }), values({ A: 2499n, B: -4998n, C: 2500n, D: -5000n }), 2496n));
  // One step further the branch changes: the ends read `(< A 2500)` differently.
  t.false(uniformSegment(c, values({ A: 3n, B: -6n, C: 4n, D: -8n }), values({ A: 2500n, B: -5000n, C: 2501n, D: -4999n }), 2497n));
  // Ends of different phases with the same step (both going down) are not one segment either.
  t.false(uniformSegment(c, values({ A: 3n, B: -6n, C: 4n, D: -8n }), values({ A: 13003n, B: -26006n, C: 13004n, D: -26008n }), 13000n));
  // A change that is not a multiple of the steps is no linear segment.
  t.false(uniformSegment(c, values({ A: 3n, B: -6n, C: 4n, D: -8n }), values({ A: 10n, B: -20n, C: 11n, D: -22n }), 3n));
});

test('a mod stays in one block along a uniform segment', (t) => {
  const c = readChc(`(set-logic HORN)
(declare-fun p (Int Int) Bool)
(assert (forall ((A Int) (B Int)) (=> (and (= A 0) (= B 0)) (p A B))))
(assert (forall ((A Int) (B Int) (C Int) (D Int)) (=> (and (p A B) (= C (mod (+ A 1) 1000)) (= D (+ B (* 3 A)))) (p C D))))
`, 'mod.smt2').system.clauses[1]!;
  t.true(uniformSegment(c, values({ A: 0n, B: 0n, C: 1n, D: 0n }), values({ A: 998n, B: 0n, C: 999n, D: 2994n }), 998n));
  t.false(uniformSegment(c, values({ A: 0n, B: 0n, C: 1n, D: 0n }), values({ A: 999n, B: 0n, C: 0n, D: 2997n }), 999n));
});

test('the runs jump over long phases to the states after them, and answer no derivation through a jump', async (t) => {
  const chc = readChc(PHASES('(= A 15000) (not (= B 0))'), 'phases.smt2');
  const { states, refutation } = await withLiaSolver((solver) => deriveStates(chc, solver, new Deadline(undefined), liveArguments(chc)), { fresh: true });
  const [a, b] = chc.predicates.get('inv')!.vars;
  const inv = states.get('inv')!;
  // Each state derived is reachable: B as the phases give it.
  const expected = (x: bigint): bigint => (x <= 2500n ? -2n * x : x <= 12500n ? x - 7500n : 30000n - 2n * x);
  for (const s of inv) t.is(s.get(b!), expected(s.get(a!)!));
  // The third phase is reached (20,000 steps one at a time reach 10,000 at most).
  t.true(inv.some((s) => s.get(a!)! > 15000n));
  t.true(inv.length < 100);
  t.is(refutation, null);
  // A query past a jump: the runs do not answer it, the unfolding does not reach it, and the answer
  // is not sat.
  const bad = readChc(PHASES('(= A 15000) (not (= B 2))'), 'bad.smt2');
  const derived = await withLiaSolver((solver) => deriveStates(bad, solver, new Deadline(undefined), liveArguments(bad)), { fresh: true });
  t.is(derived.refutation, null);
  const out = await solveHornClauses(bad, resolveSettings({ timeoutMs: 20_000 }), { quick: true });
  t.not(out.answer.verdict, 'sat');
});

test('a three-phase counter past the runs\' step budget is proved sat: the jumps give each phase its states', async (t) => {
  const chc = readChc(PHASES('(= A 15000) (not (= B 0))'), 'phases.smt2');
  const out = await solveHornClauses(chc, resolveSettings({ timeoutMs: 60_000 }), { quick: true });
  t.is(out.answer.verdict, 'sat');
});
