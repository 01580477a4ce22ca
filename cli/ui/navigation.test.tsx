// Issue 24 in the UI: scrollable panes (PgUp/PgDn, H/G, Home/End, Tab between them), `S` saving the
// edited program, the footer's keys of the focused pane and mode, and the alternate screen.
import test from 'ava';
import { EventEmitter } from 'node:events';
import { cleanup } from 'ink-testing-library';
import { render as inkRender } from 'ink';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from './app.js';
import { MODES } from './modes/index.js';
import { FakeRunner, until } from './testing/fake-runner.js';
import { openApp } from './testing/open-app.js';
import type { VerifyData } from './modes/verify.js';
import type { WpData } from './modes/wp.js';
import type { TraceRow } from './trace.js';
import { ENTER_ALTERNATE_SCREEN, LEAVE_ALTERNATE_SCREEN } from './alternate-screen.js';
import { editedName } from './save-edited.js';
import { keyHint } from './footer.js';

const fig1 = readFileSync(new URL('../../../benchmarks/paper/fig1.c', import.meta.url), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'farkas-ui-nav-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
// Serial: cleanup() unmounts every instance.
test.afterEach.always(() => cleanup());

const KEY = { pageUp: '\x1b[5~', pageDown: '\x1b[6~', home: '\x1b[H', end: '\x1b[F', tab: '\t' };

function open(source = fig1, file = 'fig1.c', columns = 80, rows = 24) {
  return openApp(source, file, { exportDir: dir, columns, rows });
}

/** A 155-step run (Bug1's replayed counterexample is that long): line 7 last. */
const longTrace: TraceRow[] = Array.from({ length: 155 }, (_, i) => ({
  line: i === 154 ? 7 : 4 + (i % 3),
  procedure: 'f',
  depth: 0,
  text: `statement ${i + 1}`,
  changed: ['x'],
  state: [['x', String(i)]],
}));

const unsafe: VerifyData = {
  verdict: 'unsafe', certified: false, function: 'PV1', schedule: 'paper', invariants: [],
  counterexample: { inputs: 'y=-3', line: 10 }, trace: longTrace, json: {},
};

test.serial('a 155-step trace: G goes to its last step in one key, H back to the first, PgDn/PgUp by 10 steps', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  runner.current.post({ type: 'result', data: unsafe });
  await waitFor(/step 1\/155/);
  t.regex(frame(), /\[trace\] n\/p PgUp\/PgDn H\/G step/, 'the footer names the focused pane and its keys');
  await press('G');
  await waitFor(/step 155\/155 {2}line 7 {2}assertion/);
  t.regex(frame(), /statement 155/);
  t.regex(frame(), />\s*7 {2}C?\s/, 'the source pane follows the step');
  await press('H');
  await waitFor(/step 1\/155/);
  await press(KEY.pageDown);
  await waitFor(/step 11\/155/);
  await press(KEY.pageDown);
  await waitFor(/step 21\/155/);
  await press(KEY.pageUp);
  await waitFor(/step 11\/155/);
  await press(KEY.end);
  await waitFor(/step 155\/155/);
  await press(KEY.home);
  await waitFor(/step 1\/155/);
  await press('n');
  await waitFor(/step 2\/155/);
});

const manyAnswers: WpData = {
  function: 'f', strategy: 'neighbourhood', parameters: ['a', 'b'],
  preconditions: Array.from({ length: 12 }, (_, i) => ({ expression: `a >= ${i}`, certified: true, locallyOptimal: false, invariants: [], neighbours: [{ expression: `a >= ${i + 1}`, replayed: true, witness: `a=${i}` }] })),
  queries: 40, concreteRuns: 300, millis: 9100,
};

