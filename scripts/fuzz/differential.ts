// One differential-fuzzing round: a program through bounded concrete execution (random nondet
// streams on the interpreter) and through engines; the disagreements found. An engine that says safe
// while a concrete run fails, and two engines with opposite definite verdicts, are disagreements.
import type { Program } from '../../lib/ir/cfg.js';
import type { VerifyResult } from '../../lib/result.js';
import { runProgram } from '../../lib/interpreter/index.js';
import { mulberry32 } from '../../lib/random.js';

export interface FuzzEngine {
  readonly name: string;
  readonly run: (program: Program) => Promise<VerifyResult>;
}

export interface FuzzOutcome {
  /** The first concrete nondet stream that failed an assertion, if any. */
  readonly failingRun: readonly bigint[] | null;
  readonly verdicts: readonly { readonly engine: string; readonly verdict: string; readonly reason?: string; readonly millis: number }[];
  readonly disagreements: readonly string[];
}

/** Random nondet streams (values in [-5, 5]); a failing run proves the program unsafe. */
export function concreteFailure(program: Program, runs: number, seed: number): bigint[] | null {
  const rand = mulberry32(seed);
  for (let k = 0; k < runs; k++) {
    const nondet = Array.from({ length: 64 }, () => BigInt(Math.floor(rand() * 11) - 5));
    const r = runProgram(program, { nondet, nondetDefault: 0n, maxSteps: 10_000 });
    if (r.outcome.kind === 'assertion-failed') return r.nondetConsumed.slice();
  }
  return null;
}

export async function fuzzProgram(program: Program, engines: readonly FuzzEngine[], options: { runs?: number; seed?: number } = {}): Promise<FuzzOutcome> {
  const failingRun = concreteFailure(program, options.runs ?? 300, options.seed ?? 1);
  const verdicts: { engine: string; verdict: string; reason?: string; millis: number }[] = [];
  for (const e of engines) {
    const r = await e.run(program);
    verdicts.push({ engine: e.name, verdict: r.verdict, ...(r.reason !== undefined ? { reason: r.reason } : {}), millis: r.millis });
  }
  const disagreements: string[] = [];
  if (failingRun) {
    for (const v of verdicts) if (v.verdict === 'safe') disagreements.push(`${v.engine} says safe but the concrete run with nondet [${failingRun.join(', ')}] fails an assertion`);
  }
  for (const [i, a] of verdicts.entries()) {
    for (const b of verdicts.slice(i + 1)) {
      if (a.verdict !== 'unknown' && b.verdict !== 'unknown' && a.verdict !== b.verdict) disagreements.push(`${a.engine} says ${a.verdict} but ${b.engine} says ${b.verdict}`);
    }
  }
  return { failingRun, verdicts, disagreements };
}
