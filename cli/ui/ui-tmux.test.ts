// End to end in a real terminal (tmux, 120x40): every mode's key shows live progress or an answer,
// a mode left mid-run leaves nothing running behind, and quitting restores the screen as it was
// (the UI drew on the alternate screen). Every wait polls the screen with a generous limit: the
// machine may be shared and slow, and no assertion is about how long anything took.
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FARKAS_BIN } from '../testing/farkas-bin.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const main = FARKAS_BIN;
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const socket = `farkas-ui-tmux-${process.pid}`;
const TITLE = 'in tmux: each mode shows progress or an answer, a mode left mid-run leaves nothing running, q restores the screen';
/** The most any one wait polls for (a loaded 2-core machine runs several test files at once). */
const WAIT_LIMIT_MS = 90_000;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
}
const screenOf = (session: string) => tmux('capture-pane', '-p', '-t', session);

/** Polls the screen until `check` holds on it; fails with the last screen after WAIT_LIMIT_MS. */
async function waitFor(what: string, check: (text: string) => boolean, session = 'ui'): Promise<string> {
  const end = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    const text = screenOf(session);
    if (check(text)) return text;
    if (Date.now() > end) throw new Error(`not on screen within ${WAIT_LIMIT_MS / 1000} s: ${what}\n${text}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
const waitForText = (re: RegExp, session = 'ui') => waitFor(String(re), (text) => re.test(text), session);
/** The header names the mode and the screen shows that mode's own progress or answer. */
const waitForMode = (mode: string, progress: RegExp, session = 'ui') =>
  waitFor(`mode ${mode}: ${progress}`, (text) => new RegExp(`^farkas .* mode ${mode}\\b`, 'm').test(text) && progress.test(text), session);

async function press(key: string, session = 'ui'): Promise<void> {
  tmux('send-keys', '-t', session, key);
  // Keys apart: a chunk of several is handled as one typed chunk (still one command each).
  await new Promise((r) => setTimeout(r, 200));
}

/** Each mode's live progress (phases, rows) or answer on fig1.c: text only that mode shows. */
const PROGRESS: Readonly<Record<string, RegExp>> = {
  verify: /cut-points, \d+ VCs|\d 1x2\s+3\/\d+\/1|x <= 0/,
  wp: /running: .*sampled \d+ passing|answer: |preconditions of PV1/,
  sp: /reached states at line|certifying |replayed witness against|strongest postcondition of PV1/,
  bounds: /concrete runs \(\d+ did not return\)|line 6(, at most|: proving at most)/,
  cex: /sampled \d+ passing, \d+ failing|\d conj\s+\d|failing condition/,
  nonterm: /line 6, at most|sampled \d+ passing|PV1: (terminates|non-terminating|unknown)/,
};

test.after.always(() => {
  if (hasTmux) spawnSync('tmux', ['-L', socket, 'kill-server']);
});

if (!hasTmux) console.warn(`ui-tmux.test: skipped: tmux is not installed ('tmux -V' failed)`);

// Serial: each test drives a UI whose analyses use both cores.
(hasTmux ? test.serial : test.skip)(TITLE, async (t) => {
  t.timeout(20 * 60_000, 'every wait has its own limit; this only ends a hung test');
  tmux('new-session', '-d', '-s', 'ui', '-x', '120', '-y', '40', '-c', root,
    `printf 'BEFORE-UI-MARKER\\n'; env -u CI -u CONTINUOUS_INTEGRATION NO_COLOR=1 ${JSON.stringify(process.execPath)} ${JSON.stringify(main)} ui benchmarks/paper/fig1.c; echo "UI-EXIT=$?"; sleep 600`);
  const first = await waitForMode('verify', PROGRESS.verify!);
  t.false(first.includes('BEFORE-UI-MARKER'), 'the UI draws on the alternate screen');
  t.is(tmux('display-message', '-p', '-t', 'ui', '#{alternate_on}').trim(), '1');
  t.regex(first, /\? keys {2}q quit {2}\[result\] PgUp\/PgDn H\/G scroll/, 'the footer shows the focused pane\'s keys');

  // A pin, then the other cut-set: line 7 has no cut-point with loop headers, so the pin goes (the
  // footer says so) and verify re-runs without it to a certified answer at the header, line 6.
  await waitForMode('verify', /line 7:5: x <= 0/);
  await press('i');
  await waitForText(/pinned line 7: x <= 0/);
  await press('c');
  await waitForText(/unpinned line 7: no cut-point there with cut-set headers/);
  await waitFor('verify safe at line 6 with cut-set headers', (text) => /cut-set headers/.test(text) && /safe \(certified by z3\)[\s\S]*line 6:3: /.test(text));
  await press('c');
  await waitForText(/cut-set paths/);

  for (const [key, mode] of [['w', 'wp'], ['s', 'sp'], ['b', 'bounds'], ['C', 'cex'], ['N', 'nonterm']] as const) {
    await press(key);
    const shown = await waitForMode(mode, PROGRESS[mode]!);
    t.regex(shown, /^│ (running|finished)/m, `${mode}: the Search pane is live`);
  }

  // nonterm runs for minutes on fig1.c: leave it (and bounds, once its proof runs) mid-run for wp,
  // which ends; then nothing may be left running or solving on the screen.
  await press('b');
  await waitForMode('bounds', /line 6, at most .*: step \d+ of \d+/);
  await press('w');
  const done = await waitFor('wp finished', (text) => /^farkas .* mode wp\b/m.test(text) && /finished: done in/.test(text));
  t.notRegex(done, /solving|\brunning\b/, 'no row or engine of an earlier run is still shown running');
  t.notRegex(done, /at most|conj .*solving/, 'no row of the runs left mid-run');
  t.notRegex(done, /Search {2}[\d.]+ s [|/\\-] /, 'no spinner on the Search pane');

  const uiPid = tmux('list-panes', '-t', 'ui', '-F', '#{pane_pid}').trim();
  const shellChildren = spawnSync('pgrep', ['-P', uiPid], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
  await press('q');
  const after = await waitForText(/UI-EXIT=0/);
  // The normal screen as it was: the line printed before the UI, then the shell's output, and no
  // frame of the UI on it or in its scrollback.
  t.regex(after, /BEFORE-UI-MARKER\n(\s*\n)*UI-EXIT=0/);
  t.notRegex(after, /┌─|farkas {2}benchmarks/);
  t.is(tmux('display-message', '-p', '-t', 'ui', '#{alternate_on}').trim(), '0');
  t.notRegex(tmux('capture-pane', '-p', '-t', 'ui', '-S', '-1000'), /┌─ Source/);
  for (const pid of shellChildren) {
    const left = spawnSync('pgrep', ['-f', '--', `--ui-parent=${pid}`], { encoding: 'utf8' }).stdout.trim();
    t.is(left, '', `analysis workers of UI process ${pid} still running`);
  }
});

/** Each mode's answer on benchmarks/conditions/bound-ten.c (`assert(i <= 10)` after counting to n),
 * where every mode ends within seconds. */
const ANSWER: Readonly<Record<string, RegExp>> = {
  verify: /counterexample: n=11; fails at line 6/,
  wp: /1\. n <= 10 +\[certified\]/,
  sp: /strongest postcondition of boundTen[\s\S]*\[certified\]/,
  bounds: /line 4: at most n +\[certified\]/,
  cex: /1\. n >= 11 +\[certified\]/,
  nonterm: /boundTen: terminates/,
};
/** A run shown in the Search pane, going on or finished: the first sign of progress after a key. */
const SEARCH_LIVE = /^│ (running|finished)/m;

(hasTmux ? test.serial : test.skip)('in tmux: every mode answers on bound-ten.c; the trace, the e prompt and S work on a real terminal', async (t) => {
  t.timeout(20 * 60_000, 'every wait has its own limit; this only ends a hung test');
  const dir = mkdtempSync(join(tmpdir(), 'farkas-ui-tmux-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'bound-ten.c');
  copyFileSync(join(root, 'benchmarks', 'conditions', 'bound-ten.c'), file);
  const session = 'answers';
  const started = Date.now();
  tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '40', '-c', dir,
    `env -u CI -u CONTINUOUS_INTEGRATION NO_COLOR=1 ${JSON.stringify(process.execPath)} ${JSON.stringify(main)} ui bound-ten.c; echo "UI-EXIT=$?"; sleep 600`);
  // How long until the first sign of progress is logged, not asserted: the machine may be loaded.
  await waitForMode('verify', SEARCH_LIVE, session);
  const firstProgress = [`verify ${Date.now() - started} ms (with start-up)`];
  await waitForMode('verify', ANSWER.verify!, session);

  // The counterexample's trace: G to its last step, H back to the first.
  await press('G', session);
  const last = await waitForText(/step (\d+)\/\1\b/, session);
  t.regex(last, /line 6/, 'the last step is the failing assertion');
  await press('H', session);
  await waitForText(/step 1\/\d+/, session);

  for (const [key, mode] of [['w', 'wp'], ['s', 'sp'], ['b', 'bounds'], ['C', 'cex'], ['N', 'nonterm']] as const) {
    const pressed = Date.now();
    await press(key, session);
    await waitForMode(mode, SEARCH_LIVE, session);
    firstProgress.push(`${mode} ${Date.now() - pressed} ms`);
    const answered = await waitForMode(mode, ANSWER[mode]!, session);
    t.notRegex(answered, /answers \d+\/\d+/, `${mode}: no progress bar is left once the run has ended`);
  }
  t.log(`first progress after each key: ${firstProgress.join(', ')}`);

  // e on a line with no assertion opens a prompt: a q typed next is its text, not quit.
  await press('v', session);
  await waitForMode('verify', ANSWER.verify!, session);
  await press('e', session);
  await waitForText(/assert after line \d+: _/, session);
  await press('q', session);
  await waitForText(/assert after line \d+: q_/, session);
  await press('Escape', session);
  await waitFor('the prompt closed', (text) => !/assert after line/.test(text), session);

  // An added assertion, then S: the edited program is saved beside the file, which stays as it was.
  await press('a', session);
  await waitForText(/assert after line \d+: _/, session);
  tmux('send-keys', '-t', session, '-l', 'n <= n');
  await press('Enter', session);
  await waitForText(/assertion added after line \d+/, session);
  await press('S', session);
  await waitForText(/bound-ten\.edited\.c/, session);
  t.true(existsSync(join(dir, 'bound-ten.edited.c')), 'saved');
  t.regex(readFileSync(join(dir, 'bound-ten.edited.c'), 'utf8'), /assert\(n <= n\);/);
  t.notRegex(readFileSync(file, 'utf8'), /n <= n/, 'the file read is not overwritten');

  await press('q', session);
  await waitForText(/UI-EXIT=0/, session);
});
