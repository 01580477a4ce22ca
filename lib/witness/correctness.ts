// Correctness witnesses, SV-COMP format 2.0: one `invariant_set` entry whose content lists a
// `loop_invariant` per loop, located at the loop keyword, with the invariant as a C expression.
import { stringify } from 'yaml';
import type { LoopInvariant } from './loop-invariants.js';
import { witnessFileName, type WitnessMetadata } from './metadata.js';

export interface InvariantItem {
  readonly invariant: {
    readonly type: 'loop_invariant';
    readonly location: { readonly file_name: string; readonly line: number; readonly column: number; readonly function: string };
    readonly value: string;
    readonly format: 'c_expression';
  };
}

export interface InvariantSetEntry {
  readonly entry_type: 'invariant_set';
  readonly metadata: WitnessMetadata;
  readonly content: readonly InvariantItem[];
}

export function invariantSetEntry(metadata: WitnessMetadata, file: string, invariants: readonly LoopInvariant[]): InvariantSetEntry {
  return {
    entry_type: 'invariant_set',
    metadata,
    content: invariants.map((inv) => ({
      invariant: {
        type: 'loop_invariant',
        // Lines and columns are 1-based in format 2.0, as in farkas' own positions.
        location: { file_name: witnessFileName(file), line: inv.pos.line, column: inv.pos.col, function: inv.function },
        value: inv.expression,
        format: 'c_expression',
      },
    })),
  };
}

/** A witness file is a YAML sequence of entries. */
export function witnessYaml(entries: readonly object[]): string {
  // Long invariants stay on one line; quoting is left to the YAML library.
  return stringify(entries, { lineWidth: 0 });
}
