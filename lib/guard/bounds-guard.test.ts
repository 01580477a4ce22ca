// The loop-bound guard (issue 19) must stop a wrong certificate: shown on deliberately wrong results
// (a bound replaced by a smaller one, a wrong tightness claim, a wrong conditional bound) and on the
// instrumentation bug of issue 19 put back (lib/ir/faults.ts), where `bounds` would otherwise certify
// "at most 0 iterations" for a loop that runs n times. That right bounds pass the guard is shown by
// every other bounds test, since `bounds` runs it before returning (nesting.test.ts in particular).
import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseProgram } from '../frontend/index.js';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { bounds, type LoopBound } from '../termination/bounds.js';
import { ClaimContradicted } from './claim.js';
import { withFaultForTests } from '../ir/faults.js';
import { findLoopBoundContradiction, guardLoopBounds, loopEdges, observedIterations, runCountingIterations } from './bounds-guard.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

test.after.always(() => shutdownZ3());

const root = fileURLToPath(new URL('../../../', import.meta.url));
const load = (rel: string) => parseProgram(readFileSync(root + rel, 'utf8'), rel);
const n = L.variable('n');
const m = L.variable('m');

/** A certified claim as `bounds` states it, for results written by hand. */
function claim(line: number, col: number, bound: Linear, precondition: F.Formula = F.TRUE): LoopBound {
  return {
    function: 'f', line, col, bound: L.toC(bound), boundExpr: bound, certified: true, invariants: [],
    precondition: precondition === F.TRUE ? '1' : F.toC(precondition), preconditionFormula: precondition,
  };
}

const ISSUE = 'void f(int n, int m) {\n  int i = 0;\n  while (i < n) {\n    while (m > 0) { m--; }\n    i++;\n  }\n}\n';

test('the oracle counts body entries per entry into the loop, from the run of the original program', (t) => {
  const program = parseProgram(ISSUE, 'nest.c');
  // The inner loop drains m in the first outer iteration and is entered again, 0 times, afterwards.
  t.deepEqual([...observedIterations(program, 'f', new Map([['n', 3n], ['m', 4n]]))], [[3, 3n], [4, 4n]]);
  t.deepEqual([...observedIterations(program, 'f', new Map([['n', -2n], ['m', 4n]]))], [[3, 0n], [4, 0n]]);
});

test('the oracle counts a call edge when its callee returns, and not an edge whose assertion fails', (t) => {
  // Found by scripts/transformations.test.ts; before, bounds called the certified n - 1 of the inner loop
  // contradicted ("7 iterations" at n = 5: the call entering it did not restart the count), the loop
  // started by a call made 0 iterations, and -x + 5 was contradicted by the iteration that fails.
  const enters = parseProgram('int g;\nint h() { g++; return g; }\nint f(int n) {\n  int k = 0;\n  for (int j = 0; j < 2; j++) {\n    k = h();\n    while (k < n) k++;\n  }\n  return k;\n}\n', 'enters.c');
  t.deepEqual([...observedIterations(enters, 'f', new Map([['n', 5n]]))], [[5, 2n], [7, 4n]]);
  const starts = parseProgram('int g;\nvoid h() { g++; }\nint f(int n) {\n  while (1) {\n    h();\n    if (g > n) break;\n  }\n  return g;\n}\n', 'starts.c');
  t.deepEqual([...observedIterations(starts, 'f', new Map([['n', 3n]]))], [[4, 4n]]);
  // An assertion on the edge into the body fails there: the instrumented program blocks before its count.
  const asserts = parseProgram('int f(int x) {\n  for (;;) {\n    __VERIFIER_assert(x < 5);\n    x++;\n  }\n  return x;\n}\n', 'asserts.c');
  const run = runCountingIterations(asserts, 'f', loopEdges(asserts.procedures.get('f')!), new Map([['x', 0n]]), [], { maxSteps: 1000 });
  t.is(run.outcome.kind, 'assertion-failed');
  t.deepEqual(run.iterations, [5n]);
});

test('right bounds written by hand pass; a bound one too small is contradicted on the first input that shows it', (t) => {
  const program = load('benchmarks/bounds/nested.c');
  const right = { function: 'nested', parameters: ['n', 'm'], loops: [claim(5, 3, n), claim(7, 5, m)] };
  t.is(findLoopBoundContradiction(program, right), null);
  const wrong = { ...right, loops: [claim(5, 3, L.addConstant(n, -1n)), claim(7, 5, m)] };
  const error = t.throws(() => guardLoopBounds(program, wrong), { instanceOf: ClaimContradicted });
  t.is(error!.message, 'a certified loop bound was contradicted by a run of the program: n=1, m=0 (line 5: 1 iteration > bound n - 1 = 0)');
  t.is(error!.line, 5);
  t.is(error!.input, 'n=1, m=0');
});

