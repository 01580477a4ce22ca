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
  readonly millis: number;
  readonly backend: string;
}

export interface SolveOptions {
  /** Give up after this many milliseconds and answer 'unknown' (reason says timeout). */
  readonly timeoutMs?: number;
  /** Aborting stops the solve; the result is 'unknown' with reason 'cancelled' (e.g. a portfolio's loser). */
  readonly signal?: AbortSignal;
}

export interface SatBackend {
  readonly name: string;
  solve(cnf: Cnf, options?: SolveOptions): Promise<SatResult>;
}
