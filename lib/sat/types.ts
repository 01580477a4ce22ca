// The contract between encoders and SAT back ends: plain CNF with DIMACS-style literals
// (variable v >= 1 is the literal v, its negation -v).

export interface Cnf {
  readonly numVars: number;
  readonly clauses: readonly (readonly number[])[];
}

export type SatStatus = 'sat' | 'unsat' | 'unknown';

export interface SatResult {
  readonly status: SatStatus;
  /** For 'sat': model[v] is the value of variable v (index 0 unused). */
  readonly model?: readonly boolean[];
  /** For 'unknown': why (e.g. "timeout after 30 s", "SAT solver out of memory"). */
  readonly reason?: string;
  /** Wall-clock time of the call: the solver's start-up and any wait for a free worker included. */
  readonly millis: number;
  /**
   * Time the solver itself spent on this instance (loading the clauses and searching), when the back
   * end can tell: this is what the paper's Table 1 reports, without process or solver start-up.
   */
  readonly solverMillis?: number;
  /** Conflicts the solver met on this instance, when the back end can tell: the search's work, the
   * same on an idle or a busy machine. */
  readonly conflicts?: number;
  /** Unit propagations, likewise (the embedded MiniSat only). */
  readonly propagations?: number;
  readonly backend: string;
}

export interface SolveOptions {
  /** Give up after this many milliseconds and answer 'unknown' (reason says timeout). */
  readonly timeLimitMs?: number;
  /**
   * Give up after this many conflicts and answer 'unknown' (reason: conflict limit). A budget of
   * work, not time, so a search bounded by it answers alike at any load. Back ends that cannot count
   * conflicts (an external solver without such an option) ignore it.
   */
  readonly conflicts?: number;
  /**
   * Give up after this many unit propagations (reason: propagation limit). Conflicts alone do not
   * bound a solve's time, since a conflict on a CNF of millions of clauses costs far more than on a
   * small one; propagations grow with the clauses visited. Only the embedded MiniSat has this
   * budget; z3 and the external solvers count conflicts alone.
   */
  readonly propagations?: number;
  /** Aborting stops the solve; the result is 'unknown' with reason 'cancelled' (e.g. a portfolio's loser). */
  readonly signal?: AbortSignal;
}

export interface SatBackend {
  readonly name: string;
  solve(cnf: Cnf, options?: SolveOptions): Promise<SatResult>;
  /** Optional: start any expensive initialisation now, in the background, ahead of a solve soon. */
  warmUp?(): void;
  /** Optional: an incremental session, for a caller whose CNF only grows between solves. */
  session?(): SatSession;
}

/**
 * Solves of a CNF that only grows: each solve is given the whole CNF, of which the clauses before
 * the last solve's are unchanged; the solver keeps what it learnt and is sent only the new clauses.
 * The limits and the work reported are each solve's own. close() when done.
 */
export interface SatSession {
  solve(cnf: Cnf, options?: SolveOptions): Promise<SatResult>;
  close(): void;
}

/** `backend`'s incremental session, or its one-shot solves where it has none. */
export function sessionOf(backend: SatBackend): SatSession {
  return backend.session?.() ?? { solve: (cnf, options) => backend.solve(cnf, options), close: () => undefined };
}
