import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import * as F from '../ir/formula.js';
import { Problem } from '../problem/prepare.js';
import { runProgram } from '../interpreter/index.js';
import { verify } from '../engines/constraint/verify.js';
import { cex } from '../conditions/cex.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { Deadline } from '../limits.js';
import { everyRunFails, Falsifier } from './bmc.js';
import { guessedSummaries } from './guessed-summaries.js';
import { loopFreeFailingCondition } from './failing-condition.js';
import { resolveSettings } from '../settings.js';

test.after.always(async () => {
  await shutdownZ3();
});

const HEADER = `extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);
`;
// Each bug needs one input: sampling misses it.
const EQUALITY = `${HEADER}int main() { int x = __VERIFIER_nondet_int(); if (x > 0 && x < 100000) { __VERIFIER_assert(3 * x != 1227); } return 0; }\n`;
const WRAP = `${HEADER}int main() { unsigned char c = __VERIFIER_nondet_uchar(); unsigned char d = c + 57; __VERIFIER_assert(d != 3); return 0; }\n`;
const ITERATIONS = `${HEADER}int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n < 20);
int x = 0; while (x < 500) { x = x + n; } __VERIFIER_assert(x != 513); return 0; }\n`;
const RECURSION = `${HEADER}int f(int n) { if (n <= 0) return 0; return f(n - 1) + 2; }
int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= n && n <= 1000); __VERIFIER_assert(f(n) != 1234); return 0; }\n`;
const SAFE_LOOP = `${HEADER}int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 < n && n < 20);
int x = 0; while (x < 500) { x = x + n; } __VERIFIER_assert(x >= 500); return 0; }\n`;

async function falsify(source: string, name: string): Promise<{ nondet: readonly bigint[]; report: ReturnType<Falsifier['report']> } | null> {
  const program = parseProgram(source, name);
  const problem = Problem.of(program);
  const deadline = new Deadline();
  const falsifier = new Falsifier(problem, { deadline, ...(problem.needsSummaries ? { summaries: guessedSummaries(problem, deadline) } : {}) });
  const found = await falsifier.rest();
  if (!found) return null;
  // Whatever the falsifier says, the original program fails on it.
  const run = runProgram(program, { entry: 'main', inputs: found.inputs, nondet: found.nondet, nondetDefault: null });
  if (run.outcome.kind !== 'assertion-failed') throw new Error(`${name}: the counterexample does not fail (${run.outcome.kind})`);
  return { nondet: found.nondet, report: falsifier.report() };
}

test('bounded model checking: the one failing input of a condition, of an unsigned wrap, after 27 iterations, 617 calls deep', async (t) => {
  t.deepEqual((await falsify(EQUALITY, 'f1.c'))?.nondet, [409n]);
  t.deepEqual((await falsify(WRAP, 'f2.c'))?.nondet, [202n]);
  const loop = await falsify(ITERATIONS, 'f3.c');
  t.deepEqual(loop?.nondet, [19n]);
  // Entry to the loop head, 27 iterations, the exit: 29 region steps.
  t.is(loop?.report.foundAt, 29);
  const deep = await falsify(RECURSION, 'f4.c');
  t.deepEqual(deep?.nondet, [617n]);
  t.true(deep?.report.summaries);
});

test('bounded model checking finds nothing in a safe program and says how deep it looked', async (t) => {
  t.is(await falsify(SAFE_LOOP, 'safe.c'), null);
  const program = parseProgram(SAFE_LOOP, 'safe.c');
  const falsifier = new Falsifier(Problem.of(program), { deadline: new Deadline() });
  await falsifier.next();
  const report = falsifier.report();
  t.true(report.depth >= 4, JSON.stringify(report));
  t.is(report.foundAt, undefined);
  t.true(report.queries >= 1 && report.work > 0);
});

test('plain verify reports each of the four bugs, replayed; the deep recursion by the falsifier', async (t) => {
  // f1–f3 are also hit by the sampling's guided runs (values solved from the conditions, the constants
  // and their neighbours: n == 19 is next to 20), which come first; 617 calls deep is the falsifier's.
  for (const [name, source, value, deep] of [['f1.c', EQUALITY, 409n, false], ['f2.c', WRAP, 202n, false], ['f3.c', ITERATIONS, 19n, false], ['f4.c', RECURSION, 617n, true]] as const) {
    const result = await verify(Problem.of(parseProgram(source, name)), resolveSettings({ timeoutMs: 60_000 }));
    t.is(result.verdict, 'unsafe', `${name}: ${result.reason}`);
    t.true(result.counterexample?.replayed);
    t.deepEqual(result.counterexample?.nondet, [value], name);
    if (deep) t.true((result.falsifier?.foundAt ?? 0) >= 1, name);
  }
});

test('the exact failing condition of a loop-free function: x == 409, certified by z3; none for a loop', async (t) => {
  const deadline = new Deadline();
  // Over a parameter: the same program as a function of its input.
  const program = parseProgram('extern void __VERIFIER_assert(int);\nint g(int x) { if (x > 0 && x < 100000) { __VERIFIER_assert(3 * x != 1227); } return 0; }\n', 'g.c');
  const problem = Problem.of(program, 'g');
  const exact = await loopFreeFailingCondition(problem, deadline);
  t.is(exact && F.toC(exact.formula), 'x == 409');
  t.true(exact?.exact);
  t.is(await everyRunFails(problem, exact!.formula, deadline), 'yes');
  t.is(await everyRunFails(problem, F.TRUE, deadline), 'no');
  // A function with a loop has none.
  t.is(await loopFreeFailingCondition(Problem.of(parseProgram(ITERATIONS, 'f3.c')), deadline), null);
});

test('cex: the conditions x == 409, c == 202, n == 19 (n >= 19 where n < 20 is assumed) and a guessed n == 617, each with a failing run', async (t) => {
  const expected: [string, string, RegExp, boolean][] = [
    ['f1.c', EQUALITY, /^nondet_1 == 409$/, true],
    ['f2.c', WRAP, /^nondet_1 == 202$/, true],
    ['f3.c', ITERATIONS, /^nondet_1 == 19$/, true],
    ['f4.c', RECURSION, /^nondet_1 == 617$/, false],
  ];
  for (const [name, source, condition, certified] of expected) {
    const result = await cex(Problem.of(parseProgram(source, name)), resolveSettings({ timeoutMs: 120_000 }));
    const first = result.conditions[0];
    t.truthy(first, `${name}: ${result.reason}`);
    t.regex(first!.expression, condition, name);
    t.is(first!.certified, certified, name);
    t.true(first!.replayed);
    t.is(first!.run.outcome.kind, 'assertion-failed');
  }
});

test('cex on a call of a recursive procedure whose failure sampling finds: a condition by the guessed summary, where the precondition search has none', async (t) => {
  const source = `${HEADER}int f(int n) { if (n <= 0) return 0; return f(n - 1) + 2; }
int main() { int n = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= n && n <= 30); int r = f(n); __VERIFIER_assert(r != 14); return 0; }\n`;
  const result = await cex(Problem.of(parseProgram(source, 'shallow.c')), resolveSettings({ timeoutMs: 60_000 }));
  t.is(result.conditions[0]?.expression, 'nondet_1 == 7', result.reason);
  t.false(result.conditions[0]!.certified);
  t.is(result.conditions[0]!.run.outcome.kind, 'assertion-failed');
});
