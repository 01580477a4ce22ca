// What every command reads: a C file, or an SV-COMP task (.yml) naming its C file, property and data
// model; plus `--data-model` and `--property` (a name or an SV-COMP .prp file), which override the task.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Option } from 'commander';
import { parse as parseYaml } from 'yaml';
import { InputError, type DataModel, type Program, type Property, parseProgram, isHornClauses, readChc } from '../lib/index.js';
import { readSource } from './common.js';

export const DATA_MODELS: readonly DataModel[] = ['ILP32', 'LP64'];
export const PROPERTIES: readonly Property[] = ['unreach-call', 'no-overflow', 'termination'];

export function dataModelOption(): Option {
  return new Option('--data-model <model>', "sizes of the C types: 'ILP32' (long is 32-bit; the default, as SV-COMP's ReachSafety tasks) or 'LP64' (long is 64-bit)")
    .choices([...DATA_MODELS]);
}

export function propertyOption(): Option {
  return new Option(
    '--property <name|file.prp>',
    "what to prove: 'unreach-call' (default: every assertion holds; signed overflow, undefined behaviour, is assumed absent), 'no-overflow' (no signed operation overflows) or 'termination' (every run ends; verify only); also an SV-COMP .prp file",
  );
}

export interface ProgramInput {
  /** The C file (the task's input file for a .yml task). */
  readonly file: string;
  readonly source: string;
  readonly program: Program;
  readonly dataModel: DataModel;
  readonly property: Property;
  /** For a task: the expected verdict of the chosen property, when the task states one. */
  readonly expected?: boolean;
}

export interface ProgramInputOptions {
  readonly dataModel?: string;
  readonly property?: string;
}

/** Reads FILE (a C file or an SV-COMP task .yml) and lowers it under the chosen model and property. */
/** The properties a command checks: termination only by `verify` (and shown by `cfg` and `run`). */
export const REACHABILITY_PROPERTIES: readonly Property[] = ['unreach-call', 'no-overflow'];

/** `nonlinearChc`: the caller solves nonlinear Horn clauses (verify); for the others they are an input error. */
/** What every loaded program goes through: nothing in the farkas bin; the claim guard's tests mark
 * programs with a transformation fault (cli/testing/farkas-with-fault.ts). */
let loadedProgramHook: (program: Program) => Program = (program) => program;

export function setLoadedProgramHookForTests(hook: (program: Program) => Program): void {
  loadedProgramHook = hook;
}

export function loadProgram(path: string, opts: ProgramInputOptions, accepted: readonly Property[] = REACHABILITY_PROPERTIES, nonlinearChc = false): ProgramInput {
  const task = /\.ya?ml$/i.test(path) ? readTask(path) : null;
  const dataModel = (opts.dataModel as DataModel | undefined) ?? task?.dataModel ?? 'ILP32';
  let property: Property;
  if (opts.property !== undefined) property = parseProperty(opts.property);
  else if (task) property = task.defaultProperty;
  else property = 'unreach-call';
  if (!accepted.includes(property)) {
    throw new InputError('error', `this command checks ${accepted.join(' and ')}, not ${property}${property === 'termination' ? " (use 'farkas verify --property termination')" : ''}`, null);
  }
  const file = task ? task.file : path;
  const source = readSource(file);
  // Horn clauses (SMT-LIB HORN, the CHC-COMP format): by the extension, or by (set-logic HORN).
  if (isHornClauses(file, source)) {
    if (opts.property !== undefined && property !== 'unreach-call') throw new InputError('error', `--property ${property}: Horn clauses have one property, whether false is derivable`, null);
    if (opts.dataModel !== undefined) throw new InputError('error', '--data-model: Horn clauses are over the mathematical integers, not C types', null);
    return { file, source, program: loadedProgramHook(readChc(source, file, { nonlinear: nonlinearChc }).program), dataModel, property: 'unreach-call' };
  }
  const program = loadedProgramHook(parseProgram(source, file, { dataModel, property }));
  const expected = task?.expected.get(property);
  return { file, source, program, dataModel, property, ...(expected !== undefined ? { expected } : {}) };
}

