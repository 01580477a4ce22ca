// The interpreter on programs from the C front end: C semantics end to end, and the front end's CFGs
// never have two enabled edges at a deterministic location.
import test from 'ava';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseProgram } from '../frontend/index.js';
import { inlineCalls } from '../ir/inline.js';
import { formatRunResult, runProgram, type RunResult } from './index.js';

const c = (source: string) => parseProgram(source, 'prog.c');

function returned(r: RunResult): bigint | null {
  if (r.outcome.kind !== 'exit') throw new Error(`expected a normal exit, got ${JSON.stringify(r.outcome.kind)}`);
  return r.outcome.returnValue;
}

test('C: loops, branches and a function call', (t) => {
  const p = c(`
int g = 1;
int twice(int v) { g = g + 1; return v + v; }
int main(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (i % 2 == 0) s += twice(i); else s -= 1;
  }
  return s + g;
}`);
  // n = 5: i = 0, 2, 4 add 0 + 4 + 8 (g becomes 4); i = 1, 3 subtract 2 → 10 + 4.
  // Each `i % 2` is a quotient the front end draws as a ghost; the run computes it, reading no
  // nondet value (none is given, and none is needed).
  const r = runProgram(p, { inputs: new Map([['n', 5n]]), nondetDefault: null });
  t.is(returned(r), 14n);
  t.deepEqual(r.nondetConsumed, []);
  // A stream does not feed the ghosts either: its values go to the program's own nondet calls.
  const q = c('int nondet(); int main() { int x = nondet(); int q = x / 3; int y = nondet(); return q + y; }');
  const withStream = runProgram(q, { nondet: [-7n, 100n], nondetDefault: null });
  t.is(returned(withStream), -2n + 100n);
  t.deepEqual(withStream.nondetConsumed, [-7n, 100n]);
});

test('C: McCarthy 91 and the paper’s IP2', (t) => {
  const p = c(`
int M(int n) {
  if (n > 100) return n - 10;
  else return M(M(n + 11));
}
void IP2() {
  int result = M(19) + M(119);
  assert(result == 200);
}`);
  t.is(returned(runProgram(p, { entry: 'M', inputs: new Map([['n', 19n]]) })), 91n);
  t.is(returned(runProgram(p, { entry: 'M', inputs: new Map([['n', 119n]]) })), 109n);
  t.deepEqual(runProgram(p, { entry: 'IP2' }).outcome, { kind: 'exit', returnValue: null });
});

test('C: deep recursion through the front end', (t) => {
  const p = c(`
long long sum(int n) { if (n <= 0) return 0; return n + sum(n - 1); }
long long main() { return sum(100000); }`);
  t.is(returned(runProgram(p)), 5000050000n);
});

test('C: the paper’s Fig. 2 loop ends with x == 102', (t) => {
  const p = c(`
void PV2() {
  int x = 0; int y = 0;
  while (1) { if (x <= 50) y++; else y--; if (y < 0) break; x++; }
  assert(x == 102);
}`);
  const r = runProgram(p, { recordTrace: true });
  t.is(r.outcome.kind, 'exit');
  t.true(r.steps > 102 * 4);
});

test('C: a failing assertion is reported at its line with the visited lines', (t) => {
  const p = c(`void off_by_one(int n) {
  assume(n >= 0);
  int i = 0;
  while (i <= n) {
    i++;
  }
  assert(i == n);
}`);
  t.like(runProgram(p, { inputs: new Map([['n', -1n]]) }).outcome, { kind: 'assume-blocked', pos: { line: 2 } });
  const r = runProgram(p, { inputs: new Map([['n', 2n]]), recordTrace: true });
  t.like(r.outcome, { kind: 'assertion-failed', pos: { file: 'prog.c', line: 7 } });
  const text = formatRunResult(r, p);
  t.regex(text, /^prog\.c:7: assertion failed/);
  t.regex(text, /visited lines: 2 3 \(4 5\)×3 4 7/);
});

test('C: nondet values respect the C type ranges', (t) => {
  const p = c(`int main() {
  char u = __VERIFIER_nondet_char();
  return u;
}`);
  t.is(returned(runProgram(p, { nondet: [127n] })), 127n);
  t.is(returned(runProgram(p, { nondet: [-128n] })), -128n);
  t.like(runProgram(p, { nondet: [128n] }).outcome, { kind: 'nondet-out-of-range', value: 128n, pos: { line: 2 } });
  t.like(runProgram(p, { nondet: [-129n] }).outcome, { kind: 'nondet-out-of-range', value: -129n });
});

test('C: if (*) and while (*) consume the stream', (t) => {
  const p = c(`int main() {
  int x = 0;
  while (*) { if (*) x += 10; else x += 1; }
  return x;
}`);
  t.is(returned(runProgram(p, { nondet: [1n, 1n, 1n, 0n, 1n, 1n, 0n] })), 21n);
  t.is(returned(runProgram(p, { nondet: [] })), 0n);
});

// ------------------------------------------------------------------------------------------------
// Every benchmark program in the repository, on random inputs and nondet streams: the run ends in one
// of the outcomes (no internal error, such as two enabled edges at a deterministic location), and the
// inlined program agrees with the original.

const root = join(fileURLToPath(new URL('.', import.meta.url)), '../../..');
function benchmarkFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.c')) out.push(path);
    }
  };
  walk(join(root, 'benchmarks'));
  return out.sort();
}

test('benchmark programs run without internal errors, and inlining preserves their runs', (t) => {
  const files = benchmarkFiles();
  t.true(files.length >= 5, `found ${files.length} benchmark programs`);
  const outcomes = new Set<string>();
  for (const file of files) {
    const program = parseProgram(readFileSync(file, 'utf8'), file);
    const inlined = inlineCalls(program).program;
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -3n, max: 60n }), { maxLength: 40 }), fc.constantFrom<bigint | null>(0n, null), (nondet, nondetDefault) => {
        const options = { nondet, nondetDefault, maxSteps: 3_000 };
        const original = runProgram(program, options);
        outcomes.add(original.outcome.kind);
        if (original.outcome.kind === 'step-limit') return;
        const copy = runProgram(inlined, { ...options, maxSteps: 4 * options.maxSteps });
        t.deepEqual(copy.outcome.kind, original.outcome.kind, file);
        t.deepEqual(copy.nondetConsumed, original.nondetConsumed, file);
      }),
      { numRuns: 40, seed: 7 },
    );
  }
  t.true(outcomes.has('exit') && outcomes.has('assertion-failed'), [...outcomes].join(', '));
});
