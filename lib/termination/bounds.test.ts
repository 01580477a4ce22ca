import test from 'ava';
import { withCallCounters } from './bounds-recursion.js';
import { guardTotalBound } from '../guard/bounds-guard.js';
import { ClaimContradicted } from '../guard/claim.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseProgram } from '../frontend/index.js';
import { parseCExpression } from '../witness/c-expression.js';
import { equivalent } from '../certify/lia.js';
import { runProgram } from '../interpreter/index.js';
import * as L from '../ir/linear.js';
import * as F from '../ir/formula.js';
import { fitBounds } from '../conditions/bounds-fit.js';
import { withIterationCounters } from '../conditions/counters.js';
import { loopsOf } from '../vc/loops.js';
import { bounds, totalBound } from './bounds.js';
import { observeIterations } from '../conditions/bounds-fit.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const load = (rel: string) => parseProgram(readFileSync(root + rel, 'utf8'), rel);
const input = (o: Record<string, number>) => new Map(Object.entries(o).map(([k, v]) => [k, BigInt(v)] as [string, bigint]));

test('fitBounds: the tightest linear bound over the observations comes first, and it covers every one', (t) => {
  // iterations = hi - lo (when positive)
  const samples = [[0, 5], [2, 3], [-4, 4], [7, 20], [1, 2]].map(([lo, hi]) => ({ input: input({ lo: lo!, hi: hi! }), iterations: BigInt(hi! - lo!) }));
  const [best, next] = fitBounds(['lo', 'hi'], samples);
  t.is(L.toC(best!.bound), 'hi - lo');
  t.true(best!.slack < next!.slack);
  for (const c of fitBounds(['lo', 'hi'], samples)) {
    for (const s of samples) t.true(L.evaluate(c.bound, (v) => s.input.get(v) ?? 0n) >= s.iterations);
  }
  // No observation at all: the loop body is never entered, bound 0.
  t.is(L.toC(fitBounds(['n'], [])[0]!.bound), '0');
});

test('counter instrumentation: the counter is reset on entering the loop and counts body entries; the asserted bound fails one iteration too early', (t) => {
  const program = load('benchmarks/bounds/window.c');
  const proc = program.procedures.get('window')!;
  const [header] = loopsOf(proc);
  const counted = withIterationCounters(program, 'window');
  t.deepEqual([...counted.inputs], [['lo', 'lo_in'], ['hi', 'hi']]);
  const run = (p: typeof program) => runProgram(p, { entry: 'window', inputs: input({ lo: 3, hi: 10 }), nondet: [], nondetDefault: 0n });
  t.is(run(counted.program).outcome.kind, 'exit');
  const exact = withIterationCounters(program, 'window', new Map([[header!, L.sub(L.variable('hi'), L.variable('lo'))]]));
  t.is(run(exact.program).outcome.kind, 'exit');
  const tooSmall = withIterationCounters(program, 'window', new Map([[header!, L.addConstant(L.sub(L.variable('hi'), L.variable('lo')), -1n)]]));
  const failed = run(tooSmall.program);
  t.is(failed.outcome.kind, 'assertion-failed');
});

test('counter instrumentation keeps a quotient drawn at the loop head pinned, and observes every edge from the head into the body', (t) => {
  // `x / 2` at the head: the front end's havoc of the quotient must stay right before the assumption
  // that pins it, or a concrete run takes a stream value there and blocks (the observations then saw
  // 1 iteration on every input). Found by scripts/transformations.test.ts.
  const quotient = parseProgram('int f(int x) {\n  int k = 0;\n  while (x / 2 > 0) {\n    x = x - 1;\n    k++;\n  }\n  return k;\n}\n', 'q.c');
  const counted = withIterationCounters(quotient, 'f');
  t.deepEqual(runProgram(counted.program, { entry: 'f', inputs: input({ x: 9 }), nondet: [], nondetDefault: 0n }).outcome, { kind: 'exit', returnValue: 8n });
  const seen = observeIterations(counted, ['x'], { stepBudget: 100_000 }).samples.get(counted.loops[0]!.header) ?? [];
  // Iterations count the head's edges into the loop, the evaluation of `x / 2 > 0` included: 9 at x = 9.
  t.is(seen.find((s) => s.input.get('x') === 9n)?.iterations, 9n);
  // Unsigned wrap-around splits the condition into cases at the head: two edges into the body, both
  // counted and both observed (only the last one was watched).
  const wrap = parseProgram('unsigned f(unsigned u, unsigned n) {\n  unsigned k = 0;\n  while (u + 3u > 2u && k < n) {\n    u = u - 1u;\n    k++;\n  }\n  return k;\n}\n', 'w.c');
  const twice = withIterationCounters(wrap, 'f');
  t.is(twice.loops[0]!.afterIncrements.length, 2);
  const observed = observeIterations(twice, ['u', 'n'], { stepBudget: 50_000 }).samples.get(twice.loops[0]!.header) ?? [];
  t.is(observed.find((s) => s.input.get('u') === 0n && s.input.get('n') === 0n)?.iterations, 1n);
  t.is(observed.find((s) => s.input.get('u') === 2n && s.input.get('n') === 5n)?.iterations, 4n);
});

