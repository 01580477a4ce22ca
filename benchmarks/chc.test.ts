import test from 'ava';
import { familyRows, firstLineAnswer, type ChcTaskRecord } from './chc.js';

const record = (task: string, expected: 'sat' | 'unsat', farkas: [string, number], peer: [string, number]): ChcTaskRecord => ({
  task,
  family: task.split('/')[0]!,
  expected,
  runs: { farkas: { outcome: farkas[0] as 'sat', millis: farkas[1] }, z3: { outcome: peer[0] as 'sat', millis: peer[1] } },
});

test('family rows: solved, wrong, only one tool, and the median ratio over the tasks both solve, not rounded', (t) => {
  const records = [
    record('a/1', 'sat', ['sat', 300], ['sat', 1000]), // ratio 0.3
    record('a/2', 'unsat', ['unsat', 400], ['unsat', 1000]), // ratio 0.4
    record('a/3', 'sat', ['unknown', 10_000], ['sat', 50]),
    record('b/1', 'unsat', ['unsat', 100], ['sat', 20]), // z3 wrong
  ];
  const rows = familyRows(records, ['farkas', 'z3']);
  const a = rows.find((r) => r.family === 'a' && r.tool === 'z3')!;
  t.like(a, { tasks: 3, sat: 2, unsat: 1, wrong: 0, only: 0, onlyPeer: 1 });
  t.is(a.medianRatio, 0.35);
  const all = rows.find((r) => r.family === 'all' && r.tool === 'z3')!;
  t.like(all, { tasks: 4, wrong: 1, only: 1, onlyPeer: 1 });
  t.like(rows.find((r) => r.family === 'all' && r.tool === 'farkas')!, { sat: 1, unsat: 2, wrong: 0, medianRatio: null });
});

test('the answer is the first non-blank line of a tool output', (t) => {
  t.is(firstLineAnswer('\nsat\n(define-fun …)'), 'sat');
  t.is(firstLineAnswer('unsat'), 'unsat');
  t.is(firstLineAnswer('timeout\n'), 'unknown');
});
