import test from 'ava';
import type { RunRecord } from './classify.js';
import { consoleRow, markdownReport, median, runFailed, totals } from './report.js';

function rec(task: string, expected: 'safe' | 'unsafe', status: RunRecord['status'], correctness: RunRecord['correctness'], wallMillis: number, extra: Partial<RunRecord> = {}): RunRecord {
  return { task, file: `${task}.c`, expected, cutset: 'paths', status, correctness, steps: 1, wallMillis, exitCode: 0, ...extra };
}

const records: RunRecord[] = [
  rec('a', 'safe', 'safe', 'correct', 1000, { template: 'conj2', variables: 10, clauses: 20, satMillis: 300, solverMillis: 120, engineMillis: 800 }),
  rec('a', 'safe', 'unknown', 'inconclusive', 3000, { cutset: 'headers', reason: 'template exhausted' }),
  rec('b', 'unsafe', 'unsafe', 'correct', 2000),
  rec('c', 'unsafe', 'safe', 'wrong', 500),
  rec('d', 'safe', 'rejected', 'inconclusive', 100, { reason: 'd.c:1:2: unsupported: a | b' }),
  rec('e', 'safe', 'timeout', 'inconclusive', 9000, { reason: 'killed' }),
  rec('f', 'safe', 'error', 'error', 200, { reason: 'internal error' }),
];

test('median of an odd and an even number of values', (t) => {
  t.is(median([]), 0);
  t.is(median([5, 1, 3]), 3);
  t.is(median([4, 1, 3, 10]), 4);
});

test('totals count proofs, bugs found, non-answers, wrong verdicts and errors', (t) => {
  const sum = totals(records);
  t.like(sum, { runs: 7, tasks: 6, expectedSafe: 5, proved: 1, expectedUnsafe: 2, unsafeFound: 1, unknown: 2, timeouts: 1, rejected: 1, wrong: 1, errors: 1, totalWallMillis: 15800, medianWallMillis: 1000 });
  t.true(runFailed(sum));
  t.false(runFailed(totals(records.filter((r) => r.correctness !== 'wrong' && r.correctness !== 'error'))));
});

test('console rows shout about wrong verdicts and errors', (t) => {
  t.regex(consoleRow(records[3]!), /!!! WRONG VERDICT: c \(paths\) is expected unsafe but farkas said safe/);
  t.regex(consoleRow(records[6]!), /!!! ERROR: f \(paths\): internal error/);
  t.regex(consoleRow(records[1]!), /unknown: template exhausted/);
  t.notRegex(consoleRow(records[0]!), /!!!/);
});

test('the Markdown report has one table row per run, escaped cells, reasons and totals', (t) => {
  const md = markdownReport(records, { title: 'T', description: ['Date: now'] });
  const rows = md.split('\n').filter((l) => l.startsWith('| '));
  t.is(rows.length, 1 + records.length);
  t.is(rows[0], '| task | expected | verdict | correct? | cut-set | template | q | vars | clauses | SAT s | solve s | engine s | total s |');
  t.is(rows[1], '| a | safe | safe | yes | paths | conj2 |  | 10 | 20 | 0.30 | 0.12 | 0.80 | 1.00 |');
  t.true(rows.some((r) => r.startsWith('| c | unsafe | safe | WRONG |')));
  t.regex(md, /- d \(paths, rejected\): d\.c:1:2: unsupported: a \\\| b/);
  t.regex(md, /- WRONG verdicts: 1/);
  t.regex(md, /- proved safe: 1 \/ 5 expected-safe \(20%\)/);
});
