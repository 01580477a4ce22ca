import test from 'ava';
import type { WorkerMessage } from './protocol.js';
import { effectiveFocus, initialState, movedPosition, reduce, scheduleOf, selectableMarks, selectedIndex, TRACE_PAGE, type UiState } from './state.js';
import { assertionOn, insertAssertion, replaceAssertion } from './source-edit.js';

const start = (): UiState => initialState({ file: 'f.c', source: '', loops: [], asserts: [{ line: 10, col: 3 }], mode: 'verify' });

test('template keys compose one schedule step within the schedule file ranges', (t) => {
  let s = start();
  t.is(scheduleOf(s), 'paper');
  s = reduce(s, { type: 'template-field' }); // starts composing at the paper's first step, field disjuncts
  s = reduce(s, { type: 'template-adjust', delta: 1 });
  s = reduce(s, { type: 'template-field' }); // conjuncts
  const token = s.runToken;
  s = reduce(s, { type: 'template-adjust', delta: -1 });
  s = reduce(s, { type: 'template-adjust', delta: -1 }); // stays at 1
  t.regex(s.status, /conjuncts stays 1/);
  t.is(s.runToken, token + 1);
  const schedule = scheduleOf(s);
  t.true(typeof schedule === 'object');
  if (typeof schedule === 'object') t.deepEqual(schedule.steps, [{ shape: { disjuncts: 2, conjuncts: 1 }, widths: { coefficient: 3, constant: 6, multiplier: 1 } }]);
});

test('search rows follow start, encoded and done events; the result ends the search', (t) => {
  let s = reduce(start(), { type: 'job-started', at: 1000 });
  const msg = (message: WorkerMessage, at = 1500) => (s = reduce(s, { type: 'message', message, at }));
  msg({ type: 'search', event: { kind: 'row-start', index: 0, template: '1x2', widths: '3/7/1' } });
  msg({ type: 'search', event: { kind: 'row-encoded', index: 0, variables: 10, clauses: 20 } });
  t.deepEqual(s.rows, [{ index: 0, template: '1x2', widths: '3/7/1', variables: 10, clauses: 20 }]);
  msg({ type: 'search', event: { kind: 'row-done', index: 0, variables: 10, clauses: 20, satMillis: 5, result: 'sat' } });
  t.is(s.rows[0]!.result, 'sat');
  t.true(s.running);
  msg({ type: 'result', data: { verdict: 'safe' } }, 3000);
  t.false(s.running);
  t.is(s.elapsedMillis, 2000);
  t.deepEqual(s.result, { mode: 'verify', data: { verdict: 'safe' } });
});

test('selectable marks merge cut-points and assertions in source order', (t) => {
  const s = { ...start(), cutpoints: [{ line: 7, col: 5 }] };
  t.deepEqual(selectableMarks(s, [{ line: 7, col: 5 }, { line: 2, col: 1 }]), [{ line: 2, col: 1 }, { line: 7, col: 5 }, { line: 10, col: 3 }]);
});

test('assertions are inserted after a line and edited in place', (t) => {
  const src = 'int main() {\n  int x = 0;\n  assert(f(x) == 0);\n}\n';
  t.is(insertAssertion(src, 2, ' x >= 0 '), 'int main() {\n  int x = 0;\n  assert(x >= 0);\n  assert(f(x) == 0);\n}\n');
  t.is(insertAssertion(src, 1, 'x == 0').split('\n')[1], '  assert(x == 0);');
  t.deepEqual(assertionOn(src, 3), { expr: 'f(x) == 0', start: 9, end: 18 });
  t.is(assertionOn(src, 2), null);
  t.is(replaceAssertion(src, 3, 'x < 1').split('\n')[2], '  assert(x < 1);');
});

test('a partial result is shown while the search runs on; stepping it is kept until the final result', (t) => {
  let s = reduce(start(), { type: 'job-started', at: 1000 });
  s = reduce(s, { type: 'message', message: { type: 'partial', data: { concrete: 1 } }, at: 1200 });
  t.true(s.running);
  t.deepEqual(s.result, { mode: 'verify', data: { concrete: 1 } });
  s = reduce(s, { type: 'trace', delta: 3, length: 10 });
  s = reduce(s, { type: 'message', message: { type: 'partial', data: { concrete: 2 } }, at: 1300 });
  t.is(s.traceIndex, 3);
  s = reduce(s, { type: 'message', message: { type: 'result', data: { final: true } }, at: 2000 });
  t.false(s.running);
  t.is(s.traceIndex, 0);
});

