// Output files are checked before any analysis (issue 20): a path that cannot be written is an input
// error at once (exit 3, with the path and the reason), not an internal error after minutes of work.
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from '../lib/index.js';

function reasonOf(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'no such directory' : code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'permission denied' : code ?? 'not writable';
}

/** Throws an InputError unless a file can be created or overwritten at `path` (`option` names the flag). */
export function checkOutputFile(path: string, option: string): void {
  const absolute = resolve(path);
  let existing: ReturnType<typeof statSync> | undefined;
  try {
    existing = statSync(absolute);
  } catch {
    existing = undefined;
  }
  if (existing?.isDirectory()) throw new InputError('error', `${option}: cannot write ${path} (it is a directory)`, null);
  try {
    accessSync(existing ? absolute : dirname(absolute), constants.W_OK);
  } catch (e) {
    throw new InputError('error', `${option}: cannot write ${path} (${reasonOf(e)})`, null);
  }
  if (!existing && !statSync(dirname(absolute)).isDirectory()) throw new InputError('error', `${option}: cannot write ${path} (no such directory)`, null);
}

/** Throws an InputError unless `dir` is a writable directory. */
export function checkOutputDirectory(dir: string, option: string): void {
  try {
    if (!statSync(dir).isDirectory()) throw new InputError('error', `${option}: ${dir} is not a directory`, null);
    accessSync(dir, constants.W_OK);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError('error', `${option}: cannot write into ${dir} (${reasonOf(e)})`, null);
  }
}
