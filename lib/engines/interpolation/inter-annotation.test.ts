// Interprocedural lazy annotation (negative summaries) on the recursive programs of
// benchmarks/interproc and small variants: safe answers carry summaries the certificate checker
// proved (and which the interpreter's runs of the procedure must satisfy), unsafe answers a
// counterexample the interpreter replays; what the engine cannot express is unknown with the reason.
import test from 'ava';
import { readFileSync } from 'node:fs';
import * as F from '../../ir/formula.js';
import { parseProgram } from '../../frontend/index.js';
import { runProgram } from '../../interpreter/index.js';
import { returnName } from '../../ir/summary-names.js';
import { shutdownZ3 } from '../../sat/z3-context.js';
import { crossCheck } from '../../portfolio/cross-check.js';
import { lazyAnnotation } from './lazy-annotation.js';
import { CONSTRAINT_ENGINE, type EngineResult } from '../types.js';
import { engineByName } from '../index.js';
import { Problem } from '../../problem/prepare.js';
import { resolveSettings } from '../../settings.js';

test.after.always(() => shutdownZ3());

const bench = (name: string) => parseProgram(readFileSync(`benchmarks/interproc/${name}.c`, 'utf8'), `${name}.c`);

function assertReplays(t: import('ava').ExecutionContext, program: ReturnType<typeof bench>, result: EngineResult): void {
  t.is(result.verdict, 'unsafe', result.reason);
  const cex = result.counterexample!;
  t.true(cex.replayed);
  const run = runProgram(program, { entry: result.function, inputs: cex.inputs, nondet: cex.nondet, nondetDefault: null });
  t.is(run.outcome.kind, 'assertion-failed');
}

test.serial('sum.c (recursive sum, r >= k) is proved with a certified negative summary that real calls satisfy', async (t) => {
  const program = bench('sum');
  const result = await lazyAnnotation(Problem.of(program), resolveSettings({ timeoutMs: 30_000 }));
  t.is(result.verdict, 'safe', result.reason);
  t.true(result.certified);
  const sum = result.summaries?.find((s) => s.procedure === 'sum');
  t.truthy(sum);
  t.true(sum!.pairs.length > 0);
  // Every pair must hold of the procedure's actual input/output behaviour.
  for (let n = -3n; n <= 12n; n++) {
    const run = runProgram(program, { entry: 'sum', inputs: new Map([['n', n]]), nondet: [], nondetDefault: 0n });
    t.is(run.outcome.kind, 'exit');
    const ret = run.outcome.kind === 'exit' ? run.outcome.returnValue ?? 0n : 0n;
    const env = (v: string): bigint => (v === 'n' ? n : v === returnName('sum') ? ret : 0n);
    for (const pair of sum!.pairs) t.true(!F.evaluate(pair.preFormula, env) || F.evaluate(pair.postFormula, env), `${pair.pre} => ${pair.post} fails for n = ${n}`);
  }
});

test.serial('add.c (paper 004 Fig. 3a, Add(5, 3) == 8) is proved', async (t) => {
  const result = await lazyAnnotation(Problem.of(bench('add'), 'IP1'), resolveSettings({ timeoutMs: 30_000 }));
  t.is(result.verdict, 'safe', result.reason);
  t.true(result.certified);
  t.is(result.engineStats.engine, 'lazy-annotation');
});

test.serial('even-odd.c (mutual recursion) is proved with summaries for both procedures', async (t) => {
  const result = await lazyAnnotation(Problem.of(bench('even-odd')), resolveSettings({ timeoutMs: 30_000 }));
  t.is(result.verdict, 'safe', result.reason);
  t.deepEqual(result.summaries?.map((s) => s.procedure).sort(), ['even', 'odd']);
});

test.serial('broken-sum.c (sum(3) != 6) is unsafe with a replayed run', async (t) => {
  const program = bench('broken-sum');
  assertReplays(t, program, await lazyAnnotation(Problem.of(program), resolveSettings({ timeoutMs: 30_000 })));
});

test.serial('a nondet input reaching the failure through four recursive calls is found (sum(k) != 10 fails for k = 4)', async (t) => {
  const program = parseProgram(`extern int __VERIFIER_nondet_int(void);
    int sum(int n) { if (n <= 0) return 0; return n + sum(n - 1); }
    int main() { int k = __VERIFIER_nondet_int(); if (k < 0) return 0; int r = sum(k); assert(r != 10); return 0; }`, 'sum10.c');
  const result = await lazyAnnotation(Problem.of(program), resolveSettings({ timeoutMs: 30_000 }));
  assertReplays(t, program, result);
  t.deepEqual(result.counterexample!.nondet, [4n]);
});

test.serial('a recursive procedure with an assertion or a global write is unknown with the reason', async (t) => {
  const inner = await lazyAnnotation(Problem.of(bench('inner-assert')), resolveSettings({ timeoutMs: 10_000 }));
  t.is(inner.verdict, 'unknown');
  t.regex(inner.reason ?? '', /contains an assertion/);
  const counter = await lazyAnnotation(Problem.of(bench('call-counter')), resolveSettings({ timeoutMs: 10_000 }));
  t.is(counter.verdict, 'unknown');
  t.regex(counter.reason ?? '', /writes global 'calls'/);
});

test.serial('cross-check: the constraint engine and lazy annotation agree on sum.c and broken-sum.c', async (t) => {
  const engines = [engineByName(CONSTRAINT_ENGINE)!, engineByName('lazy-annotation')!];
  const safe = await crossCheck(Problem.of(bench('sum')), resolveSettings(), { engines });
  t.deepEqual(safe.rows.map((r) => r.verdict), ['safe', 'safe']);
  t.deepEqual(safe.disagreements, []);
  t.is(safe.consensus, 'safe');
  const unsafe = await crossCheck(Problem.of(bench('broken-sum')), resolveSettings(), { engines });
  t.deepEqual(unsafe.rows.map((r) => r.verdict), ['unsafe', 'unsafe']);
  t.is(unsafe.consensus, 'unsafe');
});
