import test from 'ava';
import { cleanup } from 'ink-testing-library';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from './testing/fake-runner.js';
import { openApp } from './testing/open-app.js';
import type { VerifyData } from './modes/verify.js';
import { verifyData } from './modes/verify.js';
import { parseProgram } from '../../lib/frontend/index.js';
import { verify, type StepStats, type VerifyResult } from '../../lib/index.js';
import { runProgram } from '../../lib/interpreter/index.js';
import * as F from '../../lib/ir/formula.js';
import * as L from '../../lib/ir/linear.js';
import { cexData, concreteCexData } from './modes/cex.js';
import type { WpData } from './modes/wp.js';
import { Problem } from '../../lib/problem/prepare.js';
import { resolveSettings } from '../../lib/settings.js';

const bench = (p: string) => new URL(`../../../benchmarks/${p}`, import.meta.url);
const fig1 = readFileSync(bench('paper/fig1.c'), 'utf8');
const offByOne = readFileSync(bench('literature/off-by-one.c'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'farkas-ui-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
// Serial: ink-testing-library's cleanup() unmounts every instance. Unmounting stops the UI's timers and input listeners (and cancels its jobs).
test.afterEach.always(() => cleanup());

const X_LE_0 = F.geqZero(L.sub(L.constant(0n), L.variable('x')));
const fig1Result: VerifyData = {
  verdict: 'safe',
  certified: true,
  function: 'PV1',
  schedule: 'paper',
  invariants: [{ line: 7, col: 5, expression: 'x <= 0', function: 'PV1', formula: X_LE_0 }],
  template: '1x2',
  widths: '3/7/1',
  json: { verdict: 'safe', invariants: [{ line: 7, expression: 'x <= 0' }] },
};

function open(source = fig1, file = 'fig1.c') {
  return openApp(source, file, { exportDir: dir });
}

test.serial('verify: live search rows, then the invariant of the selected cut-point and the engines', async (t) => {
  const { runner, frame, waitFor, ui } = open();
  await until(() => runner.jobs.length === 1, frame);
  t.like(runner.current.job, { mode: 'verify', file: 'fig1.c', options: { cutset: 'paths', schedule: 'paper' } });
  const job = runner.current;
  job.post({ type: 'cutpoints', points: [{ line: 7, col: 5 }] });
  job.post({ type: 'search', event: { kind: 'row-start', index: 0, template: '1x2', widths: '3/7/1' } });
  await waitFor(/1 1x2\s+3\/7\/1.*solving/);
  t.regex(frame(), / 7  C\s+x = x \+ y;/);
  t.regex(frame(), /searching/);
  job.post({ type: 'search', event: { kind: 'row-done', index: 0, variables: 3107, clauses: 16588, satMillis: 575, result: 'sat' } });
  job.post({ type: 'result', data: fig1Result });
  job.post({ type: 'engines', rows: [{ name: 'constraint/SAT', status: 'done', verdict: 'safe', millis: 2000 }, { name: 'symbolic', status: 'running' }] });
  await waitFor(/x <= 0/);
  t.regex(frame(), /safe \(certified by z3\)/);
  t.regex(frame(), /line 7:5/);
  t.regex(frame(), /template 1x2, widths 3\/7\/1/);
  t.regex(frame(), /\+ constraint\/SAT\s+safe/);
  t.regex(frame(), /3107\s+16588\s+575\s+sat/);
  ui.unmount();
  t.true(job.cancelled, 'leaving the UI cancels the running job');
});

test.serial('mode keys start the mode on the same program and cancel the running job', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('w');
  await until(() => runner.jobs.length === 2, frame);
  t.true(runner.jobs[0]!.cancelled);
  t.is(runner.current.job.mode, 'wp');
  t.is(runner.current.job.options.strategy, 'neighbourhood');
  await waitFor(/mode wp \(neighbourhood\)/);
  await press('g');
  await until(() => runner.jobs.length === 3, frame);
  t.is(runner.current.job.options.strategy, 'binary');
});

test.serial('template and cut-set keys re-run with the composed schedule', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('t'); // compose: disjuncts
  await waitFor(/template 1x2 3\/6\/1 \[disjuncts\]/);
  await press('+');
  await waitFor(/template 2x2 3\/6\/1 \[disjuncts\]/);
  await until(() => runner.jobs.length === 2, frame);
  const schedule = runner.current.job.options.schedule;
  t.true(typeof schedule === 'object' && schedule.steps[0]!.shape.disjuncts === 2);
  await press('c');
  await waitFor(/cut-set headers/);
  await until(() => runner.jobs.length === 3, frame);
  t.is(runner.current.job.options.cutset, 'headers');
  await press('T');
  await waitFor(/template paper/);
  await until(() => runner.jobs.length === 4, frame);
  t.is(runner.current.job.options.schedule, 'paper');
});

