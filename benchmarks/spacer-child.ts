#!/usr/bin/env node
// One Spacer run for the harness's baseline, in its own process: z3 cannot be stopped from inside
// (past its own timeout a stuck check would hang the caller), so the harness runs this script with a
// hard deadline and kills it if needed. Prints one JSON line: {"status": "sat"|"unsat"|"unknown",
// "reason"?, "millis"} — millis of the Horn solve alone; "rejected" when farkas cannot export the task.
//   node dist/benchmarks/spacer-child.js FILE --timeout S [--function F] [--native]   (FILE: a C program or Horn clauses, .smt2)
// --native: native z3 (`z3 -T:S`, on PATH) solves the exported text instead of z3-solver's WASM build;
// millis is then the z3 process's wall time.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseProgram } from '../lib/frontend/index.js';
import { exportProblem } from '../lib/export/index.js';
import { solveHorn } from '../lib/export/horn-solver.js';
import { InputError } from '../lib/diagnostics.js';

const [file, ...rest] = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = rest.indexOf(name);
  return i >= 0 ? rest[i + 1] : undefined;
};
const print = (o: object, code: number): never => {
  process.stdout.write(JSON.stringify(o) + '\n');
  // Ends z3's threads with the process; a check past its timeout is not waited for.
  process.exit(code);
};
if (file === undefined) print({ status: 'error', reason: 'usage: spacer-child FILE --timeout S [--function F]' }, 3);
const timeoutSeconds = Number(option('--timeout') ?? '60');
const fn = option('--function');
let chc: string;
try {
  // Horn clauses are solved as they are; a C program through its export.
  chc = /\.smt2$/i.test(file!) ? readFileSync(file!, 'utf8') : exportProblem(parseProgram(readFileSync(file!, 'utf8'), file!), 'chc', fn !== undefined ? { function: fn } : {});
} catch (e) {
  if (e instanceof InputError) print({ status: 'rejected', reason: e.message }, 3);
  throw e;
}
if (rest.includes('--native')) print(solveNatively(chc!), 0);
const outcome = await solveHorn(chc!, { timeLimitMs: timeoutSeconds * 1000 });
print(outcome, 0);

function solveNatively(text: string): { status: string; reason?: string; millis: number } {
  const dir = mkdtempSync(join(tmpdir(), 'farkas-spacer-'));
  try {
    const path = join(dir, 'task.smt2');
    writeFileSync(path, text);
    const started = Date.now();
    const run = spawnSync('z3', [`-T:${Math.ceil(timeoutSeconds)}`, path], { encoding: 'utf8', timeout: (timeoutSeconds + 5) * 1000 });
    const millis = Date.now() - started;
    if (run.error) return { status: 'error', reason: run.error.message, millis };
    const first = run.stdout.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
    if (first === 'sat' || first === 'unsat') return { status: first, millis };
    return { status: 'unknown', reason: first === 'timeout' ? 'timeout' : (first || run.stderr.trim()).slice(0, 200), millis };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
