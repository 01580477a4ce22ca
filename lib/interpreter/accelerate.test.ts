// Loops run in closed form must give the run that runs them: the same outcome, steps, values and
// nondet values; and on loops too long to run here, the values gcc computes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import { mulberry32 } from '../random.js';
import { runProgram } from './index.js';
import type { RunResult } from './types.js';

function described(r: RunResult): string {
  const o = r.outcome;
  const returned = o.kind === 'exit' ? `${o.returnValue}` : '';
  return JSON.stringify([o.kind, 'pos' in o ? o.pos?.line : null, returned, r.steps, r.nondetConsumed.map(String), [...r.globals].map(([k, v]) => `${k}=${v}`)]);
}

/** Loops whose iterations repeat: unsigned wrap-around, phases, nested loops, an assertion or an
 * overflow in the middle, tests with == and !=, globals, a break. */
const LOOPS = [
  'unsigned int g; void f(unsigned int x) { while (x < 100000u) { x += 3u; } g = x; }',
  'unsigned int g; void f(unsigned int x) { unsigned int y = 7u; while (x != 4000u) { x--; y += 5u; } g = y; }',
  'int g; void f(int x) { int y = 0; while (x < 30000) { if (x < 1000) x++; else { x += 2; y++; } } g = y; }',
  'int g; void f(int n) { int i = 0; int c = 0; while (i < n) { int j = 0; while (j < 10) { j++; c++; } i++; } g = c; }',
  'int g; void f(int x) { int y = 0; while (x > -50000) { x--; y++; assert(y != 20000); } g = y; }',
  'int g; void f(int x) { int y = 1; while (x < 40000) { x++; y += 100000; } g = y; }',
  'int g; void f(int x) { while (1) { x += 7; if (x == 70007) break; if (x > 80000) { g = 1; return; } } g = x; }',
  'unsigned int g; unsigned int h; void f(unsigned int x) { h = 0u; while (h < 3000000u) { h += 1000u; x += 1500000u; } g = x; }',
  'int g; void f(int x) { int s = 0; for (int i = 0; i < 50000; i++) { if (i % 2 == 0) s += x; } g = s; }',
];

test('a loop run in closed form is the run that runs it: outcome, steps, values and nondet values', (t) => {
  const next = mulberry32(2026);
  let compared = 0;
  for (const source of LOOPS) {
    const program = parseProgram(source, 'loop.c');
    for (let k = 0; k < 8; k++) {
      const x = BigInt(Math.floor(next() * 4000) - 2000);
      const options = { entry: 'f', inputs: new Map([['x', x], ['n', x]].filter(([p]) => program.procedures.get('f')!.params.includes(p as string)) as [string, bigint][]), nondetDefault: 0n, maxSteps: 2_000_000 };
      const plain = runProgram(program, options);
      const fast = runProgram(program, { ...options, accelerate: true });
      t.is(described(fast), described(plain), `${source} on ${x}`);
      compared++;
    }
  }
  t.is(compared, LOOPS.length * 8);
});

test('a loop run in closed form interprets few of its steps: within a work limit that stops the plain run', (t) => {
  const program = parseProgram(LOOPS[0]!, 'loop.c');
  const options = { entry: 'f', inputs: new Map([['x', 0n]]), maxSteps: 1_000_000, maxWork: 1000 };
  const plain = runProgram(program, options);
  t.is(plain.outcome.kind, 'step-limit');
  const fast = runProgram(program, { ...options, accelerate: true });
  t.is(fast.outcome.kind, 'exit');
  t.is(fast.globals.get('g'), 100002n);
  // 33,334 iterations of the test, the increment and its wrap-around check.
  t.true(fast.steps > 100_000, `${fast.steps} steps`);
  // Without a step limit the steps are counted the same.
  t.is(runProgram(program, { ...options, maxSteps: Infinity, accelerate: true }).steps, fast.steps);
  // A trace records every step: no loop is jumped over then.
  t.is(runProgram(program, { ...options, accelerate: true, recordTrace: true }).outcome.kind, 'step-limit');
});

test('loops of 2^28 iterations and more, in closed form, end with the values gcc computes', (t) => {
  // Phases, an inner loop inside a long outer one, unsigned wrap-around in the middle of a loop.
  const body = `unsigned int x; unsigned int y; unsigned int z; unsigned int w;
void f(void) {
  x = 0u; z = 7u; w = 0u;
  while (x < 0x0fffffffu) {
    if (x < 0xfff1u) { x++; } else { x += 2u; }
    z = z + 20u;
  }
  y = 0u;
  while (w < 0x0ffffffu) { y = 0u; while (y < 10u) { y++; } w++; z--; }
}
`;
  const program = parseProgram(body, 'long.c');
  const run = runProgram(program, { entry: 'f', maxSteps: 1e12, maxWork: 2_000_000, accelerate: true });
  t.is(run.outcome.kind, 'exit');
  const dir = mkdtempSync(join(tmpdir(), 'accelerate-'));
  try {
    const src = join(dir, 'long.c');
    const exe = join(dir, 'long');
    writeFileSync(src, `#include <stdio.h>\n${body}int main(void) { f(); printf("%u %u %u %u\\n", x, y, z, w); return 0; }\n`);
    execFileSync('gcc', ['-O1', '-w', '-o', exe, src]);
    const printed = execFileSync(exe).toString().trim().split(' ').map((v) => BigInt(v));
    t.deepEqual(['x', 'y', 'z', 'w'].map((v) => run.globals.get(v)), printed);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