test('bounds: nested loops get n and m, certified, each with an input that attains it', async (t) => {
  const r = await bounds(Problem.of(load('benchmarks/bounds/nested.c')), resolveSettings({ timeoutMs: 120_000 }));
  t.deepEqual(r.loops.map((l) => [l.line, l.bound, l.precondition, l.certified]), [[5, 'n', '1', true], [7, 'm', '1', true]]);
  for (const l of r.loops) {
    t.truthy(l.tight);
    t.is(L.evaluate(l.boundExpr!, (v) => l.tight!.input.get(v) ?? 0n), l.tight!.iterations);
    t.true(l.invariants.length > 0);
  }
});

test('bounds on Fig. 9: no bound for every input, a conditional bound y0 - x0 under n >= m + 1', async (t) => {
  const r = await bounds(Problem.of(load('benchmarks/bounds/fig9.c')), resolveSettings({ timeoutMs: 200_000 }));
  t.true(r.nonTerminatingRuns > 0);
  t.true(r.loops.every((l) => l.certified && l.bound === '-x0 + y0' && l.precondition !== '1'));
  const scope = Object.fromEntries(['n', 'm', 'x0', 'y0'].map((v) => [v, v]));
  const paper = parseCExpression('n >= m + 1', scope, 'test');
  const matches = await Promise.all(r.loops.map(async (l) => (await equivalent(l.preconditionFormula, paper)).status === 'valid'));
  t.true(matches.includes(true), r.loops.map((l) => l.precondition).join('; '));
  // A narrower condition (n + 2*x0 + 1 >= m + 2*y0) adds only inputs with x0 >= y0, which the
  // program's first assertion excludes: it is contained in n >= m + 1 and not reported beside it.
  t.is(r.loops.length, 1, r.loops.map((l) => l.precondition).join('; '));
});

test('a loop whose condition is first checked for overflow counts its iterations from the test, not from the premise', async (t) => {
  // while (x + y > 0): the front end checks that x + y does not overflow before it tests it; an
  // increment on that premise counted an iteration on the run that leaves at once (x = y = 0 made
  // "1 iteration", and the bound came out x + y + 1, never attained natively).
  const program = parseProgram('int foo(int x, int y) {\n  while (x + y > 0) {\n    if (x > y) x = x - 1; else y = y - 1;\n  }\n  return 0;\n}\n', 'b11.c');
  const counted = withIterationCounters(program, 'foo');
  const observed = observeIterations(counted, ['x', 'y'], { stepBudget: 100_000 }).samples.get(counted.loops[0]!.header) ?? [];
  t.is(observed.find((s) => s.input.get('x') === 2n && s.input.get('y') === 3n)?.iterations, 5n);
  t.false(observed.some((s) => (s.input.get('x')! + s.input.get('y')!) <= 0n)); // no iteration there, so no sample
  const r = await bounds(Problem.of(program), resolveSettings({ timeoutMs: 300_000 }));
  t.deepEqual(r.loops.map((l) => [l.bound, l.precondition, l.certified]), [['x + y', '1', true]]);
});

test('bounds split into two cases where no linear bound holds for every input: |x| as max(0, x) if x >= 1, max(0, -x) otherwise', async (t) => {
  const program = parseProgram('void f(int x) {\n  while (x != 0) {\n    if (x > 0) x--; else x++;\n  }\n}\n', 'abs.c');
  const r = await bounds(Problem.of(program), resolveSettings({ timeoutMs: 300_000 }));
  t.deepEqual(r.loops.map((l) => [l.bound, l.precondition, l.certified, l.caseSplit]), [['x', 'x >= 1', true, true], ['-x', 'x <= 0', true, true]]);
  // Each case is attained by a run of the program, and together the cases cover every input.
  for (const l of r.loops) t.is(L.evaluate(l.boundExpr!, (v) => l.tight!.input.get(v) ?? 0n), l.tight!.iterations);
  for (const x of [-7n, -1n, 0n, 1n, 9n]) {
    const covering = r.loops.filter((l) => F.evaluate(l.preconditionFormula, () => x));
    t.is(covering.length, 1);
    const run = runProgram(program, { entry: 'f', inputs: new Map([['x', x]]), nondet: [] });
    t.is(run.outcome.kind, 'exit');
    t.true(run.steps >= 0 && L.evaluate(covering[0]!.boundExpr!, () => x) >= (x < 0n ? -x : x));
  }
});

