// Benchmark task discovery: programs with a `NAME.expect.yaml` sidecar (this repository's own
// benchmarks) and SV-COMP task files (`.yml` with `input_files` and an unreach-call property), found by
// walking a folder or listed in an INDEX.tsv.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';

export type Expected = 'safe' | 'unsafe';
/** The SV-COMP properties a task's expected verdict can be read for. */
export const TASK_PROPERTIES = ['unreach-call', 'no-overflow', 'termination'] as const;
export type TaskProperty = (typeof TASK_PROPERTIES)[number];
export type Cutset = 'paths' | 'headers';
export const CUTSETS: readonly Cutset[] = ['paths', 'headers'];

export interface BenchTask {
  /** Path of the task relative to its suite root, without extension, `/`-separated (e.g. `paper/fig1`). */
  readonly id: string;
  /** Absolute path of the C program. */
  readonly file: string;
  readonly expected: Expected;
  /** Function to analyse; absent means the CLI's default (main, else the last function). */
  readonly function?: string;
  /** Cut-set strategies to run the task with, in order. */
  readonly cutsets: readonly Cutset[];
  readonly source?: string;
  readonly notes?: string;
  readonly kind: 'sidecar' | 'svcomp';
  /** The sidecar or SV-COMP `.yml` the task was read from. */
  readonly taskFile: string;
  /** The property the expected verdict is for, when not unreach-call (`farkas verify --property`). */
  readonly property?: TaskProperty;
}

/** A task file that was found but deliberately not turned into a task (e.g. no unreach-call property). */
export interface SkippedTask {
  readonly taskFile: string;
  readonly reason: string;
}

export interface Discovery {
  readonly tasks: BenchTask[];
  readonly skipped: SkippedTask[];
}

/** Malformed benchmark metadata; the message starts with the offending file (and line when known). */
export class TaskError extends Error {
  constructor(file: string, message: string, line?: number) {
    super(`${file}${line !== undefined ? `:${line}` : ''}: ${message}`);
    this.name = 'TaskError';
  }
}

export const SIDECAR_SUFFIX = '.expect.yaml';
const PROGRAM_EXTENSIONS = ['.c', '.i'];
const SIDECAR_KEYS = new Set(['verdict', 'function', 'source', 'notes', 'cutsets']);
/** Folders never searched for tasks: build output, harness output, dependencies, hidden folders. */
const IGNORED_FOLDERS = new Set(['node_modules', 'results', 'dist']);
export const BORDERLINE_FOLDER = '_borderline';

