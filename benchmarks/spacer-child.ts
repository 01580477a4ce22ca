#!/usr/bin/env node
// One Spacer run for the harness's baseline, in its own process: z3 cannot be stopped from inside
// (past its own timeout a stuck check would hang the caller), so the harness runs this script with a
// hard deadline and kills it if needed. Prints one JSON line: {"status": "sat"|"unsat"|"unknown",
// "reason"?, "millis"} — millis of the Horn solve alone; "rejected" when farkas cannot export the task.
//   node dist/benchmarks/spacer-child.js FILE --timeout S [--function F]   (FILE: a C program or Horn clauses, .smt2)
import { readFileSync } from 'node:fs';
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
const outcome = await solveHorn(chc!, { timeoutMs: timeoutSeconds * 1000 });
print(outcome, 0);
