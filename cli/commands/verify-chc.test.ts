// `farkas verify FILE.smt2`: Horn clauses end to end through the command users run.
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { farkas } from '../testing/farkas-bin.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const COUNTER = join(ROOT, 'benchmarks', 'chc', 'counter.smt2');
const COUNTER_BUG = join(ROOT, 'benchmarks', 'chc', 'counter-bug.smt2');
const SUM_CALLS = join(ROOT, 'benchmarks', 'chc', 'sum-calls.smt2');
const FIB_BUG = join(ROOT, 'benchmarks', 'chc', 'fib-bug.smt2');

test('sat: the first line alone, then a model; exit 0', async (t) => {
  const r = await farkas(['verify', COUNTER, '--timeout', '120']);
  t.is(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  t.is(lines[0], 'sat');
  t.is(lines[1], '(define-fun inv ((x Int) (y Int)) Bool');
});

test('unsat: a derivation of false; -q prints the first line only; exit 1', async (t) => {
  const r = await farkas(['verify', COUNTER_BUG, '--timeout', '120']);
  t.is(r.code, 1, r.stderr);
  t.is(r.stdout.split('\n')[0], 'unsat');
  t.regex(r.stdout, /; 1\. clause 1 \(line 4\): \(inv 0 0\)\n/);
  t.regex(r.stdout, /-> false\n$/);
  const quiet = await farkas(['verify', COUNTER_BUG, '--timeout', '120', '-q']);
  t.is(quiet.stdout, 'unsat\n');
});

test('--json: the verify object with chc, model and a verdict of safe', async (t) => {
  const r = await farkas(['verify', COUNTER, '--timeout', '120', '--json']);
  const json = JSON.parse(r.stdout) as Record<string, unknown>;
  t.is(json.verdict, 'safe');
  t.is(json.chc, 'sat');
  t.is(json.certified, true);
  t.regex(json.model as string, /^\(define-fun inv /);
  const bug = JSON.parse((await farkas(['verify', COUNTER_BUG, '--timeout', '120', '--json'])).stdout) as Record<string, unknown>;
  t.is(bug.verdict, 'unsafe');
  t.is(bug.chc, 'unsat');
  t.deepEqual((bug.derivation as { clause: number; values: Record<string, string> }[])[0], { clause: 1, values: { x: '0', y: '0' } });
});

test('recognised by (set-logic HORN) whatever the extension; C-only options are input errors', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'farkas-chc-'));
  const file = join(dir, 'clauses.txt');
  writeFileSync(file, readFileSync(COUNTER, 'utf8'));
  t.is((await farkas(['verify', file, '--timeout', '120', '-q'])).stdout, 'sat\n');
  const witness = await farkas(['verify', COUNTER, '--witness', join(dir, 'w.yml')]);
  t.is(witness.code, 3);
  t.regex(witness.stderr, /--witness: not available for Horn clauses/);
  const real = join(dir, 'real.smt2');
  writeFileSync(real, '(set-logic HORN)\n(declare-fun p (Real) Bool)\n');
  const bad = await farkas(['verify', real]);
  t.is(bad.code, 3);
  t.regex(bad.stderr, /real\.smt2:2:17: unsupported: sort Real/);
});

test('C programs exported as Horn clauses get the verdict of their C front end', async (t) => {
  const cases: [string, string][] = [['paper/fig1.c', 'sat'], ['literature/count-up.c', 'sat'], ['literature/broken-sum.c', 'unsat'], ['literature/off-by-one.c', 'unsat']];
  const dir = mkdtempSync(join(tmpdir(), 'farkas-chc-'));
  for (const [program, expected] of cases) {
    const file = join(ROOT, 'benchmarks', program);
    const c = await farkas(['verify', file, '--timeout', '120', '-q']);
    t.regex(c.stdout, expected === 'sat' ? /: safe/ : /: unsafe/, program);
    const exported = await farkas(['verify', file, '--emit', 'chc']);
    const smt2 = join(dir, program.replace('/', '-') + '.smt2');
    writeFileSync(smt2, exported.stdout);
    const chc = await farkas(['verify', smt2, '--timeout', '120', '-q']);
    t.is(chc.stdout, `${expected}\n`, program);
  }
});

test('nonlinear clauses end to end: sat with a model, unsat with a derivation tree, --json; other commands refuse them', async (t) => {
  const sat = await farkas(['verify', SUM_CALLS, '--timeout', '120']);
  t.is(sat.code, 0, sat.stderr);
  t.is(sat.stdout.split('\n')[0], 'sat');
  t.regex(sat.stdout, /\(define-fun sum \(\(n Int\) \(r Int\)\) Bool\n/);
  const unsat = await farkas(['verify', FIB_BUG, '--timeout', '120']);
  t.is(unsat.code, 1, unsat.stderr);
  t.is(unsat.stdout.split('\n')[0], 'unsat');
  t.regex(unsat.stdout, /: \(fib 5 5\) \(fib 4 3\) -> \(fib 6 8\)\n/);
  t.regex(unsat.stdout, /: \(fib 6 8\) -> false\n$/);
  const json = JSON.parse((await farkas(['verify', FIB_BUG, '--timeout', '120', '--json'])).stdout) as Record<string, unknown>;
  t.is(json.verdict, 'unsafe');
  t.is(json.chc, 'unsat');
  t.is((json.derivation as unknown[]).length > 6, true);
  const run = await farkas(['run', FIB_BUG]);
  t.is(run.code, 3);
  t.regex(run.stderr, /fib-bug\.smt2:7:1: unsupported: a clause with 2 predicate applications in its body: nonlinear clauses are solved by 'farkas verify' only/);
  const emit = await farkas(['verify', FIB_BUG, '--emit', 'chc']);
  t.is(emit.code, 3);
  t.regex(emit.stderr, /--emit: not available for nonlinear Horn clauses/);
});