/** A property name, or an SV-COMP .prp file read for its LTL formula. */
export function parseProperty(text: string): Property {
  if ((PROPERTIES as readonly string[]).includes(text)) return text as Property;
  if (!/\.prp$/i.test(text)) {
    throw new InputError('error', `--property expects 'unreach-call', 'no-overflow', 'termination' or an SV-COMP .prp file, got '${text}'`, null);
  }
  return propertyOfPrp(readSource(text), text);
}

/** The property a .prp file states (`CHECK( init(main()), LTL(G ! call(reach_error())) )`, …). */
export function propertyOfPrp(text: string, file: string): Property {
  const ltl = /LTL\((.*)\)\s*\)\s*$/s.exec(text.trim())?.[1]?.replace(/\s+/g, ' ').trim();
  if (ltl === 'G ! call(reach_error())' || ltl === 'G ! call(__VERIFIER_error())') return 'unreach-call';
  if (ltl === 'G ! overflow') return 'no-overflow';
  if (ltl === 'F end') return 'termination';
  if (ltl === undefined) throw new InputError('error', `${file}: not an SV-COMP property file (no CHECK( init(main()), LTL(…) ))`, null);
  throw new InputError('unsupported', `${file}: property LTL(${ltl}) (farkas checks unreach-call, no-overflow and termination)`, null);
}

interface Task {
  readonly file: string;
  readonly dataModel?: DataModel;
  readonly defaultProperty: Property;
  /** Expected verdict by property, where the task states one. */
  readonly expected: ReadonlyMap<Property, boolean>;
}

/** An SV-COMP task definition (format 2.0): input file, properties, options.data_model. */
function readTask(path: string): Task {
  let doc: unknown;
  try {
    doc = parseYaml(readSource(path));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError('error', `${path}: not a YAML task definition (${(e as Error).message.split('\n')[0]})`, null);
  }
  const bad = (why: string): never => {
    throw new InputError('error', `${path}: ${why}`, null);
  };
  if (typeof doc !== 'object' || doc === null) return bad('not a task definition (expected a YAML mapping)');
  const d = doc as Record<string, unknown>;
  const inputs = typeof d.input_files === 'string' ? [d.input_files] : Array.isArray(d.input_files) ? d.input_files : bad('no input_files');
  if (inputs.length !== 1 || typeof inputs[0] !== 'string') bad('farkas reads tasks with exactly one input file');
  const file = join(dirname(path), inputs[0] as string);
  const options = (typeof d.options === 'object' && d.options !== null ? d.options : {}) as Record<string, unknown>;
  const model = options.data_model;
  if (model !== undefined && model !== 'ILP32' && model !== 'LP64') bad(`unknown data_model '${String(model)}'`);
  const expected = new Map<Property, boolean>();
  const listed: Property[] = [];
  for (const p of Array.isArray(d.properties) ? d.properties : []) {
    const entry = p as Record<string, unknown>;
    if (typeof entry.property_file !== 'string') continue;
    const prpPath = join(dirname(path), entry.property_file);
    let property: Property;
    try {
      property = propertyOfPrp(readFileSync(prpPath, 'utf8'), prpPath);
    } catch {
      continue; // a property farkas does not check (coverage, memory safety) or an unreadable file
    }
    listed.push(property);
    if (typeof entry.expected_verdict === 'boolean') expected.set(property, entry.expected_verdict);
  }
  // Reachability first; termination is checked only by verify, so it is the default only when alone.
  const defaultProperty = (['unreach-call', 'no-overflow', 'termination'] as const).find((p) => listed.includes(p)) ?? bad('lists no property farkas checks (unreach-call, no-overflow, termination)');
  return { file, ...(model !== undefined ? { dataModel: model as DataModel } : {}), defaultProperty, expected };
}

/** How the answer's semantics reads: data model, property, and the premise it rests on. */
export function semanticsNote(program: Program): string {
  const model = program.dataModel ?? 'ILP32';
  if (program.property === 'termination') return `property: every run ends (C integers, ${model}); a failing assertion, abort() or a blocked assume ends a run; signed overflow, undefined behaviour, is assumed absent`;
  return program.property === 'no-overflow'
    ? `property: no signed overflow (C integers, ${model})`
    : `semantics: C integers (${model}); signed overflow, undefined behaviour, is assumed absent (check it with --property no-overflow)`;
}
