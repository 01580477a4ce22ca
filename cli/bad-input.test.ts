// Bad, big and odd input (issue 20): every case gets an answer or a clear input error (exit 0–3),
// never an internal error or a stack trace. Input errors are positioned where there is a position.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { farkas as runFarkas } from './testing/farkas-bin.js';

const dir = mkdtempSync(join(tmpdir(), 'farkas-bad-input-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const farkas = (...args: string[]) => runFarkas(args);

const small = file('small.c', 'void f(int x) {\n  assert(x == x);\n}\n');
const straight = (lines: number) => `void f(int x) {\n${'  x = x + 1;\n'.repeat(lines)}  assert(x != 3);\n}\n`;
// Bytes that are no C: a fixed pseudo-random sequence (the same on every run).
const garbage = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 193 + 71) % 256));

const inputErrors: { name: string; args: () => string[]; stderr: RegExp }[] = [
  { name: 'empty file', args: () => ['verify', file('empty.c', '')], stderr: /empty\.c:1:1: error: no function definition/ },
  { name: 'binary garbage', args: () => ['verify', file('garbage.c', garbage)], stderr: /garbage\.c:\d+:\d+: error: / },
  { name: 'a directory', args: () => ['verify', dir], stderr: /^error: cannot read .* \(EISDIR\)/m },
  { name: 'a missing file', args: () => ['verify', join(dir, 'missing.c')], stderr: /^error: cannot read .*missing\.c \(ENOENT\)/m },
  { name: 'an unsupported construct', args: () => ['verify', file('ptr.c', 'void f(int *p) { *p = 1; }\n')], stderr: /ptr\.c:1:\d+: unsupported: pointer type/ },
  { name: '3,000 nested parentheses', args: () => ['verify', file('paren.c', `void f(int x) { int y = ${'('.repeat(3000)}x${')'.repeat(3000)}; assert(y == x); }\n`)], stderr: /paren\.c:1:\d+: error: nested too deeply/ },
  { name: '3,000 nested blocks', args: () => ['verify', file('blocks.c', `void f(int x) { ${'{'.repeat(3000)}x = 1;${'}'.repeat(3000)} }\n`)], stderr: /blocks\.c:1:\d+: error: nested too deeply/ },
  { name: '--timeout abc', args: () => ['verify', small, '--timeout', 'abc'], stderr: /--timeout expects a number of seconds/ },
  { name: '--jobs 0', args: () => ['verify', small, '--jobs', '0'], stderr: /--jobs expects a positive integer/ },
  { name: '--step-propagations 0', args: () => ['verify', small, '--step-propagations', '0'], stderr: /--step-propagations must be a positive whole number/ },
  { name: '--query-propagations 1e6', args: () => ['wp', small, '--query-propagations', '1e6'], stderr: /--query-propagations expects a whole number, got '1e6'/ },
  { name: '--cutset bogus', args: () => ['bounds', small, '--cutset', 'bogus'], stderr: /Allowed choices are paths, headers/ },
  { name: '--template nosuch', args: () => ['verify', small, '--template', 'nosuch'], stderr: /unknown template schedule 'nosuch'/ },
  { name: '--emit-dimacs into a missing directory', args: () => ['verify', small, '--emit-dimacs', join(dir, 'no', 'x.cnf')], stderr: /--emit-dimacs: cannot write .*x\.cnf \(no such directory\)/ },
  { name: '--witness onto a directory', args: () => ['verify', small, '--witness', dir], stderr: /--witness: cannot write .* \(it is a directory\)/ },
  { name: 'ui --export-dir missing', args: () => ['ui', small, '--export-dir', join(dir, 'none')], stderr: /--export-dir: cannot write into .* \(no such directory\)/ },
];

for (const c of inputErrors) {
  test.serial(`input error, exit 3, before any analysis: ${c.name}`, async (t) => {
    const r = await farkas(...c.args());
    t.is(r.code, 3, r.stderr);
    t.regex(r.stderr, c.stderr);
    t.notRegex(r.stderr, /farkas: internal error|\n\s+at .*:\d+:\d+\)?\n/);
    t.is(r.stdout, '');
  });
}

const answered: { name: string; args: () => string[] }[] = [
  { name: 'CRLF line ends', args: () => ['verify', file('crlf.c', 'void f(int x) {\r\n  assert(x == x);\r\n}\r\n'), '--jobs', '1'] },
  { name: '5,000 straight-line statements (the cut-set unfolding once recursed as deep)', args: () => ['verify', file('long5k.c', straight(5000)), '--jobs', '1', '--timeout', '60'] },
  { name: '50,000 straight-line statements, loop-header cut-set', args: () => ['verify', file('long50k.c', straight(50_000)), '--jobs', '1', '--cutset', 'headers', '--timeout', '60'] },
  { name: '5,000 straight-line statements, symbolic execution (recursing along paths)', args: () => ['check', file('long5k-sym.c', straight(5000)), '-e', 'symbolic', '--timeout', '60'] },
  { name: '--jobs 1000 (capped at the cores, with a note)', args: () => ['verify', small, '--jobs', '1000', '--timeout', '60'] },
];

for (const c of answered) {
  test.serial(`an answer or unknown (exit 0–2), never a crash: ${c.name}`, async (t) => {
    const r = await farkas(...c.args());
    t.true(r.code !== null && r.code <= 2, `exit ${r.code}: ${r.stderr}`);
    t.notRegex(r.stderr, /internal error|Maximum call stack/);
    t.regex(r.stdout, /function f: (safe|unsafe|unknown)/);
    if (c.name.startsWith('--jobs 1000')) t.regex(r.stderr, /note: --jobs 1000 capped at \d+, the number of cores/);
  });
}
