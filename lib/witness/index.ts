// SV-COMP witnesses (format 2.0) for a verification result: a correctness witness for "safe", a
// violation witness for "unsafe". A witness is only produced when it is backed like the verdict: the
// correctness witness's invariants, read back from the YAML text, must prove the program on their own
// (certificate checker); the violation witness follows the interpreter's replay of the counterexample.
import type { Program } from '../ir/cfg.js';
import type { VerifyResult } from '../result.js';
import { checkCorrectnessWitness } from './check.js';
import { invariantSetEntry, witnessYaml } from './correctness.js';
import { loopInvariants } from './loop-invariants.js';
import { witnessMetadata } from './metadata.js';
import { violationEntry } from './violation.js';
import { sourceMap } from './source-map.js';
import { guardSafe } from '../guard/verify-guard.js';

export interface WitnessInput {
  readonly program: Program;
  readonly file: string;
  readonly source: string;
  readonly result: VerifyResult;
}

export type WitnessOutcome =
  | { readonly kind: 'correctness' | 'violation'; readonly text: string; readonly items: number }
  | { readonly kind: 'none'; readonly reason: string };

export async function witnessFor(input: WitnessInput): Promise<WitnessOutcome> {
  const { program, file, source, result } = input;
  // The data model is the program's; for reachability, the configuration states the premise the
  // answer rests on (signed overflow, undefined behaviour in C, is assumed absent).
  const property = program.property ?? 'unreach-call';
  if (property === 'termination') return { kind: 'none', reason: 'witnesses for the termination property are not supported' };
  const premise = property === 'unreach-call' ? '; premise: no signed overflow' : '';
  const metadata = () => witnessMetadata({ file, source, dataModel: program.dataModel ?? 'ILP32', property }, `cutset ${result.cutset}, schedule ${result.schedule}${premise}`);
  if (result.verdict === 'safe') {
    if (result.summaries && result.summaries.length > 0) return { kind: 'none', reason: 'correctness witnesses for recursive procedures (summaries) are not supported' };
    const loops = await loopInvariants(program, result.function, result.cutset, result.invariants);
    const text = witnessYaml([invariantSetEntry(metadata(), file, loops)]);
    const check = await checkCorrectnessWitness(program, result.function, text);
    if (!check.valid) return { kind: 'none', reason: `the loop invariants do not prove the program on their own (${check.reason})` };
    // Derived from the certified invariants by another transformation: held to runs of the program too.
    const source = program.procedures.get(result.function)!;
    guardSafe(program, result.function, { proc: source, original: source.locations.map((l) => l.id) }, new Map(loops.map((l) => [l.location, l.formula] as const)));
    return { kind: 'correctness', text, items: loops.length };
  }
  if (result.verdict === 'unsafe' && result.counterexample) {
    const entry = violationEntry(metadata(), program, file, result.function, result.counterexample, sourceMap(source, program.file));
    if ('reason' in entry) return { kind: 'none', reason: entry.reason };
    return { kind: 'violation', text: witnessYaml([entry.entry]), items: entry.waypoints };
  }
  return { kind: 'none', reason: `no witness for an unknown result (${result.reason ?? 'no reason given'})` };
}