test('the source pane scroll stays within 0 and the longest line', (t) => {
  let s = reduce(start(), { type: 'scroll', delta: -10, max: 25 });
  t.is(s.sourceScroll, 0);
  s = reduce(reduce(reduce(s, { type: 'scroll', delta: 10, max: 25 }), { type: 'scroll', delta: 10, max: 25 }), { type: 'scroll', delta: 10, max: 25 });
  t.is(s.sourceScroll, 25);
  s = reduce(s, { type: 'source', file: 'g.c', source: '', loops: [], asserts: [] });
  t.is(s.sourceScroll, 0, 'another program starts at column 1');
});

test('a job that ends leaves nothing running: the bar goes, and engines that have not answered never will', (t) => {
  let s = reduce(start(), { type: 'job-started', at: 1000 });
  const msg = (message: WorkerMessage) => (s = reduce(s, { type: 'message', message, at: 1500 }));
  msg({ type: 'search', event: { kind: 'bar', label: 'answers 1/3', fraction: 0.5 } });
  msg({ type: 'engines', rows: [{ name: 'constraint/SAT', status: 'done', verdict: 'safe' }, { name: 'symbolic', status: 'running' }, { name: 'certificate check', status: 'pending' }] });
  msg({ type: 'error', message: 'analysis worker stopped (SIGSEGV)' });
  t.is(s.bar, null);
  msg({ type: 'done' });
  t.deepEqual(s.engines.map((e) => e.status), ['done', 'error', 'error']);
  t.regex(s.engines[1]!.note ?? '', /worker stopped/);
});

test('the selection is a position: it stays when the marks around it change, and j/k move from it', (t) => {
  const marks = [{ line: 7, col: 5 }, { line: 10, col: 3 }];
  let s = reduce(start(), { type: 'select', delta: 1, marks });
  t.deepEqual(s.selected, { line: 10, col: 3 });
  t.is(selectedIndex([{ line: 2, col: 1 }, ...marks], s.selected), 2, 'a cut-point reported before it does not move it');
  t.is(selectedIndex([{ line: 7, col: 5 }], s.selected), 0, 'while its line is gone the first mark stands in');
  s = reduce(s, { type: 'select', delta: 1, marks });
  t.deepEqual(s.selected, { line: 7, col: 5 });
});

test('Tab moves the focus round the panes (the trace only while there is one); moves stay within 0 and the end', (t) => {
  let s = start();
  t.is(s.focus, 'trace');
  t.is(effectiveFocus(s.focus, false), 'result', 'without a trace the result pane has the keys');
  s = reduce(s, { type: 'focus-next', hasTrace: false });
  t.is(s.focus, 'source');
  s = reduce(s, { type: 'focus-next', hasTrace: true });
  t.is(s.focus, 'trace');
  s = reduce(s, { type: 'move', move: 'last', max: 154, page: TRACE_PAGE, hasTrace: true });
  t.is(s.traceIndex, 154);
  s = reduce(s, { type: 'move', move: 'page-down', max: 154, page: TRACE_PAGE, hasTrace: true });
  t.is(s.traceIndex, 154);
  s = reduce(s, { type: 'move', move: 'page-up', max: 154, page: TRACE_PAGE, hasTrace: true });
  t.is(s.traceIndex, 144);
  // The source pane scrolls from where it shows the program (following the selection) until then.
  s = reduce(reduce(s, { type: 'focus-next', hasTrace: true }), { type: 'focus-next', hasTrace: true });
  t.is(s.focus, 'source');
  s = reduce(s, { type: 'move', move: 'page-down', max: 40, page: 9, sourceTop: 12, hasTrace: true });
  t.is(s.sourceTop, 21);
  s = reduce(s, { type: 'select', delta: 1, marks: [{ line: 10, col: 3 }] });
  t.is(s.sourceTop, null, 'a new selection is followed again');
  t.is(movedPosition(3, 'first', 5, 9), 0);
  t.is(movedPosition(3, 'page-up', 5, 9), 0);
  t.is(movedPosition(7, 'page-down', 5, 9), 9);
});

test('an edit is unsaved until saved; a file read is saved as it is', (t) => {
  let s = reduce(start(), { type: 'source', file: 'f.c', source: 'int x;\n', loops: [], asserts: [] });
  t.is(s.savedSource, s.source);
  s = reduce(s, { type: 'source', file: 'f.c', source: 'int x;\nassert(1);\n', loops: [], asserts: [], edited: true });
  t.not(s.savedSource, s.source);
  s = reduce(s, { type: 'saved', source: s.source, path: 'f.edited.c' });
  t.is(s.savedSource, s.source);
  t.is(s.status, 'saved f.edited.c');
});
