import test from 'ava';
import { Deadline } from '../limits.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { checkDerivation } from './derivation.js';
import { readChc } from './index.js';
import { Unfolder } from './unfold.js';

test.after.always(async () => {
  await shutdownZ3();
});

// Four ways to step, chosen by x's range: y grows by 1, 2, 3, then 0 while x counts. The query is
// reached after 12 steps, a chain of 14 clause instances; as a tree of choices that is 4^12
// instances, as levels 14 × 6.
const RULES: [string, number][] = [['(< x 3)', 1], ['(and (<= 3 x) (< x 6))', 2], ['(and (<= 6 x) (< x 9))', 3], ['(<= 9 x)', 0]];
const FOUR_WAYS = `(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (inv x y))))
${RULES.map(([guard, k]) => `(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int)) (=> (and (inv x y) ${guard} (= x1 (+ x 1)) (= y1 (+ y ${k}))) (inv x1 y1))))`).join('\n')}
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (= x 12) (= y 18)) false)))
`;

test('a linear system unfolds level by level: a chain of 14 instances out of 4 ways per step is found, and checks', async (t) => {
  const chc = readChc(FOUR_WAYS, 'four.smt2');
  const unfolding = new Unfolder(chc.formulas, 50_000_000);
  let derivation = null;
  for (let round = 0; round < 20 && !derivation && !unfolding.exhausted; round++) derivation = await unfolding.round(new Deadline(undefined), Infinity);
  t.truthy(derivation, unfolding.describe());
  t.deepEqual(checkDerivation(chc.system.clauses, derivation!), { ok: true });
  // The fact, three steps of each rule in turn, and the query.
  t.deepEqual(derivation!.steps.map((s) => s.clause), [0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5]);
  // y is 18 whenever x is 12: y == 19 is out of reach, at any depth searched.
  const short = readChc(FOUR_WAYS.replace('(= y 18)', '(= y 19)'), 'four.smt2');
  const none = new Unfolder(short.formulas, 50_000_000);
  let found = null;
  for (let round = 0; round < 3 && !found && !none.exhausted; round++) found = await none.round(new Deadline(undefined), 3_000_000);
  t.is(found, null);
  t.regex(none.describe(), /no derivation of false of depth \d+ or less/);
});