test.serial('the result pane scrolls: PgDn and G show later answers under a count of those above, H goes back to the top', async (t) => {
  const { runner, frame, press, waitFor } = open();
  await until(() => runner.jobs.length === 1, frame);
  await press('w');
  await until(() => runner.jobs.length === 2, frame);
  runner.current.post({ type: 'result', data: manyAnswers });
  await waitFor(/1\. a >= 0/);
  t.regex(frame(), /… \d+ more \(x exports all\)/);
  t.notRegex(frame(), /40 solver queries/);
  t.regex(frame(), /\[result\] PgUp\/PgDn H\/G scroll/);
  await press(KEY.pageDown);
  await waitFor(/… \d+ above/);
  t.notRegex(frame(), /1\. a >= 0 /);
  await press('G');
  await waitFor(/40 solver queries, 300 runs/);
  t.regex(frame(), /12\. a >= 11/);
  t.notRegex(frame(), /more \(x exports all\)/, 'the end is in view');
  await press(KEY.pageDown); // past the end: stays there
  await waitFor(/40 solver queries/);
  await press('H');
  await waitFor(/1\. a >= 0/);
  t.notRegex(frame(), /above/);
  // A new run starts at the top again.
  await press('G');
  await waitFor(/40 solver queries/);
  await press('r');
  await until(() => runner.jobs.length === 3, frame);
  runner.current.post({ type: 'result', data: manyAnswers });
  await waitFor(/1\. a >= 0/);
});

test.serial('Tab moves the keys to the source pane: PgDn, G and H scroll a long program; the selection brings it back', async (t) => {
  // The assertion (the only mark, selected) on line 2: the pane starts at the top.
  const source = `void f(int n) {\n  assert(n >= 0);\n${Array.from({ length: 60 }, (_, i) => `  int v${i + 1} = ${i};`).join('\n')}\n}\n`;
  const { runner, frame, press, waitFor } = open(source, 'long.c');
  await until(() => runner.jobs.length === 1, frame);
  t.regex(frame(), /int v1 = 0;/);
  await press(KEY.tab);
  await waitFor(/\[source\] PgUp\/PgDn H\/G scroll/);
  await press(KEY.pageDown);
  await waitFor(/int v20 = 19;/);
  t.notRegex(frame(), /int v1 = 0;/);
  await press('G');
  await waitFor(/63\s+}/);
  t.regex(frame(), /int v60 = 59;/);
  await press(KEY.pageUp);
  await waitFor(/int v40 = 39;/);
  t.notRegex(frame(), /63\s+}/);
  await press('H');
  await waitFor(/ 1\s+void f\(int n\) \{/);
  // Selecting the assertion (the only mark) brings its line back into view.
  await press(KEY.end);
  await waitFor(/63\s+}/);
  await press('j');
  await waitFor(/ 2 {2}A\s+assert\(n >= 0\);/);
  // Tab goes round: source, then the result pane (no trace here).
  await press(KEY.tab);
  await waitFor(/\[result\] PgUp\/PgDn H\/G scroll/);
});

test.serial('S saves the edited program beside the file as FILE.edited.c, never over an existing file; nothing edited, nothing saved', async (t) => {
  const file = join(dir, 'fig1.c');
  writeFileSync(file, fig1);
  const { runner, frame, press, waitFor } = open(fig1, file);
  await until(() => runner.jobs.length === 1, frame);
  await press('S');
  await waitFor(/nothing to save/);
  t.false(existsSync(join(dir, 'fig1.edited.c')));
  runner.current.post({ type: 'cutpoints', points: [{ line: 7, col: 5 }] });
  await waitFor(/ 7  C /);
  await press('a');
  await waitFor(/assert after line 7: _/);
  await press('x < 100\r');
  await waitFor(/assertion added after line 7/);
  await press('S');
  await waitFor(/saved .*fig1\.edited\.c/);
  const saved = readFileSync(join(dir, 'fig1.edited.c'), 'utf8');
  t.regex(saved, /x = x \+ y;\n\s+assert\(x < 100\);\n/);
  t.is(readFileSync(file, 'utf8'), fig1, 'the original is untouched');
  await press('S');
  await waitFor(/nothing to save/);
  // Another edit: the first copy exists, so the next one is FILE.edited.1.c.
  await press('a');
  await waitFor(/assert after line \d+: _/);
  await press('y > -100\r');
  await waitFor(/assertion added/);
  await press('S');
  await waitFor(/saved .*fig1\.edited\.1\.c/);
  t.regex(readFileSync(join(dir, 'fig1.edited.1.c'), 'utf8'), /assert\(y > -100\);/);
  t.is(readFileSync(join(dir, 'fig1.edited.c'), 'utf8'), saved);
});