function readYaml(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  try {
    return parseYaml(text);
  } catch (e) {
    if (e instanceof YAMLParseError) throw new TaskError(file, `invalid YAML: ${e.message.split('\n')[0]}`, e.linePos?.[0]?.line);
    throw e;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export interface SidecarInfo {
  readonly expected: Expected;
  readonly function?: string;
  readonly cutsets: readonly Cutset[];
  readonly source?: string;
  readonly notes?: string;
}

/** Validates a parsed `NAME.expect.yaml`; unknown keys are errors so that typos do not pass silently. */
export function parseSidecar(data: unknown, file: string): SidecarInfo {
  if (!isRecord(data)) throw new TaskError(file, 'expected a mapping with at least `verdict: safe|unsafe`');
  for (const key of Object.keys(data)) {
    if (!SIDECAR_KEYS.has(key)) throw new TaskError(file, `unknown key '${key}' (allowed: ${[...SIDECAR_KEYS].join(', ')})`);
  }
  const verdict = data.verdict;
  if (verdict !== 'safe' && verdict !== 'unsafe') throw new TaskError(file, `'verdict' must be safe or unsafe, got ${JSON.stringify(verdict)}`);
  const optionalString = (key: string): string | undefined => {
    const v = data[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' || v.trim() === '') throw new TaskError(file, `'${key}' must be a non-empty string`);
    return v;
  };
  const fn = optionalString('function');
  if (fn !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(fn)) throw new TaskError(file, `'function' must be a C identifier, got '${fn}'`);
  let cutsets: Cutset[] = ['paths'];
  if (data.cutsets !== undefined && data.cutsets !== null) {
    if (!Array.isArray(data.cutsets) || data.cutsets.length === 0) throw new TaskError(file, `'cutsets' must be a non-empty list of ${CUTSETS.join(' / ')}`);
    cutsets = [];
    for (const c of data.cutsets) {
      if (!CUTSETS.includes(c as Cutset)) throw new TaskError(file, `unknown cut-set ${JSON.stringify(c)} (expected ${CUTSETS.join(' or ')})`);
      if (!cutsets.includes(c as Cutset)) cutsets.push(c as Cutset);
    }
  }
  const source = optionalString('source');
  const notes = optionalString('notes');
  return {
    expected: verdict,
    cutsets,
    ...(fn !== undefined ? { function: fn } : {}),
    ...(source !== undefined ? { source } : {}),
    ...(notes !== undefined ? { notes } : {}),
  };
}

export type SvcompParse = { readonly inputFile: string; readonly expected: Expected } | { readonly skip: string };

/**
 * Reads an SV-COMP task definition: the program is `input_files` (one file, relative to the `.yml`),
 * the truth is the `expected_verdict` of the property whose file ends in `unreach-call.prp` (or
 * `PROPERTY.prp`). Returns `{ skip }` for tasks this harness does not check (no such property,
 * several input files).
 */
export function parseSvcompTask(data: unknown, file: string, property: TaskProperty = 'unreach-call'): SvcompParse {
  if (!isRecord(data)) throw new TaskError(file, 'expected an SV-COMP task mapping');
  let input = data.input_files;
  if (Array.isArray(input)) {
    if (input.length !== 1) return { skip: `${input.length} input files (only single-file tasks are supported)` };
    input = input[0];
  }
  if (typeof input !== 'string' || input === '') throw new TaskError(file, "'input_files' must name the program file");
  const properties = Array.isArray(data.properties) ? data.properties : [];
  const unreach = properties.find((p) => isRecord(p) && typeof p.property_file === 'string' && p.property_file.endsWith(`${property}.prp`));
  if (!isRecord(unreach)) return { skip: `no ${property} property` };
  const v = unreach.expected_verdict;
  if (v !== true && v !== false) return { skip: `${property} property without an expected verdict` };
  return { inputFile: resolve(dirname(file), input), expected: v ? 'safe' : 'unsafe' };
}

function toId(root: string, fileWithoutExtension: string): string {
  return relative(root, fileWithoutExtension).split(sep).join('/');
}

function sidecarTask(root: string, sidecar: string): BenchTask {
  const info = parseSidecar(readYaml(sidecar), sidecar);
  const stem = sidecar.slice(0, -SIDECAR_SUFFIX.length);
  const program = PROGRAM_EXTENSIONS.map((ext) => stem + ext).find((p) => existsSync(p));
  if (program === undefined) throw new TaskError(sidecar, `no program ${basename(stem)}.c or ${basename(stem)}.i next to the sidecar`);
  return { id: toId(root, stem), file: program, kind: 'sidecar', taskFile: sidecar, ...info };
}

function svcompTask(root: string, yml: string, property: TaskProperty, expectedFromIndex?: Expected): BenchTask | SkippedTask {
  const parsed = parseSvcompTask(readYaml(yml), yml, property);
  if ('skip' in parsed) return { taskFile: yml, reason: parsed.skip };
  if (!existsSync(parsed.inputFile)) throw new TaskError(yml, `input file ${parsed.inputFile} does not exist`);
  if (expectedFromIndex !== undefined && expectedFromIndex !== parsed.expected) {
    throw new TaskError(yml, `the index says ${expectedFromIndex} but the task file says ${parsed.expected}`);
  }
  return {
    id: toId(root, yml.replace(/\.ya?ml$/, '')), file: parsed.inputFile, expected: parsed.expected, cutsets: ['paths'], kind: 'svcomp', taskFile: yml,
    ...(property !== 'unreach-call' ? { property } : {}),
  };
}

export interface DiscoverOptions {
  /** Also walk `_borderline` folders (SV-COMP tasks whose fit for the subset is doubtful). */
  readonly borderline?: boolean;
  /** Whose expected verdict SV-COMP tasks are read for (default unreach-call). */
  readonly property?: TaskProperty;
}

function collect(out: Discovery, task: BenchTask | SkippedTask): void {
  if ('id' in task) out.tasks.push(task);
  else out.skipped.push(task);
}

/** Walks `root` for sidecar tasks and SV-COMP `.yml` tasks, sorted by id. */
export function discoverTasks(root: string, options: DiscoverOptions = {}): Discovery {
  const absRoot = resolve(root);
  if (!existsSync(absRoot) || !statSync(absRoot).isDirectory()) throw new TaskError(root, 'not a folder');
  const out: Discovery = { tasks: [], skipped: [] };
  const walk = (dir: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name.startsWith('.') || IGNORED_FOLDERS.has(entry.name)) continue;
        if (entry.name === BORDERLINE_FOLDER && !options.borderline) continue;
        walk(path);
      } else if (entry.name.endsWith(SIDECAR_SUFFIX)) {
        out.tasks.push(sidecarTask(absRoot, path));
      } else if (/\.ya?ml$/.test(entry.name)) {
        // Other YAML in a suite (e.g. templates) is not a task: only files with `input_files` are.
        const data = readYaml(path);
        if (isRecord(data) && 'input_files' in data) collect(out, svcompTask(absRoot, path, options.property ?? 'unreach-call'));
      }
    }
  };
  walk(absRoot);
  out.tasks.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out;
}

