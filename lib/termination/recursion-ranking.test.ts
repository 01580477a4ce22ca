import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import { runProgram } from '../interpreter/index.js';
import * as L from '../ir/linear.js';
import { Problem } from '../problem/prepare.js';
import { positionCandidates, rankRecursion, recursiveCycles, withRecursionChecks } from './recursion-ranking.js';
import { termination } from './termination.js';
import { resolveSettings } from '../settings.js';

const HEADER = 'extern int __VERIFIER_nondet_int(void); extern void abort(void);\n';
const lower = (body: string) => parseProgram(HEADER + body, 't.c', { property: 'termination' });
const values = (o: Record<string, number>) => new Map(Object.entries(o).map(([k, v]) => [k, BigInt(v)] as [string, bigint]));

const FIB = `int fib(int n) { if (n < 1) return 0; if (n == 1) return 1; return fib(n - 1) + fib(n - 2); }
  int main() { int x = __VERIFIER_nondet_int(); if (x > 20) return 0; return fib(x); }`;

test('recursion ranking: fib is ranked by n - 1 from its own tests, checked without its callers', async (t) => {
  const program = lower(FIB);
  const inlined = Problem.of(program, 'main').inlined.program;
  t.deepEqual(recursiveCycles(inlined, 'main'), [['fib']]);
  const candidates = positionCandidates([inlined.procedures.get('fib')!]).map((r) => L.toC(r));
  t.true(candidates.includes('#0 - 1'), candidates.join(', '));
  const result = await rankRecursion(program, 'main', resolveSettings({ timeoutMs: 60_000 }));
  t.true(result.complete, result.reason);
  t.deepEqual(result.ranked.map((p) => [p.procedure, p.ranking]), [['fib', 'n - 1']]);
});

test('recursion ranking: the checks fail on a run where the measure does not fall', (t) => {
  // n - 1 ranks fib; -n does not: fib(5) calls fib(4), and -4 > -5 - 1.
  const program = lower(FIB);
  const inlined = Problem.of(program, 'main').inlined.program;
  const run = (r: L.Linear) => runProgram(withRecursionChecks(inlined, ['fib'], r), { entry: 'main', inputs: new Map(), nondet: [5n], nondetDefault: 0n, maxSteps: 10_000 }).outcome.kind;
  t.is(run(L.addConstant(L.variable('#0'), -1n)), 'exit');
  t.is(run(L.negate(L.variable('#0'))), 'assertion-failed');
});

test('recursion ranking: mutual recursion on the callers\' n >= 0, and gcd by the sum of two tests', async (t) => {
  const evenOdd = lower(`int odd(int n); int even(int n) { if (n == 0) return 1; return odd(n - 1); }
    int odd(int n) { if (n == 0) return 0; return even(n - 1); }
    int main() { int n = __VERIFIER_nondet_int(); if (n < 0) return 0; return even(n); }`);
  const r1 = await rankRecursion(evenOdd, 'main', resolveSettings({ timeoutMs: 60_000 }));
  t.true(r1.complete, r1.reason);
  t.deepEqual(r1.ranked.map((p) => [p.procedure, p.ranking]), [['even', 'n'], ['odd', 'n']]);
  const gcd = lower(`int gcd(int a, int b) { if (a <= 0 || b <= 0) return 0; if (a == b) return a; if (a > b) return gcd(a - b, b); return gcd(a, b - a); }
    int main() { int a = __VERIFIER_nondet_int(); int b = __VERIFIER_nondet_int(); return gcd(a, b); }`);
  const r2 = await rankRecursion(gcd, 'main', resolveSettings({ timeoutMs: 60_000 }));
  t.true(r2.complete, r2.reason);
  t.deepEqual(r2.ranked.map((p) => p.ranking), ['a + b - 2']);
});

test('recursion ranking: a recursion that does not end on some input gets none, and termination says unknown or does not terminate', async (t) => {
  // down(n) for n < 0 calls down(n - 2) for ever.
  const program = lower(`int down(int n) { if (n == 0) return 0; return down(n - 2); }
    int main() { int n = __VERIFIER_nondet_int(); if (n > 100) return 0; return down(n); }`);
  const ranking = await rankRecursion(program, 'main', resolveSettings({ timeoutMs: 20_000 }));
  t.false(ranking.complete);
  const result = await termination(Problem.of(program), resolveSettings({ timeoutMs: 30_000 }));
  t.not(result.verdict, 'terminates');
  // With the test n <= 0 every input ends: ranked by n (or bounded).
  const ends = lower(`int down(int n) { if (n <= 0) return 0; return down(n - 2); }
    int main() { int n = __VERIFIER_nondet_int(); if (n > 100) return 0; return down(n); }`);
  const proved = await termination(Problem.of(ends), resolveSettings({ timeoutMs: 60_000 }));
  t.is(proved.verdict, 'terminates', proved.reason);
  t.true((proved.rankedRecursion ?? []).length > 0 || (proved.bounds ?? []).length > 0);
  t.is(runProgram(ends, { entry: 'main', inputs: values({}), nondet: [99n], nondetDefault: 0n }).outcome.kind, 'exit');
});

test('recursion ranking: a recursive analysed function that never returns from one input is not ranked, and preparing it ends', async (t) => {
  // f(-5000) calls itself for ever. Termination instruments f with assertions; the summary engine's
  // preparation of an analysed function that is recursive itself once grew without end (out of heap).
  const program = lower(`int f(int n) { if (n <= 0) { if (n == -5000) return f(n); return 0; } return f(n - 1); }`);
  const ranking = await rankRecursion(program, 'f', resolveSettings({ timeoutMs: 10_000 }));
  t.false(ranking.complete);
  t.is(runProgram(program, { entry: 'f', inputs: values({ n: -5000 }), maxSteps: 10_000 }).outcome.kind, 'step-limit');
});
