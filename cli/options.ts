// Options shared by several commands.
import { Option } from 'commander';
import { InputError } from '../lib/diagnostics.js';

export function cutsetOption(): Option {
  return new Option('-c, --cutset <strategy>', "cut-set: 'paths' (Theorem 1: one cut-point per loop-body path) or 'headers' (loop headers)")
    .choices(['paths', 'headers'])
    .default('paths');
}

export function parseSeconds(text: string, option: string): number {
  if (!/^\d+(\.\d+)?$/.test(text.trim())) throw new InputError('error', `${option} expects a number of seconds, got '${text}'`, null);
  const s = Number(text);
  if (!(s > 0)) throw new InputError('error', `${option} must be positive`, null);
  return s;
}