/**
 * Reads the task list from an INDEX.tsv (tab-separated, header row with at least `folder`, `name` and
 * `expected_verdict`); each row names `<folder>/<name>.yml` relative to the index file. The verdict in
 * the index must agree with the task file.
 */
/** A condition on an index column (`--where has_functions!=none`). */
export interface IndexCondition {
  readonly column: string;
  readonly negated: boolean;
  readonly value: string;
}

export function parseIndexCondition(text: string): IndexCondition | null {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*(!?=)\s*(.*)$/.exec(text.trim());
  return m ? { column: m[1]!, negated: m[2] === '!=', value: m[3]!.trim() } : null;
}

export function tasksFromIndex(indexFile: string, where: readonly IndexCondition[] = [], property: TaskProperty = 'unreach-call'): Discovery {
  const absIndex = resolve(indexFile);
  if (!existsSync(absIndex)) throw new TaskError(indexFile, 'index file does not exist');
  const root = dirname(absIndex);
  const lines = readFileSync(absIndex, 'utf8').split(/\r?\n/);
  const header = (lines[0] ?? '').split('\t').map((h) => h.trim());
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new TaskError(indexFile, `missing column '${name}' in the header (found: ${header.join(', ')})`, 1);
    return i;
  };
  const folderCol = col('folder');
  const nameCol = col('name');
  const verdictCol = col('expected_verdict');
  const conditions = where.map((c) => ({ ...c, at: col(c.column) }));
  const out: Discovery = { tasks: [], skipped: [] };
  lines.slice(1).forEach((line, i) => {
    if (line.trim() === '') return;
    const cells = line.split('\t');
    if (!conditions.every((c) => ((cells[c.at]?.trim() ?? '') === c.value) !== c.negated)) return;
    const folder = cells[folderCol]?.trim() ?? '';
    const name = cells[nameCol]?.trim() ?? '';
    const verdict = cells[verdictCol]?.trim() ?? '';
    if (folder === '' || name === '') throw new TaskError(indexFile, 'empty folder or name', i + 2);
    if (verdict !== 'true' && verdict !== 'false') throw new TaskError(indexFile, `expected_verdict must be true or false, got '${verdict}'`, i + 2);
    const yml = [join(root, folder, `${name}.yml`), join(root, folder, `${name}.yaml`)].find((p) => existsSync(p));
    if (yml === undefined) throw new TaskError(indexFile, `no task file ${folder}/${name}.yml`, i + 2);
    // The index's verdict is the unreach-call one.
    collect(out, svcompTask(root, yml, property, property === 'unreach-call' ? (verdict === 'true' ? 'safe' : 'unsafe') : undefined));
  });
  out.tasks.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return out;
}
