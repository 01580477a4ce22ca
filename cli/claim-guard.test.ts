// The claim guard end to end (issue 19): with a transformation broken on purpose (lib/ir/faults.ts;
// the command line of cli/testing/farkas-with-fault.ts marks every program it loads), every command that would print a wrongly certified claim
// exits 4 with "internal error: a certified <kind> was contradicted by a run of the program: <input>",
// and prints no verdict; without the fault the same commands answer.
import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { farkas as runFarkas, type CliRun } from './testing/farkas-bin.js';

const dir = mkdtempSync(join(tmpdir(), 'farkas-guard-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

const WITH_FAULT = fileURLToPath(new URL('./testing/farkas-with-fault.js', import.meta.url));

/** The farkas bin, or with `fault` the command line that marks every program it loads with it. */
function farkas(fault: string | null, ...args: string[]): Promise<CliRun> {
  if (!fault) return runFarkas(args);
  return new Promise((done) => {
    execFile(process.execPath, [WITH_FAULT, fault, ...args], { encoding: 'utf8', timeout: 240_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

const rare = file('rare.c', 'void f(int x) {\n  int y = x + 1;\n  assert(y != 6);\n}\n');
const five = file('five.c', 'void f(int n) {\n  int x = 5;\n  if (n > 0) x = x + 1;\n}\n');
const nest = file('nest.c', 'void f(int n, int m) {\n  int i = 0;\n  while (i < n) {\n    while (m > 0) { m--; }\n    i++;\n  }\n}\n');

// `healthy`: also run without the fault (the cheap cases; bounds' own tests show it answering).
const cases: { name: string; fault: string; args: string[]; kind: string; healthy?: true }[] = [
  { name: 'verify (one job)', fault: 'assertions-dropped', args: ['verify', rare, '--jobs', '1'], kind: 'safety proof', healthy: true },
  { name: 'verify (portfolio)', fault: 'assertions-dropped', args: ['verify', rare, '--jobs', '2'], kind: 'safety proof' },
  { name: 'wp', fault: 'assertions-dropped', args: ['wp', rare], kind: 'precondition', healthy: true },
  { name: 'sp', fault: 'constant-shifted', args: ['sp', five], kind: 'postcondition', healthy: true },
  { name: 'bounds', fault: 'outer-increment-dropped', args: ['bounds', nest], kind: 'loop bound' },
];

for (const c of cases) {
  test(`${c.name}: a claim certified for a wrongly built program exits 4 with the run that breaks it`, async (t) => {
    const broken = await farkas(c.fault, ...c.args);
    t.is(broken.code, 4, broken.stderr);
    t.regex(broken.stderr, new RegExp(`^farkas: internal error: (.*: )?a certified ${c.kind} was contradicted by a run of the program: \\S+=`, 'm'));
    t.notRegex(broken.stdout, /\b(safe|unsafe|precondition|postcondition|at most)\b/);
    if (!c.healthy) return;
    // Without the fault: an answer (or unknown), never an internal error.
    const healthy = await farkas(null, ...c.args);
    t.true(healthy.code !== null && healthy.code <= 2, healthy.stderr);
    t.notRegex(healthy.stderr, /internal error/);
  });
}