test.serial('adding an assertion: a parse error is shown with its position, a good one re-runs the new program', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  runner.current.post({ type: 'cutpoints', points: [{ line: 7, col: 5 }] });
  await waitFor(/ 7  C /);
  await press('a');
  await waitFor(/assert after line 7: _/);
  await press('x >=');
  await waitFor(/assert after line 7: x >=_/);
  await press('\r');
  await waitFor(/fig1\.c:8:\d+: error/);
  t.is(runner.jobs.length, 1);
  await press('\x7f'); // backspace twice: "x "
  await waitFor(/assert after line 7: x >_/);
  await press('\x7f');
  await waitFor(/assert after line 7: x _/);
  await press('< 100');
  await waitFor(/assert after line 7: x < 100_/);
  await press('\r');
  await until(() => runner.jobs.length === 2, frame);
  t.regex(runner.current.job.source, /x = x \+ y;\n\s+assert\(x < 100\);\n/);
  await waitFor(/assertion added after line 7/);
  t.regex(frame(), / 8  A\s+assert\(x < 100\);/);
});

test.serial('editing the selected assertion', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('e'); // the only mark is the assertion on line 10
  await waitFor(/assert on line 10: y > 0_/);
  await press('\x7f');
  await waitFor(/assert on line 10: y > _/);
  await press('-1');
  await waitFor(/assert on line 10: y > -1_/);
  await press('\r');
  await until(() => runner.jobs.length === 2, frame);
  t.regex(runner.current.job.source, /\n  assert\(y > -1\);\n\}/);
  t.notRegex(runner.current.job.source, /assert\(y > 0\)/);
});

test.serial('a counterexample from the engine steps through its trace with n/p, the source line following', async (t) => {
  const program = parseProgram(offByOne, 'off-by-one.c');
  const result = await verify(Problem.of(program), resolveSettings());
  t.is(result.verdict, 'unsafe');
  const data = verifyData(program, 'off-by-one.c', result);
  const { runner, frame, press, waitFor } = open(offByOne, 'off-by-one.c');
  await until(() => runner.jobs.length === 1, frame);
  runner.current.post({ type: 'result', data });
  await waitFor(/Counterexample/);
  t.regex(frame(), new RegExp(`counterexample: n=${result.counterexample!.inputs.get('n')}`));
  t.regex(frame(), /step 1\/\d+ {2}line 2/);
  await press('nnn'); // one chunk: three steps
  await waitFor(/step 4\//);
  t.regex(frame(), new RegExp(`n=${result.counterexample!.inputs.get('n')} i=0`));
  t.regex(frame(), />\s*5 L\s+while/);
  await press('p');
  await waitFor(/step 3\//);
  const total = data.trace!.length;
  await press('n'.repeat(total));
  await waitFor(new RegExp(`step ${total}/${total}.*assertion fails`));
  t.regex(frame(), />\s*8\s+A\s+assert\(i == n\);/);
});

test.serial('x exports the result as JSON; errors from the worker are shown', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('x');
  await waitFor(/nothing to export yet/);
  runner.current.post({ type: 'result', data: fig1Result });
  await waitFor(/x <= 0/);
  await press('x');
  await waitFor(/exported .*fig1\.verify\.json/);
  t.deepEqual(JSON.parse(readFileSync(join(dir, 'fig1.verify.json'), 'utf8')), fig1Result.json);
  await press('r');
  await until(() => runner.jobs.length === 2, frame);
  runner.current.post({ type: 'error', message: 'fig1.c:3:1: error: boom' });
  runner.current.post({ type: 'done' });
  await waitFor(/fig1\.c:3:1: error: boom/);
});

test.serial('? shows the keys, esc closes them, q quits', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('?');
  await waitFor(/Keys/);
  t.regex(frame(), /q\s+quit/);
  await press('\x1b');
  await waitFor(/Source fig1\.c/);
  await press('q');
  await until(() => runner.current.cancelled, frame);
  t.pass();
});

