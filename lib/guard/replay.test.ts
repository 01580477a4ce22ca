// The replay of a failing run on the original program: the failure it must reproduce, and the
// user's deadline, past which it stops without one.
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import { runProgram } from '../interpreter/index.js';
import { Deadline } from '../limits.js';
import { replayed, replayOnOriginal } from './replay.js';

// A call in the loop body: the loop does not run in closed form, so its 200,000 iterations are run
// one by one (about a million steps).
const SOURCE = `int inc(int x) { return x + 1; }
void f() {
  int i = 0;
  while (i < 200000) { i = inc(i); }
  assert(i != 200000);
}
`;

test('a replay reproduces the failure; past the deadline it stops without one', (t) => {
  const program = parseProgram(SOURCE, 'long.c');
  const failing = runProgram(program, { entry: 'f', maxSteps: 10_000_000 });
  t.is(failing.outcome.kind, 'assertion-failed');
  t.true(failing.steps > 100_000, `${failing.steps} steps`);
  t.is(replayOnOriginal(program, 'f', failing).outcome.kind, 'assertion-failed');
  t.truthy(replayed(program, 'f', failing, new Deadline(60_000)));
  const late = replayOnOriginal(program, 'f', failing, new Deadline(-1));
  t.is(late.outcome.kind, 'step-limit');
  t.true(late.steps < failing.steps);
  t.is(replayed(program, 'f', failing, new Deadline(-1)), null);
});
