import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import * as F from '../ir/formula.js';
import { Problem } from '../problem/prepare.js';
import { verify } from '../engines/constraint/verify.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { singleRunInvariants } from './single-run.js';
import { resolveSettings } from '../settings.js';

test.after.always(async () => {
  await shutdownZ3();
});

// SV-COMP loop-acceleration/underapprox_1-2: y is 2^x, never a multiple of 3; no linear or octagonal
// invariant says so, the run's seven loop-head states do.
const DOUBLING = `int main(void) {
  unsigned int x = 0;
  unsigned int y = 1;
  while (x < 6) {
    x++;
    y *= 2;
  }
  assert(y % 3);
  return 0;
}
`;

test("single run: a function that reads no input is proved by its run's states, certified", async (t) => {
  const program = parseProgram(DOUBLING, 'doubling.c');
  const invariants = singleRunInvariants(Problem.of(program).analysis('paths'), true);
  t.truthy(invariants);
  const texts = [...invariants!.values()].map((f) => F.toC(f));
  t.true(texts.some((s) => s.includes('x == 6 && y == 32')), texts.join(' ; '));
  const result = await verify(Problem.of(program), resolveSettings({ timeoutMs: 60_000 }));
  t.is(result.verdict, 'safe', result.reason);
  t.true(result.certified);
  t.deepEqual(result.stats, []);
});

test('single run: not for a function with an input, a nondet read, or too many states', (t) => {
  const prepared = (source: string) => Problem.of(parseProgram(source, 'p.c')).analysis('paths');
  t.is(singleRunInvariants(prepared('int f(int n) { int i = 0; while (i < n) i++; return i; }'), true), null);
  t.is(singleRunInvariants(prepared('extern int __VERIFIER_nondet_int(void);\nint main(void) { int i = 0; int n = __VERIFIER_nondet_int(); while (i < n) i++; return 0; }'), true), null);
  t.is(singleRunInvariants(prepared('int main(void) { int i = 0; while (i < 1000) i++; assert(i == 1000); return 0; }'), true), null);
});
