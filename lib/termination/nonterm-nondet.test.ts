import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { loopEdges, runCountingIterations } from '../guard/bounds-guard.js';
import { nonterm } from './nonterm.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

test.after.always(async () => {
  await shutdownZ3();
});

// A read outside the loop is a parameter (nondet_1) of the program the termination proof bounds; the
// bound's tight input is shown for the original program: its parameters and the nondet stream. (It
// was an input of the rewritten program, and replaying it on the original one threw: found by the
// command fuzz, seed 6, program 41.)
const SOURCE = `extern int nondet(void);
int f(int a) {
  int s = 1;
  s = nondet();
  while (a > 0) { a = a - 1; }
  assert(s <= a + 3);
  return s;
}
`;

test('nonterm: a bound\'s tight input replays on the original program, and the reads it names are listed', async (t) => {
  const program = parseProgram(SOURCE, 'read.c');
  const result = await nonterm(Problem.of(program, 'f'), resolveSettings({ timeoutMs: 60_000 }));
  t.is(result.verdict, 'terminates', result.reason);
  t.deepEqual(result.nondetInputs?.map((i) => [i.parameter, i.line, i.target]), [['nondet_1', 4, 's']]);
  const loop = result.bounds?.find((b) => b.tight);
  t.truthy(loop, 'a bound with a tight input');
  const tight = loop!.tight!;
  t.deepEqual([...tight.input.keys()], ['a']);
  t.is(tight.nondet.length, 1);
  const run = runCountingIterations(program, 'f', loopEdges(program.procedures.get('f')!), tight.input, tight.nondet, { maxSteps: 100_000 });
  t.is(run.iterations[0], tight.iterations);
});
