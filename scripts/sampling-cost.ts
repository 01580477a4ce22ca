// What verify's concrete sampling costs, and what it finds: `node dist/scripts/sampling-cost.js FILE…`
// (C files or SV-COMP .yml/.i/.c tasks). For each program it prepares the paths cut-set and samples
// as verify does (sampleStates, then sampleBadStates), and prints the milliseconds of each part summed
// over all programs and one hash of everything sampled: states, all observed states, failures and bad
// states. Two builds give the same hash exactly when they sample the same, so a change meant to make
// sampling cheaper without changing it is measured by running this against both, interleaved.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseProgram } from '../lib/frontend/index.js';
import { Problem } from '../lib/problem/prepare.js';
import { sampleBadStates, sampleStates, stateKey, type State } from '../lib/observe/samples.js';

function describe(states: ReadonlyMap<number, readonly State[]> | undefined): string {
  return [...(states ?? new Map<number, readonly State[]>())].map(([c, list]) => `${c}:${list.map(stateKey).join('|')}`).join(';');
}

function main(files: readonly string[]): number {
  if (files.length === 0) {
    process.stderr.write('usage: sampling-cost FILE…\n');
    return 3;
  }
  let statesMillis = 0;
  let badMillis = 0;
  let skipped = 0;
  const hash = createHash('sha256');
  for (const file of files) {
    let prepared;
    try {
      prepared = Problem.of(parseProgram(readFileSync(file, 'utf8'), file), undefined).analysis('paths');
    } catch {
      skipped++; // not accepted by the front end, or no paths cut-set: verify samples nothing either
      continue;
    }
    let started = performance.now();
    const samples = sampleStates(prepared.preparedProgram, prepared.function, prepared.unknownCutpoints, {});
    statesMillis += performance.now() - started;
    started = performance.now();
    const bad = sampleBadStates(prepared.preparedProgram, prepared.function, samples, {});
    badMillis += performance.now() - started;
    const failure = samples.failure?.nondetConsumed.join(',') ?? '';
    const overflow = samples.overflow?.nondetConsumed.join(',') ?? '';
    hash.update(`${file}\n${describe(samples.states)}\n${describe(samples.observed)}\n${failure}\n${overflow}\n${describe(bad)}\n`);
  }
  process.stdout.write(`programs: ${files.length - skipped} sampled, ${skipped} skipped\n`);
  process.stdout.write(`sampleStates: ${statesMillis.toFixed(0)} ms, sampleBadStates: ${badMillis.toFixed(0)} ms\n`);
  process.stdout.write(`samples hash: ${hash.digest('hex').slice(0, 16)}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