test('edited names: FILE.edited.c, then .1, .2 before the extension; a name without .c/.i gets .c', (t) => {
  t.is(editedName('a/b/prog.c', 0), join('a/b', 'prog.edited.c'));
  t.is(editedName('a/b/prog.c', 2), join('a/b', 'prog.edited.2.c'));
  t.is(editedName('prog.i', 1), 'prog.edited.1.i');
  t.is(editedName('task', 0), 'task.edited.c');
});

test('the footer: the focused pane\'s keys and the mode\'s first, as many whole items as fit one line', (t) => {
  const modes = MODES.map((m) => ({ key: m.key, id: m.id }));
  const wp = keyHint({ modes, mode: 'wp', focus: 'result', columns: 200 });
  t.regex(wp, /^\? keys {2}q quit {2}\[result\] PgUp\/PgDn H\/G scroll {2}Tab pane {2}g strategy {2}v w s b C N modes/);
  t.regex(keyHint({ modes, mode: 'verify', focus: 'source', columns: 200 }), /\[source\] PgUp\/PgDn H\/G scroll {2}< > sideways {2}Tab pane {2}↑↓ cut-point {2}i pin {2}W witness/);
  t.regex(keyHint({ modes, mode: 'sp', focus: 'result', columns: 200 }), /l sp-at/);
  for (const columns of [40, 60, 80, 120]) {
    const hint = keyHint({ modes, mode: 'cex', focus: 'trace', columns });
    t.true(hint.length <= columns, hint);
    t.regex(hint, /^\? keys {2}q quit/);
    t.notRegex(hint, / $/);
  }
});

/** A terminal-like output stream: what ink and the UI write to it, in order. */
class TtyOutput extends EventEmitter {
  readonly isTTY = true;
  readonly columns = 80;
  readonly rows = 24;
  readonly writes: string[] = [];
  write = (text: string) => {
    this.writes.push(text);
    return true;
  };
}

class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => null;
}

test.serial('on a terminal the UI draws on the alternate screen, entered before the first frame and left after the last', async (t) => {
  const out = new TtyOutput();
  const runner = new FakeRunner();
  const app = inkRender(<App file="fig1.c" source={fig1} modes={MODES} runner={runner} color={false} />, { stdout: out as unknown as NodeJS.WriteStream, stdin: new FakeStdin() as unknown as NodeJS.ReadStream, patchConsole: false, exitOnCtrlC: false });
  // A real ink instance keeps the process alive (its spinner re-renders) until unmounted: unmount it
  // even when an assertion fails, or the test process never ends.
  t.teardown(() => app.unmount());
  await until(() => runner.jobs.length === 1, () => out.writes.join(''));
  t.is(out.writes[0], ENTER_ALTERNATE_SCREEN, 'nothing is drawn before the switch');
  t.false(out.writes.some((w) => w.includes(LEAVE_ALTERNATE_SCREEN)));
  app.unmount();
  await app.waitUntilExit();
  const left = out.writes.findIndex((w) => w.includes(LEAVE_ALTERNATE_SCREEN));
  t.true(left > 0, 'left at unmount');
  // Where CI is set in the environment, ink draws only the last frame, at unmount: either way the
  // frames are drawn between the switch and the way back.
  t.true(out.writes.slice(1, left).some((w) => w.includes('Source fig1.c')), 'frames are drawn on the alternate screen');
  t.false(out.writes.slice(left + 1).some((w) => w.includes('Source')), 'no frame is drawn on the normal screen');
  t.is(out.writes.filter((w) => w.includes(LEAVE_ALTERNATE_SCREEN)).length, 1);
});

test.serial('without a terminal (tests, pipes) the screen is not switched', async (t) => {
  const { runner, ui, frame } = open();
  await until(() => runner.jobs.length === 1, frame);
  ui.unmount();
  t.false(ui.frames.some((f) => f.includes(ENTER_ALTERNATE_SCREEN) || f.includes(LEAVE_ALTERNATE_SCREEN)));
});
