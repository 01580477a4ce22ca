import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, splitCommand, verifyArguments } from './cli-process.js';
import { fakeProgram, writeFakeCli } from './testing/fake-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'farkas-cli-process-'));
const fake = writeFakeCli(dir);
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function program(name: string, spec: object): string {
  const path = join(dir, name);
  writeFileSync(path, fakeProgram(spec));
  return path;
}

/** Running, as opposed to gone or a zombie that nobody has reaped yet (e.g. no reaping init in a container). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

test('splitCommand splits on blanks and honours quotes and escapes', (t) => {
  t.deepEqual(splitCommand('node dist/cli/main.js'), ['node', 'dist/cli/main.js']);
  t.deepEqual(splitCommand(`  node "my dir/main.js" 'a b' c\\ d ""`), ['node', 'my dir/main.js', 'a b', 'c d', '']);
  t.throws(() => splitCommand('node "open'), { message: /unterminated/ });
});

test('verifyArguments passes the options farkas verify understands, and only those given', (t) => {
  const base = { command: ['x'], file: 'f.c', cutset: 'headers' as const, timeoutSeconds: 30, killGraceSeconds: 5 };
  t.deepEqual(verifyArguments(base), ['verify', 'f.c', '--json', '--timeout', '30', '--cutset', 'headers']);
  t.deepEqual(verifyArguments({ ...base, function: 'PV1', backend: 'z3', template: 'conjunctive' }).slice(7), ['--function', 'PV1', '--backend', 'z3', '--template', 'conjunctive']);
  t.deepEqual(verifyArguments({ ...base, property: 'no-overflow' }).slice(7), ['--property', 'no-overflow']);
  t.deepEqual(verifyArguments({ ...base, verifyJobs: 1 }).slice(7), ['--jobs', '1']);
});

test('runCli captures exit code, stdout and stderr of the child', async (t) => {
  const file = program('ok.c', { exit: 2, verdict: 'unknown', reason: 'r', stderr: 'progress\n' });
  const o = await runCli({ command: fake, file, cutset: 'paths', timeoutSeconds: 30, killGraceSeconds: 5, function: 'g' });
  t.is(o.exitCode, 2);
  t.false(o.killed);
  t.is(o.stderr, 'progress\n');
  const json = JSON.parse(o.stdout);
  t.is(json.verdict, 'unknown');
  t.deepEqual(json.args, ['verify', file, '--json', '--timeout', '30', '--cutset', 'paths', '--function', 'g']);
});

test('runCli kills a stuck child and everything it started at timeout + grace', async (t) => {
  const pidFile = join(dir, 'grandchild.pid');
  const file = program('hang.c', { hang: true, grandchild: pidFile });
  const o = await runCli({ command: fake, file, cutset: 'paths', timeoutSeconds: 0.5, killGraceSeconds: 0.5 });
  t.true(o.killed);
  t.is(o.exitCode, null);
  t.is(o.signal, 'SIGKILL');
  t.true(existsSync(pidFile), 'the fake started its grandchild before the kill');
  const grandchild = Number(readFileSync(pidFile, 'utf8'));
  // SIGKILL delivery to the group is asynchronous only in bookkeeping; give the kernel a moment.
  for (let i = 0; i < 50 && isAlive(grandchild); i++) await new Promise((r) => setTimeout(r, 20));
  const alive = isAlive(grandchild);
  if (alive) process.kill(grandchild, 'SIGKILL');
  t.false(alive, 'the grandchild died with its process group');
});

test('runCli reports a command that cannot start', async (t) => {
  const o = await runCli({ command: [join(dir, 'no-such-farkas')], file: 'f.c', cutset: 'paths', timeoutSeconds: 1, killGraceSeconds: 1 });
  t.regex(o.spawnError ?? '', /ENOENT/);
});