test.serial('o opens another file', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('o');
  await waitFor(/open file: _/);
  await press(new URL(bench('conditions/wp1.c')).pathname);
  await waitFor(/wp1\.c_/);
  await press('\r');
  await until(() => runner.jobs.length === 2, frame);
  t.regex(runner.current.job.source, /void WP1\(int i, int j\)/);
  await waitFor(/while \(x <= 100\)/);
  await press('o');
  await waitFor(/open file: _/);
  await press('/nonexistent.c');
  await waitFor(/nonexistent\.c_/);
  await press('\r');
  await waitFor(/cannot read \/nonexistent\.c \(ENOENT\)/);
});

test.serial('i pins the selected invariant: kept across re-runs, passed to the next verify run, and shown beside a different new one', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('i');
  await waitFor(/no invariant to pin yet/);
  runner.current.post({ type: 'cutpoints', points: [{ line: 7, col: 5 }] });
  runner.current.post({ type: 'result', data: fig1Result });
  await waitFor(/x <= 0/);
  await press('i');
  await waitFor(/pinned line 7: x <= 0/);
  t.regex(frame(), /pinned \(this one\)/);
  t.regex(frame(), / 7  P\s+x = x \+ y;/);
  t.is(runner.jobs[0]!.job.options.pins, undefined);
  await press('r');
  await until(() => runner.jobs.length === 2, frame);
  // The pin goes to the worker as a formula keyed by its line (verify's knownInvariants).
  t.deepEqual(runner.current.job.options.pins, [{ line: 7, formula: X_LE_0 }]);
  runner.current.post({ type: 'cutpoints', points: [{ line: 7, col: 5 }] });
  runner.current.post({ type: 'result', data: { ...fig1Result, pinned: [{ line: 7, expression: 'x <= 0' }], invariants: [{ line: 7, col: 5, expression: 'x <= y', function: 'PV1' }] } });
  await waitFor(/pinned: x <= 0/);
  t.regex(frame(), /search used pin: line 7: x <= 0/);
  t.regex(frame(), /x <= y/);
  await press('i'); // the new invariant replaces the pin
  await waitFor(/pinned line 7: x <= y/);
  await press('i'); // the same again unpins
  await waitFor(/unpinned line 7/);
  t.regex(frame(), / 7  C\s+x = x \+ y;/);
  await press('w');
  // Keys act on the last rendered state: wait for the mode switch to be on screen (under load it lags).
  await waitFor(/mode wp/);
  await press('i');
  await waitFor(/pinning takes an invariant: press v/);
});

test.serial('W writes the verify result\'s SV-COMP witness once the worker has built it, or says why there is none', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  runner.current.post({ type: 'result', data: fig1Result });
  await waitFor(/x <= 0/);
  await press('W');
  await waitFor(/the witness is still being built/);
  const text = '- entry_type: invariant_set\n  content: []\n';
  runner.current.post({ type: 'witness', witness: { kind: 'correctness', text, items: 1 } });
  await new Promise((r) => setTimeout(r, 50)); // nothing on screen changes: let the message render
  await press('W');
  await waitFor(/exported .*fig1\.witness\.yml/);
  t.is(readFileSync(join(dir, 'fig1.witness.yml'), 'utf8'), text);
  await press('r');
  await until(() => runner.jobs.length === 2, frame);
  runner.current.post({ type: 'result', data: { ...fig1Result, verdict: 'unknown', certified: false } });
  runner.current.post({ type: 'witness', witness: { kind: 'none', reason: 'no witness for an unknown result (timeout)' } });
  await waitFor(/unknown/);
  await new Promise((r) => setTimeout(r, 50));
  await press('W');
  await waitFor(/no witness: no witness for an unknown result \(timeout\)/);
  await press('s');
  await press('W');
  await waitFor(/witnesses come from verify: press v first/);
});

