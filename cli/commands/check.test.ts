// `farkas check --engine E` end to end: the verify JSON contract plus engine statistics, exit codes.
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { farkas } from '../testing/farkas-bin.js';

const dir = mkdtempSync(join(tmpdir(), 'farkas-check-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const SAFE = 'int main() { int x = 0; int y = 0; while (x < 10) { x = x + 1; y = y + 2; } assert(y == 2 * x); return 0; }\n';
const UNSAFE = 'int main() { int n = __VERIFIER_nondet_int(); int i = 0; while (i < n) { i++; } assert(i != 2); return 0; }\n';

/** `check --engine ENGINE --json` on SAFE: exit 0, certified invariants, the engine named; its JSON. */
async function provedByCheck(t: ExecutionContext, engine: string): Promise<{ engineStats: Record<string, unknown>; cutset: string; stats: unknown[] }> {
  const file = join(dir, `safe-${engine}.c`);
  writeFileSync(file, SAFE);
  const r = await farkas(['check', file, '--engine', engine, '--json']);
  t.is(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout);
  t.is(json.verdict, 'safe');
  t.true(json.certified);
  t.true(json.invariants.length > 0);
  t.is(json.engine, engine);
  return json;
}

test('check --engine symbolic --json: safe with certified invariants and engine statistics (exit 0)', async (t) => {
  const json = await provedByCheck(t, 'symbolic');
  for (const k of ['nodes', 'refinements', 'restarts']) t.is(typeof json.engineStats[k], 'number');
});

test('check --engine lazy-abstraction: unsafe with a replayed counterexample (exit 1)', async (t) => {
  const file = join(dir, 'unsafe.c');
  writeFileSync(file, UNSAFE);
  const r = await farkas(['check', file, '--engine', 'lazy-abstraction', '--json']);
  t.is(r.code, 1, r.stderr);
  const json = JSON.parse(r.stdout);
  t.is(json.verdict, 'unsafe');
  t.true(json.counterexample.replayed);
});

test('check --engine constraints --json: the constraint engine through the same command, its schedule steps as engine statistics', async (t) => {
  const json = await provedByCheck(t, 'constraints');
  // verify's contract: the cut-set and the schedule's steps, which the statistics sum up.
  t.is(json.cutset, 'paths');
  t.is(json.engineStats.steps, json.stats.length);
  for (const k of ['clauses', 'conflicts', 'propagations']) t.is(typeof json.engineStats[k], 'number');
  const unsafe = join(dir, 'constraints-unsafe.c');
  writeFileSync(unsafe, UNSAFE);
  const refuted = await farkas(['check', unsafe, '--engine', 'constraints']);
  t.is(refuted.code, 1, refuted.stderr);
  t.regex(refuted.stdout, /unsafe/);
  t.regex(refuted.stdout, /^engine: constraints: \d+ schedule steps?, \d+ clauses/m);
});

test('check: an unknown engine is an input error (exit 3)', async (t) => {
  const file = join(dir, 'safe2.c');
  writeFileSync(file, SAFE);
  const r = await farkas(['check', file, '--engine', 'magic']);
  t.is(r.code, 3);
  t.regex(r.stderr, /magic/);
});

test('verify --cross-check --json: every engine in the table, agreement, exit code of the agreed verdict', async (t) => {
  const file = join(dir, 'cross-unsafe.c');
  writeFileSync(file, UNSAFE);
  const r = await farkas(['verify', file, '--cross-check', '--json', '--timeout', '20']);
  t.is(r.code, 1, r.stderr);
  const json = JSON.parse(r.stdout).crossCheck;
  t.deepEqual(json.engines.map((e: { engine: string }) => e.engine), ['constraints', 'lazy-abstraction', 'symbolic', 'lazy-annotation']);
  // Every row's result is the check output of its engine, the constraint engine's included.
  t.deepEqual(json.engines.map((e: { result: { engine: string } }) => e.result.engine), ['constraints', 'lazy-abstraction', 'symbolic', 'lazy-annotation']);
  t.true(json.agreement);
  t.is(json.consensus, 'unsafe');
  for (const e of json.engines) if (e.verdict === 'unsafe') t.is(e.certificate, 'replayed');
});
