// `farkas verify --witness`: the witness file from the CLI, end to end.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { farkas } from '../testing/farkas-bin.js';

const dir = mkdtempSync(join(tmpdir(), 'farkas-witness-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const PV1 = 'void PV1(int y) {\n  int x = -50;\n  while (x < 0) { x = x + y; y++; }\n  assert(y > 0);\n}\n';
const UNSAFE = 'int main() {\n  int n = __VERIFIER_nondet_int();\n  int i = 0;\n  while (i < n) { i++; }\n  assert(i != 2);\n  return 0;\n}\n';

test('safe: --witness writes a correctness witness with the loop invariant', async (t) => {
  const out = join(dir, 'pv1.yml');
  const r = await farkas(['verify', file('pv1.c', PV1), '--witness', out]);
  t.is(r.code, 0, r.stderr);
  const doc = parseYaml(readFileSync(out, 'utf8'));
  t.is(doc[0].entry_type, 'invariant_set');
  t.like(doc[0].content[0].invariant, { type: 'loop_invariant', location: { file_name: 'pv1.c', line: 3, column: 3, function: 'PV1' }, format: 'c_expression' });
});

test('unsafe: --witness writes a violation witness that fixes the nondet value', async (t) => {
  const out = join(dir, 'unsafe.yml');
  const r = await farkas(['verify', file('unsafe.c', UNSAFE), '--witness', out, '--json']);
  t.is(r.code, 1, r.stderr);
  const n = JSON.parse(r.stdout).counterexample.nondet[0];
  const doc = parseYaml(readFileSync(out, 'utf8'));
  t.is(doc[0].entry_type, 'violation_sequence');
  const waypoints = doc[0].content.map((s: { segment: Array<{ waypoint: unknown }> }) => s.segment[0]!.waypoint);
  t.like(waypoints[0], { type: 'assumption', location: { line: 3, column: 3 }, constraint: { value: `n == ${n}` } });
  t.like(waypoints[waypoints.length - 1], { type: 'target', location: { line: 5, column: 3 } });
});

test('an unwritable witness path is an input error', async (t) => {
  const r = await farkas(['verify', file('pv1b.c', PV1), '--witness', join(dir, 'missing', 'w.yml')]);
  t.is(r.code, 3);
  t.regex(r.stderr, /cannot write .*w\.yml/);
});

test('--emit chc prints Horn clauses without solving; --emit with a bad --step is an input error', async (t) => {
  const r = await farkas(['verify', file('pv1c.c', PV1), '--emit', 'chc']);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^; farkas: Horn clauses .*\n\(set-logic HORN\)\n\(declare-fun inv_\d+ \(Int Int\) Bool\)/);
  t.notRegex(r.stdout, /safe|invariants/);
  const smt = await farkas(['verify', file('pv1d.c', PV1), '--emit', 'smt', '--step', '2']);
  t.is(smt.code, 0, smt.stderr);
  t.regex(smt.stdout, /schedule paper step 2/);
  const bad = await farkas(['verify', file('pv1e.c', PV1), '--emit', 'dimacs', '--step', 'zero']);
  t.is(bad.code, 3);
  t.regex(bad.stderr, /--step expects a positive integer/);
});