test.serial('l runs sp at the selected cut-point\'s line, again back at the exit', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('s');
  await until(() => runner.jobs.length === 2, frame);
  t.is(runner.current.job.options.atLine, undefined);
  await waitFor(/mode sp \(exit\)/);
  await press('l'); // the only mark is the assertion on line 10
  await waitFor(/select a cut-point \(up\/down\) for sp at its line/);
  runner.current.post({ type: 'cutpoints', points: [{ line: 7, col: 5 }] });
  await waitFor(/ 7  C /);
  await press('l');
  await until(() => runner.jobs.length === 3, frame);
  t.is(runner.current.job.options.atLine, 7);
  await waitFor(/mode sp \(line 7\)/);
  await press('l');
  await until(() => runner.jobs.length === 4, frame);
  t.is(runner.current.job.options.atLine, undefined);
  await waitFor(/mode sp \(exit\)/);
});

test.serial('a chunk that ends the line submits the prompt (pasted text): no control characters enter it', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('o');
  await waitFor(/open file: _/);
  await press('/nonexistent\x01.c\rq');
  await waitFor(/open file: \/nonexistent\.c_\s+cannot read \/nonexistent\.c \(ENOENT\)/);
  await press(`\x7f`.repeat(16) + new URL(bench('conditions/wp1.c')).pathname + '\r');
  await until(() => runner.jobs.length === 2, frame);
  t.regex(runner.current.job.source, /void WP1\(int i, int j\)/);
});

test.serial('cex mode: the failing condition\'s run steps with n/p and the source pane follows it', async (t) => {
  const source = readFileSync(bench('conditions/bound-ten.c'), 'utf8');
  const program = parseProgram(source, 'bound-ten.c');
  const input = new Map([['n', 11n]]);
  const run = runProgram(program, { entry: 'boundTen', inputs: input, nondet: [], recordTrace: true });
  const data = cexData(program, 'bound-ten.c', { function: 'boundTen', nondetInputs: [], instrumented: program, conditions: [{ expression: 'n >= 11', formula: F.TRUE, certified: true, invariants: [], neighbours: [], locallyOptimal: true, input, nondet: [], line: 6, replayed: true, run }], dropped: [], stats: { queries: [], iterations: 1, concreteRuns: 1, millis: 1 } });
  const { runner, frame, press, waitFor } = open(source, 'bound-ten.c');
  await until(() => runner.jobs.length === 1, frame);
  await press('C');
  await until(() => runner.jobs.length === 2, frame);
  t.is(runner.current.job.mode, 'cex');
  runner.current.post({ type: 'result', data });
  await waitFor(/step 1\/\d+ {2}line 2/);
  t.regex(frame(), /failing conditions/);
  t.regex(frame(), /1\. n >= 11 {2}\[certified\]/);
  await press('nnn');
  await waitFor(/step 4\/\d+ {2}line 5/);
  t.regex(frame(), />\s*5\s+i\+\+;/);
  await press('p');
  await waitFor(/step 3\/\d+ {2}line 4/);
  t.regex(frame(), />\s*4 L\s+while \(i < n\)/);
});

/** The text of the right-hand panes at 80×24 (from column 40, below the header, above the Search
 * pane), rows joined: a wrapped item reads whole. */
function rightColumn(frame: string): string {
  return frame.split('\n').slice(1, 15).map((l) => l.slice(40).replace(/[│┌┐└┘─]/g, ' ').trim()).join(' ').replace(/\s+/g, ' ');
}

