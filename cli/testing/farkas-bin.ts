// The program users run as `farkas`: package.json's bin (the bundle scripts/bundle-cli.ts builds),
// so that the command-line tests exercise it rather than tsc's unbundled output; and the one way the
// tests run it, in a child process, with its exit code and both outputs.
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };

export const FARKAS_BIN = join(ROOT, manifest.bin['farkas']!);

export interface CliRun {
  /** The exit code; null when the process died of a signal (or was killed at the time limit). */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliRunOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Killed after this long (default 240 s: a test's commands run beside others on a busy machine). */
  readonly timeoutMs?: number;
}

/** `farkas ARGS…` run to its end. */
export function farkas(args: readonly string[], options: CliRunOptions = {}): Promise<CliRun> {
  return new Promise((done) => {
    execFile(process.execPath, [FARKAS_BIN, ...args], {
      encoding: 'utf8',
      timeout: options.timeoutMs ?? 240_000,
      maxBuffer: 64 * 1024 * 1024,
      ...(options.env ? { env: options.env } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** The same, synchronously (for a test that runs one short command). */
export function farkasSync(args: readonly string[], options: CliRunOptions = {}): CliRun {
  const r = spawnSync(process.execPath, [FARKAS_BIN, ...args], { encoding: 'utf8', timeout: options.timeoutMs ?? 240_000, ...(options.env ? { env: options.env } : {}), ...(options.cwd ? { cwd: options.cwd } : {}) });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
