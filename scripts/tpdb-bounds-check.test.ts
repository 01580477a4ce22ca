// The bounds-vs-brute-force script's two pure parts: how a bound is written for the checker, and how
// the checker's report is read (a run exceeding a certified bound must count as such).
import test from 'ava';
import * as F from '../lib/ir/formula.js';
import type { LoopBound } from '../lib/termination/bounds.js';
import { checkerExpression, readCheckerReport } from './tpdb-bounds-check.js';

const answer = (bound: string | null, precondition = '1', certified = true, caseSplit = false): LoopBound => ({
  function: 'f', line: 3, col: 3, bound, boundExpr: null, precondition, preconditionFormula: F.TRUE, certified, invariants: [], ...(caseSplit ? { caseSplit } : {}),
});
const loop = (bound: string | null, precondition = '1', certified = true): LoopBound[] => [answer(bound, precondition, certified)];

test('a certified bound is checked as max(0, bound), under its precondition when it reads the same in Python', (t) => {
  t.is(checkerExpression(loop('-i + n')), 'max(0, -i + n)');
  t.is(checkerExpression(loop('n', 'k >= 1 && n >= 0')), 'max(0, n) if k >= 1 and n >= 0');
  t.is(checkerExpression(loop('n', 'k != 0 || n > 2')), 'max(0, n) if k != 0 or n > 2');
  // C's / and % truncate, Python's floor; ! is not Python: not checkable as text.
  t.is(checkerExpression(loop('n / 2')), null);
  t.is(checkerExpression(loop('n', '!(k == 0)')), null);
  t.is(checkerExpression(loop('n', '1', false)), null);
  t.is(checkerExpression(loop(null)), null);
});

test('the answers of one loop become one expression: unconditional first, then the two cases of a split, then a conditional bound', (t) => {
  t.is(checkerExpression([answer('n', 'k >= 1'), answer('n + 1')]), 'max(0, n + 1)');
  t.is(checkerExpression([answer('x', 'x >= 0', true, true), answer('-x', 'x <= -1', true, true)]), 'max(0, x) if x >= 0 else max(0, -x)');
  // A case split once more: the cases partition the inputs, chained in order.
  t.is(
    checkerExpression([answer('x + y + 2', 'y >= 0 && x >= 0', true, true), answer('y + 1', 'y >= 0 && x <= -1', true, true), answer('x + 1', 'y <= -1', true, true)]),
    'max(0, x + y + 2) if y >= 0 and x >= 0 else max(0, y + 1) if y >= 0 and x <= -1 else max(0, x + 1)',
  );
  t.is(checkerExpression([answer('n', 'k >= 1'), answer('m', 'k <= 0')]), 'max(0, n) if k >= 1');
  t.is(checkerExpression([answer('n', 'k >= 1', false), answer('m', 'k <= 0')]), 'max(0, m) if k <= 0');
});

test("the checker's report: OK, exceeded, unchecked and runs past the step limit are told apart", (t) => {
  const report = [
    'x.c: function foo(x1, x2), loops at lines [6, 8, 12, 14], grid [-8,12]^2, ...',
    '  loop 0 (line 6): OK  [max(0, -x1 + 11)] inputs 441, exceeded 0, diverged 0, attained 441 (100%), max count 19',
    '  loop 1 (line 8): VIOLATED  [max(0, 998)] inputs 441, exceeded 399, diverged 0, attained 0 (0%), max count 999',
    '  loop 2 (line 12): VIOLATED  [max(0, 5)] inputs 441, exceeded 0, diverged 315, attained 84 (19%), max count 5',
    '  loop 3 (line 14): skipped',
    '  loop 4 (line 16): NOT ATTAINED  [max(0, x1 + 2)] inputs 441, exceeded 0, diverged 0, attained 0 (0%), max count 13',
  ].join('\n');
  const verdicts = readCheckerReport(report, ['max(0, -x1 + 11)', 'max(0, 998)', 'max(0, 5)', null, 'max(0, x1 + 2)']);
  t.deepEqual(verdicts.map((v) => [v.line, v.status]), [[6, 'ok'], [8, 'exceeded'], [12, 'inconclusive'], [14, 'unchecked'], [16, 'loose']]);
});
