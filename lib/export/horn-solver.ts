// Z3's Horn engine (Spacer) on CHC text: 'sat' — the clauses have a model, the program is safe;
// 'unsat' — a derivation of false, the program is unsafe. The text goes through z3's SMT-LIB parser,
// so a test of this module is also a test that the export is well-formed. In-process z3 cannot be
// stopped except through its own timeout: callers that must never hang (the harness) run this in a
// child process (benchmarks/spacer.ts).
import { getZ3, trackZ3Work } from '../sat/z3-context.js';

export interface HornOutcome {
  readonly status: 'sat' | 'unsat' | 'unknown';
  readonly reason?: string;
  readonly millis: number;
}

export async function solveHorn(text: string, options: { timeLimitMs?: number } = {}): Promise<HornOutcome> {
  const z3 = await getZ3();
  const ctx = new z3.Context('horn');
  const solver = new ctx.Solver('HORN');
  if (options.timeLimitMs !== undefined) solver.set('timeout', Math.max(1, Math.round(options.timeLimitMs)));
  const started = Date.now();
  const work = (async (): Promise<HornOutcome> => {
    try {
      // The solver is created for HORN; z3's parser rejects a second set-logic, so it is dropped.
      solver.fromString(text.replace(/^\(set-logic [^)]*\)\s*$/m, ''));
      const status = await solver.check();
      if (status === 'unknown') return { status, reason: solver.reasonUnknown(), millis: Date.now() - started };
      return { status, millis: Date.now() - started };
    } catch (e) {
      return { status: 'unknown', reason: `z3: ${e instanceof Error ? e.message : String(e)}`, millis: Date.now() - started };
    }
  })();
  return trackZ3Work(work, () => ctx.interrupt());
}
