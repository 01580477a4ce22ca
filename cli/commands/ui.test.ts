// `farkas ui`: the real program in a pseudo-terminal (tmux), and the plain fallback without one.
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FARKAS_BIN } from '../testing/farkas-bin.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const main = FARKAS_BIN;
const hasTmux = spawnSync('tmux', ['-V']).status === 0;
const socket = `farkas-ui-test-${process.pid}`;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
}
const screen = () => tmux('capture-pane', '-p', '-t', 'ui');
async function waitFor(re: RegExp, limitMs = 120_000): Promise<string> {
  const end = Date.now() + limitMs;
  for (;;) {
    const text = screen();
    if (re.test(text)) return text;
    if (Date.now() > end) throw new Error(`${re} not on screen:\n${text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
async function keys(...k: string[]): Promise<void> {
  for (const key of k) {
    tmux('send-keys', '-t', 'ui', key);
    await new Promise((r) => setTimeout(r, 150));
  }
}
async function type(text: string): Promise<void> {
  tmux('send-keys', '-t', 'ui', '-l', text);
  await new Promise((r) => setTimeout(r, 150));
}

test.after.always(() => {
  if (hasTmux) spawnSync('tmux', ['-L', socket, 'kill-server']);
});

(hasTmux ? test : test.skip)('end to end in a terminal: Fig. 1 invariant, wp on Fig. 4(a), a counterexample on Fig. 10 stepped, quit ends the workers', async (t) => {
  const exportDir = mkdtempSync(join(tmpdir(), 'farkas-ui-e2e-'));
  t.teardown(() => rmSync(exportDir, { recursive: true, force: true }));
  tmux('new-session', '-d', '-s', 'ui', '-x', '80', '-y', '24', '-c', root, `env -u CI -u CONTINUOUS_INTEGRATION NO_COLOR=1 ${JSON.stringify(process.execPath)} ${JSON.stringify(main)} benchmarks/paper/fig1.c --export-dir ${JSON.stringify(exportDir)}; r=$?; echo; echo "EXIT=$r"; sleep 600`);
  const fig1 = await waitFor(/x <= 0/);
  t.regex(fig1, /safe \(certified by z3\)/);
  t.regex(fig1, /1 1x2\s+3\/\d+\/1\s+\d+\s+\d+\s+\d+\s+sat/);
  await waitFor(/constraint\/SAT\s+safe/);
  t.false(fig1.includes('\x1b'), 'no escape codes on the captured screen');
  await keys('i');
  await waitFor(/pinned \(this one\)/);
  await keys('W');
  await waitFor(/exported .*fig1\.witness\.yml/);
  t.regex(readFileSync(join(exportDir, 'fig1.witness.yml'), 'utf8'), /type: loop_invariant[^]*format: c_expression/);

  await keys('o');
  await waitFor(/open file: _/);
  await type('benchmarks/conditions/wp1.c');
  await keys('Enter');
  await waitFor(/while \(x <= 100\)/);
  await keys('w');
  const wp = await waitFor(/2\. i (<= 0|>= j)/);
  t.regex(wp, /1\. i (<= 0|>= j) {2}\[certified\]/);

  // Fig. 10 (Bug1) in cex mode: the most-general search takes minutes, but the first failing input the
  // library finds is shown at once, replayed by the interpreter, and stepped on the source.
  await keys('o');
  await waitFor(/open file: _/);
  await type('benchmarks/conditions/bug1.c');
  await keys('Enter', 'C');
  const cex = await waitFor(/step 1\/\d+ {2}line 3/);
  t.regex(cex, /mode cex/);
  t.regex(cex, /concrete counterexample \(replayed\):/);
  t.regex(cex, /searching most-general conditions/);
  const [, y, n] = /y=(\d+), n=(\d+) fails at line 7/.exec(cex) ?? [];
  t.truthy(y && n, cex);
  t.true(Number(y) >= 1 && Number(y) <= 8 && Number(n) > 200, `y=${y} n=${n} is inside Bug1's failing region`);
  // call, x = 0, if, while, then the assertion on line 7 (x is still 0 there).
  await keys('n', 'n', 'n', 'n');
  const atAssert = await waitFor(/step 5\/\d+ {2}line 7/);
  t.regex(atAssert, />\s*7 {2}A\s+assert\(x < 200\);/, 'the source pane marks the assertion\'s line');
  t.regex(atAssert, new RegExp(`y=${y} n=${n} x=0`));
  // To the last step: the assertion fails with x past 199.
  const total = Number(/step 5\/(\d+)/.exec(atAssert)![1]);
  await type('n'.repeat(total - 5));
  const failed = await waitFor(new RegExp(`step ${total}/${total} {2}line 7 {2}assertion`));
  t.regex(failed, />\s*7 {2}A\s+assert\(x < 200\);/);
  const x = Number(new RegExp(`y=${y} n=${n} x=(\\d+)`).exec(failed)?.[1]);
  t.true(x >= 200 && x < 200 + Number(y), failed);

  const uiPid = tmux('list-panes', '-t', 'ui', '-F', '#{pane_pid}').trim();
  const shellChildren = spawnSync('pgrep', ['-P', uiPid], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
  await keys('q');
  await waitFor(/EXIT=0/, 20_000);
  // Every analysis worker of that UI process was killed with it.
  for (const pid of shellChildren) {
    const left = spawnSync('pgrep', ['-f', '--', `--ui-parent=${pid}`], { encoding: 'utf8' }).stdout.trim();
    t.is(left, '', `analysis workers of UI process ${pid} still running`);
  }
});

test('without a terminal, farkas FILE and farkas ui FILE print the verify output', (t) => {
  for (const args of [['benchmarks/literature/off-by-one.c'], ['ui', 'benchmarks/literature/off-by-one.c']]) {
    const r = spawnSync(process.execPath, [main, ...args], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    t.is(r.status, 1, r.stderr);
    t.regex(r.stdout, /off-by-one\.c: function off_by_one: unsafe/);
    t.regex(r.stdout, /counterexample: n=\d+/);
  }
});

test('farkas ui on a bad program is a positioned input error before any screen', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'farkas-ui-'));
  const file = join(dir, 'bad.c');
  writeFileSync(file, 'int main() {\n  int x = ;\n}\n');
  const r = spawnSync(process.execPath, [main, 'ui', file], { encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  t.is(r.status, 3);
  t.regex(r.stderr, /bad\.c:2:\d+: error:/);
  t.is(r.stdout, '');
});
