// Options shared by several commands.
import { Option } from 'commander';
import { InputError } from '../lib/diagnostics.js';

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
