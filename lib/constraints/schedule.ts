// Search schedules: which template shapes and bit widths to try, in order (data files in templates/).
// A user picks one by name (a file in the package's templates/ folder) or by path.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { InputError } from '../diagnostics.js';
import type { Widths } from './system.js';
import type { TemplateShape } from './template.js';

export interface ScheduleStep {
  readonly shape: TemplateShape;
  readonly widths: Widths;
  /** Time limit of this step's SAT solve in milliseconds (else none but the user's --timeout). */
  readonly timeLimitMs?: number;
  /** Conflict budget of this step's SAT solve (else the caller's, from lib/limits.ts). */
  readonly conflicts?: number;
  /** Propagation budget of this step's SAT solve (else the caller's, from lib/limits.ts). */
  readonly propagations?: number;
  /** Pre/post pairs per recursive procedure (paper 004, Section 3; default 1). */
  readonly summaries?: number;
}

export interface Schedule {
  readonly name: string;
  readonly description: string;
  readonly steps: readonly ScheduleStep[];
}

export const DEFAULT_SCHEDULE = 'paper';

/** The package's templates/ folder: the nearest one above this module, which is compiled to
 * dist/lib/constraints/ and also bundled into the command line's dist/bin/ (scripts/bundle-cli.ts). */
export function templatesDir(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, 'templates');
    if (existsSync(join(candidate, `${DEFAULT_SCHEDULE}.yaml`))) return candidate;
    if (dirname(dir) === dir) throw new Error(`farkas: no templates/ folder above ${start}`);
  }
}

export function listSchedules(): string[] {
  return readdirSync(templatesDir())
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

/** Loads a schedule by name (templates/NAME.yaml) or by file path. */
export function loadSchedule(nameOrFile: string = DEFAULT_SCHEDULE): Schedule {
  const byName = join(templatesDir(), `${nameOrFile}.yaml`);
  const file = /^[A-Za-z0-9_-]+$/.test(nameOrFile) && existsSync(byName) ? byName : nameOrFile;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new InputError('error', `unknown template schedule '${nameOrFile}' (built-in: ${listSchedules().join(', ')}; or give a YAML file)`, null);
  }
  return parseSchedule(text, file);
}

export function parseSchedule(text: string, file: string): Schedule {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (e) {
    throw new InputError('error', `${file}: not valid YAML: ${(e as Error).message.split('\n')[0]}`, null);
  }
  const fail = (what: string): never => {
    throw new InputError('error', `${file}: ${what}`, null);
  };
  if (typeof data !== 'object' || data === null) fail('expected a mapping with a "steps" list');
  const obj = data as Record<string, unknown>;
  if (!Array.isArray(obj.steps) || obj.steps.length === 0) fail('"steps" must be a non-empty list');
  const int = (v: unknown, field: string, index: number, min: number, max: number): number => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(`step ${index + 1}: "${field}" must be an integer from ${min} to ${max}`);
    return v as number;
  };
  const steps = (obj.steps as unknown[]).map((s, i): ScheduleStep => {
    if (typeof s !== 'object' || s === null) fail(`step ${i + 1} must be a mapping`);
    const r = s as Record<string, unknown>;
    const timeout = r.timeout === undefined ? undefined : int(r.timeout, 'timeout', i, 1, 86400);
    const conflicts = r.conflicts === undefined ? undefined : int(r.conflicts, 'conflicts', i, 1, 2 ** 40);
    const propagations = r.propagations === undefined ? undefined : int(r.propagations, 'propagations', i, 1, 2 ** 50);
    const summaries = r.summaries === undefined ? undefined : int(r.summaries, 'summaries', i, 1, 8);
    return {
      ...(timeout !== undefined ? { timeLimitMs: timeout * 1000 } : {}),
      ...(conflicts !== undefined ? { conflicts } : {}),
      ...(propagations !== undefined ? { propagations } : {}),
      ...(summaries !== undefined ? { summaries } : {}),
      shape: { disjuncts: int(r.disjuncts, 'disjuncts', i, 1, 8), conjuncts: int(r.conjuncts, 'conjuncts', i, 1, 12) },
      widths: {
        coefficient: int(r.coefficient, 'coefficient', i, 1, 32),
        constant: int(r.constant, 'constant', i, 1, 64),
        multiplier: int(r.multiplier, 'multiplier', i, 1, 32),
      },
    };
  });
  return {
    name: typeof obj.name === 'string' ? obj.name : file,
    description: typeof obj.description === 'string' ? obj.description : '',
    steps,
  };
}
