import test from 'ava';
import type { CliOutcome } from './cli-process.js';
import { interpretOutcome, judge, parseVerifyReport, toRecord } from './classify.js';

function outcome(exitCode: number | null, stdout: object | string = '', extra: Partial<CliOutcome> = {}): CliOutcome {
  return {
    exitCode,
    signal: null,
    killed: false,
    stdout: typeof stdout === 'string' ? stdout : JSON.stringify(stdout),
    stderr: '',
    wallMillis: 100,
    ...extra,
  };
}

const step = (template: string, variables: number, clauses: number, satMs: number, result: string) => ({
  template,
  widths: { coefficient: 3, constant: 6, multiplier: 2 },
  unknowns: 10,
  constraints: 4,
  variables,
  clauses,
  encodeMs: 1,
  satMs,
  backend: 'minisat',
  result,
});

test('definite verdicts follow the JSON when it agrees with the exit code', (t) => {
  t.is(interpretOutcome(outcome(0, { verdict: 'safe', certified: true, stats: [] }), 60).status, 'safe');
  t.is(interpretOutcome(outcome(1, { verdict: 'unsafe', certified: false, stats: [] }), 60).status, 'unsafe');
  const unknown = interpretOutcome(outcome(2, { verdict: 'unknown', reason: 'template exhausted', certified: false, stats: [] }), 60);
  t.deepEqual([unknown.status, unknown.reason], ['unknown', 'template exhausted']);
});

test('contradictions and uncertified proofs are errors, not verdicts', (t) => {
  t.is(interpretOutcome(outcome(0, { verdict: 'unsafe', stats: [] }), 60).status, 'error');
  t.is(interpretOutcome(outcome(2, { verdict: 'safe', certified: true, stats: [] }), 60).status, 'error');
  const uncertified = interpretOutcome(outcome(0, { verdict: 'safe', certified: false, stats: [] }), 60);
  t.is(uncertified.status, 'error');
  t.regex(uncertified.reason!, /without a certificate/);
  t.regex(interpretOutcome(outcome(0, 'Segmentation fault'), 60).reason!, /not JSON: Segmentation fault/);
  t.regex(interpretOutcome(outcome(0, ''), 60).reason!, /no JSON output/);
  t.regex(interpretOutcome(outcome(0, { verdict: 'maybe' }), 60).reason!, /no valid verdict/);
});

test('exit 3 on the program is a rejection with its first line, exit 3 on the invocation an error; exit 4, signals and odd codes are errors', (t) => {
  const rejected = interpretOutcome(outcome(3, '', { stderr: '\nf.c:3:5: unsupported: pointer dereference\n  int *p;\n' }), 60);
  t.deepEqual([rejected.status, rejected.reason], ['rejected', 'f.c:3:5: unsupported: pointer dereference']);
  t.is(interpretOutcome(outcome(3, '', { stderr: 'unsupported: recursion in verify\n' }), 60).status, 'rejected');
  const misuse = interpretOutcome(outcome(3, '', { stderr: "error: unknown command 'verify'\n" }), 60);
  t.deepEqual([misuse.status, misuse.reason], ['error', "farkas refused the invocation: error: unknown command 'verify'"]);
  t.is(interpretOutcome(outcome(3), 60).status, 'error');
  const internal = interpretOutcome(outcome(4, '', { stderr: 'farkas: internal error: boom\n' }), 60);
  t.deepEqual([internal.status, internal.reason], ['error', 'farkas: internal error: boom']);
  t.is(interpretOutcome(outcome(null, '', { signal: 'SIGSEGV' }), 60).reason, 'CLI terminated by SIGSEGV');
  t.is(interpretOutcome(outcome(7), 60).status, 'error');
  t.is(interpretOutcome(outcome(-2, '', { spawnError: 'spawn x ENOENT' }), 60).status, 'error');
  const killed = interpretOutcome(outcome(null, '', { signal: 'SIGKILL', killed: true }), 5);
  t.is(killed.status, 'timeout');
  t.regex(killed.reason!, /5 s timeout/);
});

test('judge: only a definite answer contradicting the truth is wrong', (t) => {
  t.is(judge('safe', 'safe'), 'correct');
  t.is(judge('unsafe', 'unsafe'), 'correct');
  t.is(judge('safe', 'unsafe'), 'wrong');
  t.is(judge('unsafe', 'safe'), 'wrong');
  for (const s of ['unknown', 'timeout', 'rejected'] as const) {
    t.is(judge('safe', s), 'inconclusive');
    t.is(judge('unsafe', s), 'inconclusive');
  }
  t.is(judge('safe', 'error'), 'error');
});

test('toRecord reports the deciding step and the SAT time of all steps', (t) => {
  const json = { verdict: 'safe', certified: true, millis: 420, stats: [step('conj1', 50, 300, 12, 'unsat'), step('conj2', 80, 900, 30, 'sat')] };
  const r = toRecord({ id: 'paper/fig1', file: '/b/fig1.c', expected: 'safe' }, 'paths', outcome(0, json, { wallMillis: 777 }), 60);
  t.like(r, { task: 'paper/fig1', status: 'safe', correctness: 'correct', template: 'conj2', variables: 80, clauses: 900, satMillis: 42, steps: 2, engineMillis: 420, wallMillis: 777, exitCode: 0 });
  const wrong = toRecord({ id: 'x', file: 'x.c', expected: 'unsafe' }, 'headers', outcome(0, json), 60);
  t.is(wrong.correctness, 'wrong');
  const rejected = toRecord({ id: 'y', file: 'y.c', expected: 'safe' }, 'paths', outcome(3, '', { stderr: 'y.c:1:1: unsupported: goto' }), 60);
  t.like(rejected, { status: 'rejected', correctness: 'inconclusive', steps: 0 });
  t.is(rejected.clauses, undefined);
  t.is(r.q, undefined);
  // Recursive programs: q is the deciding step's summary pairs per procedure.
  const recursive = { ...json, stats: [{ ...step('1x2q2+pairs', 80, 900, 30, 'sat'), summaries: 2 }] };
  t.is(toRecord({ id: 'm91', file: 'm.c', expected: 'safe' }, 'paths', outcome(0, recursive), 60).q, 2);
  // Proved by the observed bounds after a failed first step: the template column says so.
  const observed = { ...json, stats: [{ ...step('1x2+eq', 50, 300, 12, 'unsat'), solverMs: 10 }], houdini: { proved: true, candidates: 18, kept: 18, rounds: 2, millis: 900 } };
  const houdiniRecord = toRecord({ id: 'fig2', file: 'f.c', expected: 'safe' }, 'paths', outcome(0, observed), 60);
  t.is(houdiniRecord.template, 'houdini');
  t.is(houdiniRecord.solverMillis, 10 + 900, 'solve time: the SAT step and the checker rounds');
  const notProved = { ...observed, houdini: { ...observed.houdini, proved: false } };
  t.is(toRecord({ id: 'fig2', file: 'f.c', expected: 'safe' }, 'paths', outcome(0, notProved), 60).template, '1x2+eq');
});

test('parseVerifyReport keeps unknown fields verbatim', (t) => {
  const r = parseVerifyReport(JSON.stringify({ verdict: 'unknown', invariants: [{ line: 3 }], stats: [] }));
  t.true(typeof r === 'object' && Array.isArray(r.invariants));
  t.is(parseVerifyReport('{"verdict":"safe","stats":3}'), 'JSON output: stats is not an array');
});
