// Two harness runs compared task by task: the verdict and each step's work must be equal.
import test from 'ava';
import type { RunRecord } from './classify.js';
import { compareRuns } from './compare-runs.js';

const record = (task: string, status: RunRecord['status'], conflicts: number, wallMillis: number): RunRecord => ({
  task, file: `${task}.c`, expected: 'safe', cutset: 'paths', status, correctness: 'correct', steps: 1, wallMillis, exitCode: 0,
  report: { verdict: status, stats: [{ template: '1x1', result: 'unsat', conflicts, propagations: conflicts * 10 }] } as unknown as RunRecord['report'],
});

test('runs that differ only in time are the same; a different verdict, step work or a missing task is reported', (t) => {
  const a = [record('x', 'safe', 5, 1000), record('y', 'unknown', 7, 2000), record('z', 'safe', 1, 10)];
  const b = [record('x', 'safe', 5, 3000), record('y', 'unknown', 8, 2000)];
  const { same, differing, missing } = compareRuns(a, b);
  t.is(same, 1);
  t.is(differing.length, 1);
  t.regex(differing[0]!, /^y paths: /);
  t.deepEqual(missing, ['z paths']);
  t.is(compareRuns(a, [record('x', 'unknown', 5, 1), record('y', 'unknown', 7, 1), record('z', 'safe', 1, 1)]).differing.length, 1);
  // Runs of one task with another cut-set are other runs, not the same one twice.
  const headers = { ...record('x', 'safe', 99, 1), cutset: 'headers' };
  t.deepEqual(compareRuns([record('x', 'safe', 5, 1), headers], [headers, record('x', 'safe', 5, 7)]), { same: 2, differing: [], missing: [] });
});