test.serial('80x24: a long invariant is wrapped in the Invariant pane and fully readable', async (t) => {
  const long = '(i >= 0 && n - i >= 0 && j - 2 * i <= 7 && x + y + z == 100) || (i <= -1 && j >= n + 3)';
  const { runner, frame, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  runner.current.post({ type: 'result', data: { ...fig1Result, invariants: [{ ...fig1Result.invariants[0]!, expression: long }] } });
  await waitFor(/safe \(certified by z3\)/);
  t.true(frame().split('\n').every((l) => l.length <= 80));
  t.true(rightColumn(frame()).includes(`line 7:5: ${long}`), frame());
  t.notRegex(rightColumn(frame()), /…/, 'nothing cut');
});

test.serial('80x24: a long source line is marked with … and scrolls sideways with > and <', async (t) => {
  const source = 'void f(int n) {\n  int x = 0; // a comment long enough to run past the right edge of the source pane: THE END\n  assert(x == 0);\n}\n';
  const { runner, frame, press, waitFor } = open(source, 'long.c');
  await until(() => runner.jobs.length === 1, frame);
  t.regex(frame(), /2\s+int x = 0; \/\/ a comment lon…\s*│/);
  t.notRegex(frame(), /THE END/);
  await press('>'.repeat(12)); // more than enough: the scroll stops at the longest line's end
  await waitFor(/Source long\.c from col \d+/);
  t.notRegex(frame(), /THE END…/);
  t.regex(frame(), /THE END/);
  t.regex(frame(), /2\s+…/, 'text scrolled off to the left is marked too');
  await press('<<<<<<<<');
  await waitFor(/Source long\.c ─/);
  t.regex(frame(), /2\s+int x = 0;/);
});

test.serial('cex mode: the concrete counterexample is shown and stepped while the most-general search runs, then the conditions replace it', async (t) => {
  const source = readFileSync(bench('conditions/bug1.c'), 'utf8');
  const program = parseProgram(source, 'bug1.c');
  const input = new Map([['y', 4n], ['n', 303n]]);
  const run = runProgram(program, { entry: 'Bug1', inputs: input, nondet: [], recordTrace: true });
  const { runner, frame, press, waitFor } = open(source, 'bug1.c');
  await until(() => runner.jobs.length === 1, frame);
  await press('C');
  await until(() => runner.jobs.length === 2, frame);
  const job = runner.current;
  job.post({ type: 'partial', data: concreteCexData(program, 'bug1.c', 'Bug1', { input, nondet: [], line: 7, run }) });
  await waitFor(/step 1\/\d+ {2}line 3/);
  t.regex(rightColumn(frame()), /concrete counterexample \(replayed\): y=4, n=303 fails at line 7/);
  t.regex(frame(), /searching most-general conditions/);
  t.regex(frame(), /Search\s+[\d.]+ s [|/\\-]/, 'the search is still running');
  const trace = concreteCexData(program, 'bug1.c', 'Bug1', { input, nondet: [], line: 7, run }).trace!;
  const firstAssert = trace.findIndex((r) => r.line === 7);
  await press('n'.repeat(firstAssert));
  await waitFor(new RegExp(`step ${firstAssert + 1}/\\d+ {2}line 7 `));
  t.regex(frame(), />\s*7  A\s+assert\(x < 200\);/);
  t.regex(frame(), /y=4 n=303 x=0/);
  const rows = trace.length;
  await press('n'.repeat(rows));
  await until(() => new RegExp(`step ${rows}/${rows} line 7 assertion fails`).test(rightColumn(frame())), frame);
  t.regex(frame(), /x=200/);
  job.post({ type: 'result', data: cexData(program, 'bug1.c', { function: 'Bug1', nondetInputs: [], instrumented: program, conditions: [], dropped: [], reason: 'timeout before a precondition was found', stats: { queries: [], iterations: 1, concreteRuns: 1, millis: 1 } }, { input, nondet: [], line: 7, run }) });
  await waitFor(/no failing condition: timeout/);
  t.regex(rightColumn(frame()), /concrete counterexample \(replayed\): y=4, n=303/, 'the concrete run stays when no condition was found');
});

test.serial('80x24: a parse error beside the assertion prompt wraps onto more rows and still fits the screen', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('a');
  await waitFor(/assert after line \d+: _/);
  await press('y >');
  await press('\r');
  await waitFor(/error:/);
  const rows = frame().split('\n');
  t.true(rows.length <= 24, `${rows.length} rows`);
  t.true(rows.every((r) => r.length <= 80));
  const tail = rows.slice(-3).join(' ').replace(/\s+/g, ' ');
  t.regex(tail, /assert after line \d+: y >_ fig1\.c:\d+:\d+: error: \S/);
  t.notRegex(tail, /…$/);
});

