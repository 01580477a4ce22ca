// Options shared by several commands.
import { Option } from 'commander';
import { InputError, resolveSettings, type Settings } from '../lib/index.js';
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

/** The command's one clock (lib/settings.ts): `defaultSeconds` where the command has a default. */
export function timeoutOption(defaultSeconds?: number): Option {
  const option = new Option('--timeout <seconds>', 'bound on the whole command; past it the answer is unknown (timeout)');
  return defaultSeconds === undefined ? option : option.default(String(defaultSeconds));
}

export function backendOption(): Option {
  return new Option('-b, --backend <spec>', "SAT back end: 'auto' (the embedded MiniSat, raced on large steps by cadical or kissat when on PATH), 'minisat' (embedded only), 'z3', or 'dimacs:CMD' (an external DIMACS solver)")
    .default('auto');
}

/** What of a command's options makes its settings (lib/settings.ts); each absent where the command
 * has no such option. */
export interface SettingsCliOptions {
  timeout?: string;
  backend?: string;
  template?: string;
  cutset?: string;
  stepTimeout?: string;
  stepConflicts?: string;
  stepPropagations?: string;
  queryTimeout?: string;
  queryConflicts?: string;
  queryPropagations?: string;
}

/** The command's settings: the one place the command line turns --timeout (and the other limits)
 * into what the library reads. Bad values are the user's input errors. */
export function commandSettings(opts: SettingsCliOptions): Settings {
  const ms = (text: string | undefined, option: string) => (text === undefined ? undefined : parseSeconds(text, option) * 1000);
  const count = (text: string | undefined, option: string) => (text === undefined ? undefined : parseCount(text, option));
  const defined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  return resolveSettings(defined({
    timeoutMs: ms(opts.timeout, '--timeout'),
    backend: opts.backend,
    schedule: opts.template,
    cutset: opts.cutset as 'paths' | 'headers' | undefined,
    stepTimeLimitMs: ms(opts.stepTimeout, '--step-timeout'),
    stepConflicts: count(opts.stepConflicts, '--step-conflicts'),
    stepPropagations: count(opts.stepPropagations, '--step-propagations'),
    queryTimeLimitMs: ms(opts.queryTimeout, '--query-timeout'),
    queryConflicts: count(opts.queryConflicts, '--query-conflicts'),
    queryPropagations: count(opts.queryPropagations, '--query-propagations'),
  }));
}

