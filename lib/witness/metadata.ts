// The metadata block every SV-COMP witness 2.0 entry carries: format version, a fresh UUID, the
// creation time, the producer, and the task (input file with its SHA-256, specification, data model).
import { createHash, randomUUID } from 'node:crypto';
import { basename } from 'node:path';

export const WITNESS_FORMAT_VERSION = '2.0';
/** SV-COMP's reachability property: reach_error() (farkas: every assert) is never reached. */
export const UNREACH_CALL_SPECIFICATION = 'G ! call(reach_error())';
export const PRODUCER = { name: 'farkas', version: '0.1.0' } as const;

/** SV-COMP's no-overflow property: no signed operation overflows. */
export const NO_OVERFLOW_SPECIFICATION = 'G ! overflow';

/** The sizes of C's types the analysis used (the program's, see frontend/ctypes.ts). */
export type DataModel = 'ILP32' | 'LP64';

export interface WitnessTask {
  /** The path as given on the command line; the witness names its base name (what validators see). */
  readonly file: string;
  /** The exact bytes that were verified (the hash must match them). */
  readonly source: string;
  readonly dataModel?: DataModel;
  readonly property?: 'unreach-call' | 'no-overflow';
}

export interface WitnessMetadata {
  readonly format_version: string;
  readonly uuid: string;
  readonly creation_time: string;
  readonly producer: { readonly name: string; readonly version: string; readonly configuration?: string };
  readonly task: {
    readonly input_files: readonly string[];
    readonly input_file_hashes: Readonly<Record<string, string>>;
    readonly specification: string;
    readonly data_model: DataModel;
    readonly language: 'C';
  };
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The name a witness uses for the input file (locations refer to it). */
export function witnessFileName(file: string): string {
  return basename(file);
}

export function witnessMetadata(task: WitnessTask, configuration?: string, now: Date = new Date()): WitnessMetadata {
  const name = witnessFileName(task.file);
  return {
    format_version: WITNESS_FORMAT_VERSION,
    uuid: randomUUID(),
    // ISO 8601 without fractional seconds, as in the format's examples.
    creation_time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    producer: { ...PRODUCER, ...(configuration !== undefined ? { configuration } : {}) },
    task: {
      input_files: [name],
      input_file_hashes: { [name]: sha256(task.source) },
      specification: task.property === 'no-overflow' ? NO_OVERFLOW_SPECIFICATION : UNREACH_CALL_SPECIFICATION,
      data_model: task.dataModel ?? 'ILP32',
      language: 'C',
    },
  };
}