test('bounds split twice for a sum of maxima: max(0, x + 1) + max(0, y + 1) as three cases that cover every input', async (t) => {
  const program = parseProgram('void f(int x, int y) {\n  while (x >= 0 || y >= 0) {\n    if (x >= 0) x = x - 1; else y = y - 1;\n  }\n}\n', 'parallel.c');
  const r = await bounds(Problem.of(program), resolveSettings({ timeoutMs: 300_000 }));
  t.true(r.loops.length >= 3 && r.loops.every((l) => l.certified && l.caseSplit), r.loops.map((l) => `${l.bound} if ${l.precondition}: ${l.reason ?? ''}`).join('; '));
  for (const x of [-3n, -1n, 0n, 2n, 7n]) {
    for (const y of [-2n, 0n, 1n, 5n]) {
      const env = (v: string) => (v === 'x' ? x : y);
      const covering = r.loops.filter((l) => F.evaluate(l.preconditionFormula, env));
      t.is(covering.length, 1, `x=${x} y=${y}`);
      const exact = (x >= 0n ? x + 1n : 0n) + (y >= 0n ? y + 1n : 0n);
      const bound = L.evaluate(covering[0]!.boundExpr!, env);
      t.true((bound < 0n ? 0n : bound) >= exact, `x=${x} y=${y}: ${covering[0]!.bound} < ${exact}`);
    }
  }
});

test('the total over all loops: a product for the loop nested in another, a sum for the loop after it', async (t) => {
  const program = parseProgram('void f(int n, int m) {\n  int i = 0;\n  while (i < n) {\n    int j = 0;\n    while (j < m) { j++; }\n    i++;\n  }\n  int k = 0;\n  while (k < m) k++;\n}\n', 'nest.c');
  const r = await bounds(Problem.of(program), resolveSettings({ timeoutMs: 200_000 }));
  t.deepEqual(r.loops.map((l) => [l.line, l.bound, l.certified]), [[3, 'n', true], [5, 'm', true], [9, 'm', true]]);
  t.is(r.total, 'max(0, n) * (1 + max(0, m)) + max(0, m)');
  // A loop without a bound for every input leaves no total.
  t.is(totalBound(program.procedures.get('f')!, [{ header: 0, line: 3, col: 3 }], []), null);
  // The total is held to runs: n * m + m for the nested loop's part (one too few per outer iteration)
  // is contradicted on a run; the certified one is not.
  guardTotalBound(program, 'f', { text: r.total!, value: (input) => { const [n, m] = [input.get('n')!, input.get('m')!].map((v) => (v < 0n ? 0n : v)); return n! * (1n + m!) + m!; } });
  const short = { text: 'max(0, n) * max(0, m) + max(0, m)', value: (input: ReadonlyMap<string, bigint>) => { const [n, m] = [input.get('n')!, input.get('m')!].map((v) => (v < 0n ? 0n : v)); return n! * m! + m!; } };
  t.throws(() => guardTotalBound(program, 'f', short), { instanceOf: ClaimContradicted, message: /total loop bound/ });
});

test('bounds of a recursive procedure: the call counter is checked on every entry, so a recursion that does not return gets no bound', async (t) => {
  // down(n) returns for even n >= 0 and recurses for ever otherwise: no bound on its calls holds for
  // n = -1 or n = 1. Checked after the call returned, n + 1 used to be certified (partial correctness).
  const down = parseProgram('int down(int n) { if (n == 0) return 0; return down(n - 2); }\n', 'down.c');
  const counted = withCallCounters(down, 'down', ['down'], new Map([['down', L.addConstant(L.variable('n'), 1n)]]));
  const wrapped = (n: bigint) => runProgram(counted.program, { entry: counted.wrapper, inputs: new Map([['n', n]]), nondet: [], maxSteps: 20_000 }).outcome.kind;
  t.is(wrapped(4n), 'exit');
  t.is(wrapped(-1n), 'assertion-failed');
  const r = await bounds(Problem.of(down), resolveSettings({ timeoutMs: 60_000 }));
  for (const p of r.procedures.filter((q) => q.certified)) {
    for (const n of [-1n, 1n, 3n]) t.false(F.evaluate(p.preconditionFormula, () => n), `${p.bound} if ${p.precondition} certified, but down(${n}) never returns`);
  }
  // rsum makes max(1, n + 1) calls: whatever is certified is not exceeded by a run from inside its precondition.
  const sum = load('benchmarks/bounds/rsum.c');
  const rs = await bounds(Problem.of(sum), resolveSettings({ timeoutMs: 120_000 }));
  for (const p of rs.procedures.filter((q) => q.certified)) {
    for (const n of [-3n, 0n, 1n, 5n, 40n]) {
      if (!F.evaluate(p.preconditionFormula, () => n)) continue;
      const run = runProgram(sum, { entry: 'sum', inputs: new Map([['n', n]]), nondet: [], recordTrace: true });
      const calls = BigInt((run.trace ?? []).filter((s) => s.kind === 'call').length + 1);
      t.true(calls <= L.evaluate(p.boundExpr!, () => n), `${calls} calls of sum(${n}) > ${p.bound}`);
    }
  }
});

test('bounds counts only the analysed function\'s loops: a called function with a loop is named, not silently taken as bounded', async (t) => {
  const program = parseProgram(`
int helper(int n) { int i = 0; while (i < n) i++; return i; }
void caller(int n) { int r = helper(n); }
`, 'callee-loop.c');
  const r = await bounds(Problem.of(program, 'caller'), resolveSettings({ timeoutMs: 60_000 }));
  t.deepEqual(r.loops, []);
  t.deepEqual(r.calleesWithLoops, ['helper']);
});
