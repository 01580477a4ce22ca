// Cross-checking: agreement, loud disagreement (with a deliberately wrong engine), and the
// strength comparison of invariants decided by z3.
import test from 'ava';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { parseProgram } from '../frontend/index.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { crossCheck, formatCrossCheck, strength } from './cross-check.js';
import { engineByName, type Engine } from '../engines/index.js';

test.after.always(() => shutdownZ3());

const x = L.variable('x');
const y = L.variable('y');
const ge = (a: L.Linear, b: L.Linear): F.Formula => F.geqZero(L.sub(a, b));

test('strength: stronger, weaker, equivalent, incomparable', async (t) => {
  t.is(await strength(ge(x, L.constant(1)), ge(x, L.constant(0)), 5_000), 'stronger');
  t.is(await strength(ge(x, L.constant(0)), ge(x, L.constant(1)), 5_000), 'weaker');
  // Over the integers x > 0 and x >= 1 are the same set.
  t.is(await strength(F.not(ge(L.constant(0), x)), ge(x, L.constant(1)), 5_000), 'equivalent');
  t.is(await strength(ge(x, L.constant(0)), ge(y, L.constant(0)), 5_000), 'incomparable');
});

const COUNT = 'int main() { int x = 0; int y = 0; while (x < 10) { x = x + 1; y = y + 2; } assert(y == 2 * x); return 0; }';

test('every engine agrees on a safe loop; invariants compared at the loop head', async (t) => {
  const program = parseProgram(COUNT, 'count.c');
  const r = await crossCheck(program, { engines: [{ name: 'lazy-annotation', run: engineByName('lazy-annotation')! }] });
  t.deepEqual(r.rows.map((row) => row.engine), ['constraints', 'lazy-annotation']);
  t.deepEqual(r.disagreements, []);
  t.is(r.consensus, 'safe');
  t.true(r.rows.every((row) => row.verdict === 'safe' && row.certificate === 'certified'));
  t.is(r.comparisons.length, 1);
  t.is(r.comparisons[0]!.line, 1);
  t.not(r.comparisons[0]!.strength, 'unknown');
});

test('an engine that contradicts a certified verdict is reported loudly', async (t) => {
  const program = parseProgram(COUNT, 'count.c');
  // A deliberately broken engine: claims a counterexample without one.
  const liar: Engine = async (p, o) => ({ ...(await engineByName('lazy-annotation')!(p, o)), verdict: 'unsafe' });
  const r = await crossCheck(program, { engines: [{ name: 'liar', run: liar }] });
  t.is(r.consensus, null);
  t.deepEqual(r.disagreements, ['constraints says safe but liar says unsafe']);
  t.regex(formatCrossCheck('count.c', r), /DISAGREEMENT/);
});
