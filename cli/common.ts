// Shared CLI plumbing: reading a program file, turning user errors into diagnostics and exit codes.
import { readFileSync } from 'node:fs';
import { InputError, WorkLimitExceeded } from '../lib/index.js';
import { EXIT } from './exit-codes.js';

export function readSource(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new InputError('error', `cannot read ${file} (${code})`, null);
  }
}

/**
 * Runs a command body; an InputError becomes `file:line:col: error: …` on stderr and exit 3,
 * anything else an internal error (exit 4) with the message but no stack unless FARKAS_DEBUG is set.
 */
export async function runCommand(body: () => Promise<number> | number): Promise<never> {
  let code: number;
  try {
    code = await body();
  } catch (e) {
    if (e instanceof InputError) {
      process.stderr.write(e.message + '\n');
      code = EXIT.INPUT_ERROR;
    } else if (e instanceof WorkLimitExceeded) {
      // A resource limit no search step caught (e.g. exporting a system too large to build).
      process.stderr.write(`farkas: unknown: ${e.message}\n`);
      code = EXIT.UNKNOWN;
    } else {
      const msg = e instanceof Error ? e.message : String(e);
      process.stderr.write(`farkas: internal error: ${msg}\n`);
      if (process.env.FARKAS_DEBUG && e instanceof Error) process.stderr.write(`${e.stack}\n`);
      code = EXIT.INTERNAL_ERROR;
    }
  }
  // Solver worker threads and z3's WASM threads must not keep the process alive.
  process.exit(code);
}

/** Parses `name=value` pairs of integers. */
export function parseAssignments(pairs: readonly string[]): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const p of pairs) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(-?\d+)$/.exec(p.trim());
    if (!m) throw new InputError('error', `expected name=integer, got '${p}'`, null);
    out.set(m[1]!, BigInt(m[2]!));
  }
  return out;
}

/** Parses a comma-separated list of integers. */
export function parseIntegerList(text: string): bigint[] {
  if (text.trim() === '') return [];
  return text.split(',').map((t) => {
    if (!/^\s*-?\d+\s*$/.test(t)) throw new InputError('error', `expected a comma-separated list of integers, got '${text}'`, null);
    return BigInt(t.trim());
  });
}
