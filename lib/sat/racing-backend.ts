// The default back end ('auto'): the embedded MiniSat, raced on large instances by an external
// solver when one is installed (cadical or kissat on PATH, e.g. from Debian's packages). On steps of
// a few hundred thousand clauses CaDiCaL is 2.6–3.5× faster than MiniSat on the same CNF, but
// nothing may require it: without one, 'auto' is the embedded MiniSat alone.
//
// Which answer is taken does not depend on which solver finished first, so the same program gives
// the same invariants on an idle or a busy machine (both solvers are bounded by conflicts, not
// time):
// - the external solver's answer is taken whenever it has one (sat with its model, or unsat);
// - the embedded solver's answer is taken when the external one ends without an answer (its
//   conflict budget, a crash);
// - an 'unsat' from either ends the race at once: both solvers are complete, so the other would say
//   'unsat' or run out of budget, and the answer is 'unsat' either way.
// So an embedded 'sat' that comes first waits for the external answer (whose model is the one
// taken), and the race is faster than MiniSat alone when the external solver is, and when MiniSat
// proves 'unsat' first. Only `backend` (which solver answered) and the times may differ between
// runs; a raced 'unsat' reports no work counts, so the work budget of later steps is the same too.
import { ExternalBackend, findExecutable } from './external-backend.js';
import { sessionOf, type Cnf, type SatBackend, type SatResult, type SatSession, type SolveOptions } from './types.js';

/** External solvers raced when found on PATH, in order of preference, with their quiet flags. */
export const RACED_SOLVERS: readonly string[] = ['cadical -q', 'kissat -q'];

/** The first of RACED_SOLVERS on PATH, as an ExternalBackend; null when none is installed. */
export function installedExternalSolver(): SatBackend | null {
  for (const commandLine of RACED_SOLVERS) {
    const command = commandLine.split(' ')[0]!;
    if (findExecutable(command) !== null) return new ExternalBackend(commandLine);
  }
  return null;
}

export class RacingBackend implements SatBackend {
  readonly name: string;

  /** Races `external` against `embedded` on instances of `clauses.min` to `clauses.max` clauses. */
  constructor(
    private readonly embedded: SatBackend,
    private readonly external: SatBackend,
    private readonly clauses: { readonly min: number; readonly max: number },
  ) {
    this.name = `${embedded.name}+${external.name}`;
  }

  warmUp(): void {
    this.embedded.warmUp?.();
  }

  /** The embedded solver's session: a session's solves keep what it learnt, which a race would not. */
  session(): SatSession {
    return sessionOf(this.embedded);
  }

  async solve(cnf: Cnf, options: SolveOptions = {}): Promise<SatResult> {
    const size = cnf.clauses.length;
    if (size < this.clauses.min || size > this.clauses.max) return this.embedded.solve(cnf, options);
    const stopEmbedded = linkedController(options.signal);
    const stopExternal = linkedController(options.signal);
    const embedded = this.embedded.solve(cnf, { ...options, signal: stopEmbedded.signal });
    const external = this.external.solve(cnf, { ...options, signal: stopExternal.signal });
    const first = await Promise.race([embedded.then((r) => ({ by: 'embedded' as const, r })), external.then((r) => ({ by: 'external' as const, r }))]);
    if (first.by === 'external' && first.r.status !== 'unknown') {
      stopEmbedded.abort();
      await embedded; // a cancelled solve ends at once; its worker is not left running
      return first.r.status === 'unsat' ? unsatWithoutWork(first.r) : first.r;
    }
    if (first.by === 'embedded' && first.r.status === 'unsat') {
      stopExternal.abort();
      await external;
      return unsatWithoutWork(first.r);
    }
    const [fromEmbedded, fromExternal] = await Promise.all([embedded, external]);
    // Both models were checked against the CNF, so a 'sat' beats an 'unsat' (a solver's bug).
    if (fromExternal.status === 'sat') return fromExternal;
    if (fromEmbedded.status === 'sat') return fromEmbedded;
    if (fromExternal.status === 'unsat') return unsatWithoutWork(fromExternal);
    if (fromEmbedded.status === 'unsat') return unsatWithoutWork(fromEmbedded);
    return { ...fromEmbedded, reason: `${fromEmbedded.reason ?? 'no answer'}; ${fromExternal.backend}: ${fromExternal.reason ?? 'no answer'}` };
  }
}

/**
 * Whichever solver said 'unsat' first, the step's answer is the same, but their work counts are not
 * (and the external solver reports none): the caller's work budget (SatWorkBudget) is charged the
 * same, nothing, either way, so the steps that follow do not depend on which solver was first.
 */
function unsatWithoutWork(result: SatResult): SatResult {
  const { conflicts: _conflicts, propagations: _propagations, ...rest } = result;
  return rest;
}

/** An abort controller that also aborts when `parent` does. */
function linkedController(parent: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (parent?.aborted) controller.abort();
  else parent?.addEventListener('abort', () => controller.abort(), { once: true });
  return controller;
}
