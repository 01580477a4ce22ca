// Options shared by several commands.
import { Option } from 'commander';
import { InputError } from '../lib/index.js';
import { CHECKER_CHOICES } from '../lib/start.js';

export function cutsetOption(): Option {
  return new Option('-c, --cutset <strategy>', "cut-set: 'paths' (Theorem 1: one cut-point per loop-body path) or 'headers' (loop headers)")
    .choices(['paths', 'headers'])
    .default('paths');
}

export function functionOption(): Option {
  return new Option('-f, --function <name>', 'function to analyse (default: main, else the last function)');
}

export function templateOption(): Option {
  return new Option('-t, --template <name|file>', 'template schedule: a name from templates/ or a YAML file').default('paper');
}

export function parseSeconds(text: string, option: string): number {
  if (!/^\d+(\.\d+)?$/.test(text.trim())) throw new InputError('error', `${option} expects a number of seconds, got '${text}'`, null);
  const s = Number(text);
  if (!(s > 0)) throw new InputError('error', `${option} must be positive`, null);
  return s;
}

/** A positive whole number of units of work (conflicts, steps), e.g. `--step-conflicts 100000`. */
export function parseCount(text: string, option: string): number {
  const trimmed = text.trim().replace(/_/g, '');
  if (!/^\d+$/.test(trimmed)) throw new InputError('error', `${option} expects a whole number, got '${text}'`, null);
  const n = Number(trimmed);
  if (!(n > 0) || !Number.isSafeInteger(n)) throw new InputError('error', `${option} must be a positive whole number below 2^53`, null);
  return n;
}

/** The checker's z3 (lib/certify/lia-solver.ts): read before the command runs (cli/early-start.ts),
 * so that z3 starts beside the command's set-up. */
export function checkerOption(): Option {
  return new Option('--checker <z3>', "the z3 that checks every answer: 'auto' (native z3 when it is on PATH, else the embedded WASM build), 'native' or 'wasm'")
    .choices([...CHECKER_CHOICES])
    .default('auto');
}