test('the real result of bounds, with a bound made wrong or its tight input misstated, is contradicted', async (t) => {
  const program = load('benchmarks/bounds/nested.c');
  const real = await bounds(Problem.of(program), resolveSettings({ timeoutMs: 120_000 }));
  t.deepEqual(real.loops.map((l) => [l.line, l.bound, l.certified]), [[5, 'n', true], [7, 'm', true]]);
  t.is(findLoopBoundContradiction(program, real), null);
  const inner = real.loops[1]!;
  // The inner bound replaced by 0: the tight input (m > 0) is checked first and breaks it.
  const zero = { ...real, loops: [real.loops[0]!, { ...inner, bound: '0', boundExpr: L.constant(0n) }] };
  const broken = findLoopBoundContradiction(program, zero);
  t.like(broken, { line: 7, claim: 'bound', input: inner.tight!.input, iterations: inner.tight!.iterations });
  // A tight input claimed to run once more than it does (and more than the bound there).
  const misstated = { ...real, loops: [real.loops[0]!, { ...inner, tight: { ...inner.tight!, iterations: inner.tight!.iterations + 1n } }] };
  const tight = findLoopBoundContradiction(program, misstated);
  t.like(tight, { line: 7, claim: 'tight', iterations: inner.tight!.iterations });
  t.regex(tight!.description, /^line 7: tight on this input with \d+ iterations, but the bound m is \d+ there$/);
  // The same with the bound raised to match the claim: now only the run disagrees.
  const raised = { ...misstated, loops: [real.loops[0]!, { ...misstated.loops[1]!, bound: 'm + 1', boundExpr: L.addConstant(m, 1n) }] };
  t.is(findLoopBoundContradiction(program, raised)?.description, `line 7: tight on this input with ${inner.tight!.iterations + 1n} iterations, but the run makes ${inner.tight!.iterations}`);
});

test('a conditional bound is only tested on inputs satisfying its precondition', (t) => {
  // Fig. 9: y0 - x0 iterations when n >= m + 1; for n <= m the loop never ends.
  const program = load('benchmarks/bounds/fig9.c');
  const [x0, y0] = [L.variable('x0'), L.variable('y0')];
  const under = F.compare(n, '>=', L.addConstant(m, 1n));
  const result = (bound: Linear, precondition: F.Formula) => ({ function: 'Loop', parameters: ['n', 'm', 'x0', 'y0'], loops: [claim(7, 3, bound, precondition)] });
  t.is(findLoopBoundContradiction(program, result(L.sub(y0, x0), under)), null);
  const wrong = findLoopBoundContradiction(program, result(L.addConstant(L.sub(y0, x0), -1n), under));
  t.truthy(wrong);
  t.true(F.evaluate(under, (v) => wrong!.input.get(v)!), 'the contradicting input satisfies the precondition');
  t.regex(wrong!.description, /^line 7: \d+ iterations? > bound -x0 \+ y0 - 1 = \d+, under n >= m \+ 1$/);
  // Under a precondition no input satisfies, even the bound 0 is never tested.
  t.is(findLoopBoundContradiction(program, result(L.constant(0n), F.FALSE)), null);
});

test('loops driven by nondet values are tested on seeded random streams, named in the input', (t) => {
  const program = parseProgram('int f() {\n  int k = __VERIFIER_nondet_int();\n  int i = 0;\n  while (i < k) i++;\n  return i;\n}\n', 'nondet.c');
  const wrong = { function: 'f', parameters: [], loops: [claim(4, 3, L.constant(3n))] };
  const error = t.throws(() => guardLoopBounds(program, wrong), { instanceOf: ClaimContradicted });
  t.regex(error!.input, /^nondet -?\d+/);
  t.regex(error!.description, /^line 4: \d+ iterations > bound 3$/);
  // Replaying the named nondet values reproduces the count.
  const nondet = error!.input.replace(/^nondet /, '').split(',').map(BigInt);
  const replay = runCountingIterations(program, 'f', loopEdges(program.procedures.get('f')!), new Map(), nondet, { maxSteps: 200_000 });
  t.is(`line 4: ${replay.iterations[0]} iterations > bound 3`, error!.description);
});

test('issue 19 put back: the outer increment dropped, bounds throws instead of certifying "at most 0 iterations"', async (t) => {
  const program = parseProgram(ISSUE, 'nest.c');
  const error = await t.throwsAsync(bounds(Problem.of(withFaultForTests(program, 'outer-increment-dropped'), 'f'), resolveSettings({ timeoutMs: 120_000 })), { instanceOf: ClaimContradicted });
  t.is(error!.message, 'a certified loop bound was contradicted by a run of the program: n=1, m=0 (line 3: 1 iteration > bound 0)');
});
