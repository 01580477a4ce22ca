// Messages between the MiniSat back end and its worker threads. A worker is started with
// `workerData: MinisatWorkerConfig`, then receives one MinisatJob message per solve.

export interface MinisatWorkerConfig {
  readonly heapBytes: number;
}

export interface MinisatJob {
  readonly numVars: number;
  /** Clauses as DIMACS-style literals, each clause followed by a 0 (transferred, not cloned). */
  readonly flatClauses: Int32Array;
  /** Stop after this many conflicts (reply 'budget'); absent: no limit. */
  readonly conflictLimit?: number;
  /** Stop after this many propagations (reply 'budget'); absent: no limit. */
  readonly propagationLimit?: number;
  /**
   * An incremental session (MinisatSession): the worker keeps this job's solver, and a later job of
   * the same session adds its clauses to it (and solves again, with what it learnt) instead of
   * starting a new one. The limits and the work replied count this job's solve alone.
   */
  readonly session?: number;
}

/** The work a solve did (MiniSat's own counters). */
export interface MinisatWorkDone {
  readonly conflicts: number;
  readonly propagations: number;
}

export type MinisatReply =
  | { readonly kind: 'sat'; /** assignment[v] is 1 when variable v is true (index 0 unused). */ readonly assignment: Uint8Array; readonly solveMillis: number; readonly work: MinisatWorkDone }
  | { readonly kind: 'unsat'; /** Time in the worker from receiving the job to the answer. */ readonly solveMillis: number; readonly work: MinisatWorkDone }
  | { readonly kind: 'budget'; /** A work limit ran out first. */ readonly solveMillis: number; readonly work: MinisatWorkDone }
  | { readonly kind: 'out-of-memory'; readonly detail: string }
  | { readonly kind: 'failed'; readonly detail: string };
