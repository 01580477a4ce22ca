// Runs one `farkas verify` in a child process with a hard deadline. The child gets its own process
// group so that a kill also reaches anything it started (an external DIMACS solver), and a stuck
// solver can never hang the benchmark run.
import { spawn } from 'node:child_process';
import type { Cutset } from './tasks.js';

export interface CliInvocation {
  /** The command that stands for `farkas`, e.g. `['node', '/repo/dist/cli/main.js']`. */
  readonly command: readonly string[];
  readonly file: string;
  readonly cutset: Cutset;
  /** Passed to the CLI as `--timeout`. */
  readonly timeoutSeconds: number;
  /** The child is killed this long after the timeout if it has not exited by itself. */
  readonly killGraceSeconds: number;
  readonly function?: string;
  readonly backend?: string;
  readonly template?: string;
  /** Passed to the CLI as `--jobs` (its portfolio's worker threads); absent: the CLI's default. */
  readonly verifyJobs?: number;
  /** Passed to the CLI as `--property` (absent: the CLI's default, unreach-call). */
  readonly property?: string;
  readonly cwd?: string;
  /** Arguments after the command instead of `verify FILE --json …` (e.g. for the Spacer baseline). */
  readonly args?: readonly string[];
}

export interface CliOutcome {
  /** Exit code, or null when the process died of a signal. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when the harness killed the child at the hard deadline. */
  readonly killed: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMillis: number;
  /** Set when the command could not be started at all (missing executable, …). */
  readonly spawnError?: string;
}

/** Output beyond this is dropped: a runaway child must not exhaust the harness's memory. */
const MAX_CAPTURE_BYTES = 16 * 1024 * 1024;

/** The argument list after the command: `verify FILE --json --timeout S --cutset C [...]`. */
export function verifyArguments(inv: CliInvocation): string[] {
  const args = ['verify', inv.file, '--json', '--timeout', String(inv.timeoutSeconds), '--cutset', inv.cutset];
  if (inv.function !== undefined) args.push('--function', inv.function);
  if (inv.backend !== undefined) args.push('--backend', inv.backend);
  if (inv.template !== undefined) args.push('--template', inv.template);
  if (inv.verifyJobs !== undefined) args.push('--jobs', String(inv.verifyJobs));
  if (inv.property !== undefined) args.push('--property', inv.property);
  return args;
}

/**
 * Splits a command line into words: whitespace separates, single and double quotes group, a
 * backslash outside single quotes escapes the next character. No expansion of any kind.
 */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote !== null) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) current += text[++i];
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      current += text[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote !== null) throw new Error(`unterminated ${quote} quote in command: ${text}`);
  if (inWord) words.push(current);
  return words;
}

class Capture {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  add(chunk: Buffer): void {
    if (this.size >= MAX_CAPTURE_BYTES) {
      this.truncated = true;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

export function runCli(inv: CliInvocation): Promise<CliOutcome> {
  const [program, ...prefix] = inv.command;
  if (program === undefined) return Promise.reject(new Error('empty CLI command'));
  // `node` means the node running the harness, so the benchmark does not depend on PATH.
  const executable = program === 'node' ? process.execPath : program;
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const child = spawn(executable, [...prefix, ...(inv.args ?? verifyArguments(inv))], {
      cwd: inv.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = new Capture();
    const stderr = new Capture();
    child.stdout.on('data', (c: Buffer) => stdout.add(c));
    child.stderr.on('data', (c: Buffer) => stderr.add(c));
    let exited = false;
    let killed = false;
    let spawnError: string | undefined;
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const deadline = setTimeout(() => {
      // Past the deadline: a child that is still running is stuck; one that has exited may have left
      // descendants holding its output pipes open, which the group kill releases.
      if (!exited) killed = true;
      killGroup();
    }, (inv.timeoutSeconds + inv.killGraceSeconds) * 1000);
    child.on('exit', () => {
      exited = true;
    });
    child.on('error', (e) => {
      spawnError = e.message;
    });
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      resolvePromise({
        exitCode: code,
        signal,
        killed,
        stdout: stdout.text(),
        stderr: stderr.text() + (stdout.truncated || stderr.truncated ? '\n[output truncated by the benchmark harness]' : ''),
        wallMillis: Math.round(performance.now() - started),
        ...(spawnError !== undefined ? { spawnError } : {}),
      });
    });
  });
}