test.serial('leaving verify while its engines run shows them cancelled, not running', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  runner.current.post({ type: 'result', data: fig1Result });
  runner.current.post({ type: 'engines', rows: [{ name: 'constraint/SAT', status: 'done', verdict: 'safe', millis: 2000 }, { name: 'lazy-annotation', status: 'running' }, { name: 'certificate check', status: 'pending' }] });
  await waitFor(/lazy-annotation\s+running/);
  await press('w');
  await until(() => runner.jobs.length === 2, frame);
  t.true(runner.jobs[0]!.cancelled);
  await waitFor(/lazy-annotation\s+cancelled/);
  t.regex(frame(), /mode wp/);
  t.regex(frame(), /certificate check\s+cancelled/);
  t.regex(frame(), /\+ constraint\/SAT\s+safe/, 'the answers given stay');
});

test.serial('c: a pin whose line is no cut-point of the new cut-set is dropped, with a message, and verify runs again without it', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  runner.current.post({ type: 'cutpoints', points: [{ line: 7, col: 5 }] });
  runner.current.post({ type: 'result', data: fig1Result });
  await waitFor(/x <= 0/);
  await press('i');
  await waitFor(/pinned line 7: x <= 0/);
  await press('c');
  await until(() => runner.jobs.length === 2, frame);
  t.is(runner.current.job.options.cutset, 'headers');
  runner.current.post({ type: 'cutpoints', points: [{ line: 6, col: 3 }] }); // the loop header
  await waitFor(/unpinned line 7: no cut-point there with cut-set headers; verify re-runs/);
  await until(() => runner.jobs.length === 3, frame);
  t.true(runner.jobs[1]!.cancelled);
  t.is(runner.current.job.options.cutset, 'headers');
  t.is(runner.current.job.options.pins, undefined);
  t.notRegex(frame(), / 7 {2}P/);
});

test.serial('a pin stays removable: i on its line unpins it in another mode and when the answer has no invariant there', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  const pinLine7 = async () => {
    runner.current.post({ type: 'cutpoints', points: [{ line: 7, col: 5 }] });
    runner.current.post({ type: 'result', data: fig1Result });
    await waitFor(/x <= 0/);
    await press('i');
    await waitFor(/pinned line 7: x <= 0/);
  };
  await pinLine7();
  await press('w');
  await waitFor(/mode wp/);
  await press('i');
  await waitFor(/unpinned line 7/);
  t.notRegex(frame(), / 7 {2}P/);
  await press('v');
  await until(() => runner.jobs.length === 3, frame);
  await pinLine7();
  await press('r');
  await until(() => runner.jobs.length === 4, frame);
  // The pin made the answer unknown, and the run reported no cut-points (the pin's line is still selectable).
  runner.current.post({ type: 'result', data: { ...fig1Result, verdict: 'unknown', certified: false, reason: 'the pinned invariant at line 7 (x <= 0) is false in a reachable state', invariants: [] } });
  await waitFor(/unknown: the pinned/);
  await press('i');
  await waitFor(/unpinned line 7/);
  await press('r');
  await until(() => runner.jobs.length === 5, frame);
  t.is(runner.current.job.options.pins, undefined);
});

test.serial('e with no assertion at the selection opens the prompt for a new one: what is typed next never runs as commands', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  runner.current.post({ type: 'cutpoints', points: [{ line: 7, col: 5 }] });
  await waitFor(/ 7 {2}C /);
  await press('e'); // the selection is the cut-point on line 7
  await waitFor(/assert after line 7: _\s+no assertion on line 7/);
  await press('q');
  await waitFor(/assert after line 7: q_/);
  t.false(runner.current.cancelled, 'q was typed into the prompt, not a quit');
});

