// `farkas run` end to end: the compiled CLI in a child process, as a user runs it.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { farkas as runFarkas } from '../testing/farkas-bin.js';

const dir = mkdtempSync(join(tmpdir(), 'farkas-run-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function source(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const farkas = (...args: string[]) => runFarkas(args);

const counter = source(
  'counter.c',
  `int main(int n) {
  int i = 0;
  int s = 0;
  while (i < n) {
    s = s + i;
    i++;
  }
  assert(s != 10);
  return s;
}
`,
);

const guarded = source(
  'guarded.c',
  `int main() {
  int x = __VERIFIER_nondet_int();
  signed char c = __VERIFIER_nondet_char();
  assume(x > 0);
  while (*) x = x + c;
  return x / 2;
}
`,
);

test('a normal run exits 0 and prints the return value', async (t) => {
  const r = await farkas('run', counter, '--input', 'n=3');
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^normal exit: main returned 3$/m);
  t.regex(r.stdout, /inputs: n=3/);
});

test('a failing assertion exits 1 with FILE:LINE and the visited lines', async (t) => {
  const r = await farkas('run', counter, '-i', 'n=5');
  t.is(r.code, 1, r.stderr);
  t.true(r.stdout.startsWith(`${counter}:8: assertion failed`), r.stdout);
  t.regex(r.stdout, /visited lines: 2 3 \(4 5 6\)×5 4 8/);
});

test('nondet values, defaults and quotients are reported', async (t) => {
  // x = 7, c = -2; the loop runs twice (1, 1) then stops (0): x = 3, return 3 / 2 = 1.
  const r = await farkas('run', guarded, '--nondet', '7,-2,1,1,0');
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /main returned 1$/m);
  // The quotient of `x / 2` is computed by the run, never read from the stream.
  t.regex(r.stdout, /steps: \d+; 5 nondet values consumed$/m);
  const d = await farkas('run', guarded, '--nondet', '7');
  t.is(d.code, 0, d.stderr);
  t.regex(d.stdout, /main returned 3$/m);
  t.regex(d.stdout, /3 nondet values consumed \(2 defaulted to 0 after the given ones ran out\)/);
});

test('blocked runs, step limits and out-of-range values exit 2', async (t) => {
  const blocked = await farkas('run', guarded, '--nondet', '0');
  t.is(blocked.code, 2);
  t.regex(blocked.stdout, new RegExp(`^${guarded.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4: run blocked`));
  const limit = await farkas('run', guarded, '--nondet', '5,1', '--nondet-default', '1', '--max-steps', '100');
  t.is(limit.code, 2);
  t.regex(limit.stdout, /step limit reached: 100 steps/);
  const range = await farkas('run', guarded, '--nondet', '5,200');
  t.is(range.code, 2);
  t.regex(range.stdout, /:3: nondet value 200 is outside its type's range \[-128, 127\]/);
  const exhausted = await farkas('run', guarded, '--nondet', '5', '--nondet-default', 'none');
  t.is(exhausted.code, 2);
  t.regex(exhausted.stdout, /:3: ran out of nondet values/);
});

test('--json prints one object with integers as strings', async (t) => {
  const r = await farkas('run', counter, '--input', 'n=60000', '--json', '--max-steps', '2000000');
  t.is(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  t.is(json.function, 'main');
  t.deepEqual(json.outcome, { kind: 'exit', returnValue: String((60000n * 59999n) / 2n) });
  t.deepEqual(json.inputs, { n: '60000' });
  t.is(json.trace, undefined);
  const traced = JSON.parse((await farkas('run', counter, '--input', 'n=1', '--json', '--trace')).stdout);
  // The trace also shows the premise checks of signed overflow, which are not counted as steps.
  const statements = (traced.trace as { text: string }[]).filter((s) => !s.text.startsWith('no_overflow('));
  t.true(Array.isArray(traced.trace) && statements.length === traced.steps && traced.trace.length > traced.steps);
  t.like(traced.trace[0], { kind: 'edge', procedure: 'main', text: 'i = 0', values: { i: '0' } });
});

test('--trace prints every step', async (t) => {
  const r = await farkas('run', counter, '--input', 'n=1', '--trace');
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /#1 .*counter\.c:2 +main: i = 0 +\[i=0\]/);
  t.regex(r.stdout, /assume\(n >= i \+ 1\)/);
});

test('input errors exit 3 with a message and no stack trace', async (t) => {
  const cases: Array<[string[], RegExp]> = [
    [['run', counter, '--input', 'm=1'], /counter\.c:1:\d+: error: 'main' has no parameter 'm' \(parameters: n\)/],
    [['run', counter, '--function', 'nope'], /error: unknown function 'nope' \(defined: main\)/],
    [['run', counter, '--input', 'n=ten'], /error: expected name=integer, got 'n=ten'/],
    [['run', counter, '--nondet', '1,x'], /error: expected a comma-separated list of integers/],
    [['run', counter, '--max-steps', '-5'], /error: --max-steps expects a positive integer/],
    [['run', join(dir, 'missing.c')], /error: cannot read .*missing\.c \(ENOENT\)/],
    [['run', source('bad.c', 'int main() { return 1 +; }\n')], /bad\.c:1:\d+: error: /],
  ];
  const results = await Promise.all(cases.map(([args]) => farkas(...args)));
  results.forEach((r, i) => {
    t.is(r.code, 3, `${cases[i]![0].join(' ')}: ${r.stderr}`);
    t.regex(r.stderr, cases[i]![1]);
    t.notRegex(r.stderr, /\n\s+at /);
  });
});

test('--help documents the options and exit codes', async (t) => {
  const r = await farkas('run', '--help');
  t.is(r.code, 0);
  for (const option of ['--function', '--input', '--nondet', '--nondet-default', '--max-steps', '--trace', '--json']) t.true(r.stdout.includes(option), option);
  t.regex(r.stdout, /1 +an assertion failed/);
});
