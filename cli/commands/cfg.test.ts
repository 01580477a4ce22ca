// `farkas cfg` end to end: spawns the built CLI on small temporary files.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { farkasSync as farkas } from '../testing/farkas-bin.js';

const dir = mkdtempSync(join(tmpdir(), 'farkas-cfg-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const PV1 = 'void PV1(int y) { int x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); }\nint main() { PV1(3); return 0; }\n';

test('prints every procedure with locations and edges', (t) => {
  const f = file('pv1.c', PV1);
  const r = farkas(['cfg', f]);
  t.is(r.code, 0, r.stderr);
  t.true(r.stdout.startsWith(`program ${f}  (entry: main)`));
  t.true(r.stdout.includes('procedure PV1(y) void  [line 1]'));
  t.true(r.stdout.includes('  L1 [loop header] at line 1:32'));
  t.true(r.stdout.includes('    L0 -> L1  [line 1]  x := -50'));
  t.true(r.stdout.includes('procedure main() returns __ret  [line 2]'));
  t.true(r.stdout.includes('PV1(3)'));
});

test('--function selects one procedure; --dot prints Graphviz', (t) => {
  const f = file('pv1b.c', PV1);
  const one = farkas(['cfg', f, '--function', 'PV1']);
  t.is(one.code, 0, one.stderr);
  t.true(one.stdout.startsWith('procedure PV1(y)'));
  t.false(one.stdout.includes('procedure main'));
  const dot = farkas(['cfg', f, '--dot']);
  t.is(dot.code, 0, dot.stderr);
  t.true(dot.stdout.startsWith('digraph'));
  t.is(dot.stdout.match(/subgraph cluster_/g)?.length, 2);
});

test('an unknown function is an input error (exit 3)', (t) => {
  const f = file('pv1c.c', PV1);
  const r = farkas(['cfg', f, '--function', 'nope']);
  t.is(r.code, 3);
  t.true(r.stderr.includes("no function 'nope'"));
  t.is(r.stdout, '');
});

test('a syntax error exits 3 with a positioned message and no stack trace', (t) => {
  const f = file('bad.c', 'int main() {\n  int x = 1\n  return x;\n}\n');
  const r = farkas(['cfg', f]);
  t.is(r.code, 3);
  t.is(r.stderr.trim(), `${f}:3:3: error: expected ';' after declaration, found 'return'`);
  t.false(r.stderr.includes('    at '));
});

test('an unsupported construct exits 3 with its position', (t) => {
  const f = file('uns.c', 'int main() {\n  int *p;\n  return 0;\n}\n');
  const r = farkas(['cfg', f]);
  t.is(r.code, 3);
  t.is(r.stderr.trim(), `${f}:2:8: unsupported: pointer type 'int *'`);
});

test('a missing file exits 3', (t) => {
  const r = farkas(['cfg', join(dir, 'absent.c')]);
  t.is(r.code, 3);
  t.true(r.stderr.includes('cannot read'));
});

test('--help describes the command', (t) => {
  const r = farkas(['cfg', '--help']);
  t.is(r.code, 0);
  t.true(r.stdout.includes('--function <name>'));
  t.true(r.stdout.includes('--dot'));
});