test.serial('keys typed in one chunk after e are the prompt\'s text, not commands', async (t) => {
  const { runner, frame, press } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press(`e${'\x7f'.repeat(5)}y >= 1\r`); // the only mark is the assertion on line 10
  await until(() => runner.jobs.length === 2, frame);
  t.regex(runner.current.job.source, /\n {2}assert\(y >= 1\);\n\}/);
  t.is(runner.current.job.options.schedule, 'paper', '= did not adjust the template');
});

test.serial('the selection stays on its line across re-runs: the assertion just edited can be edited again', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  runner.current.post({ type: 'cutpoints', points: [{ line: 7, col: 5 }] });
  await waitFor(/ 7 {2}C /);
  await press('j'); // from the cut-point on line 7 to the assertion on line 10
  await press('e');
  await waitFor(/assert on line 10: y > 0_/);
  await press('\x7f');
  await waitFor(/assert on line 10: y > _/);
  await press('-1\r');
  await until(() => runner.jobs.length === 2, frame);
  runner.current.post({ type: 'cutpoints', points: [{ line: 7, col: 5 }] });
  await waitFor(/ 7 {2}C /);
  await press('e');
  await waitFor(/assert on line 10: y > -1_/);
  await press('\x1b');
  // Esc closed the prompt before r is sent: on a busy machine the two could arrive as one chunk,
  // which reads as Alt+r.
  await until(() => !/assert on line 10:/.test(frame()), frame);
  await press('r');
  await until(() => runner.jobs.length === 3, frame);
  runner.current.post({ type: 'cutpoints', points: [{ line: 7, col: 5 }] });
  await waitFor(/ 7 {2}C /);
  await press('e');
  await waitFor(/assert on line 10: y > -1_/);
  t.is(runner.jobs.length, 3);
});

test.serial('wp: the answers bar goes once the run is over', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('w');
  await until(() => runner.jobs.length === 2, frame);
  runner.current.post({ type: 'search', event: { kind: 'bar', label: 'answers 1/3', fraction: 1 / 3 } });
  await waitFor(/answers 1\/3/);
  const data: WpData = { function: 'PV1', strategy: 'neighbourhood', parameters: ['y'], preconditions: [{ expression: 'y >= 1', certified: true, locallyOptimal: true, invariants: [], neighbours: [] }], queries: 1, concreteRuns: 159, millis: 5300 };
  runner.current.post({ type: 'result', data });
  await waitFor(/1\. y >= 1/);
  t.regex(frame(), /finished: done in/);
  t.notRegex(frame(), /answers 1\/3/);
});

test.serial('the Invariant pane credits the step that found the invariants, not the last (unsat) one: here the observed bounds', async (t) => {
  // As verify answers Fig. 1 with the headers cut-set: the first template step is unsat, then the
  // observed bounds (Houdini) prove the program.
  const unsat: StepStats = { template: '1x2+eq', disjuncts: 1, conjuncts: 2, widths: { coefficient: 3, constant: 7, multiplier: 1 }, unknowns: 12, constraints: 30, variables: 400, clauses: 1500, encodeMillis: 5, satMillis: 40, backend: 'minisat', result: 'unsat' };
  const result: VerifyResult = { verdict: 'safe', certified: true, function: 'PV1', cutset: 'headers', schedule: 'paper', cutpoints: 1, verificationConditions: 3, invariants: [{ function: 'PV1', line: 6, col: 3, expression: 'y >= 1 || x <= -1', location: 1, formula: F.TRUE }], stats: [unsat], houdini: { candidates: 24, kept: 3, rounds: 6, proved: true, millis: 363 }, millis: 900 };
  const { runner, frame, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  runner.current.post({ type: 'result', data: verifyData(parseProgram(fig1, 'fig1.c'), 'fig1.c', result) });
  await waitFor(/safe \(certified by z3\)/);
  t.regex(rightColumn(frame()), /found by the observed bounds \(Houdini\), not a template step/);
  t.notRegex(rightColumn(frame()), /template 1x2/);
});
