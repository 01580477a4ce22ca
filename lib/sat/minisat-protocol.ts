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
}

export type MinisatReply =
  | { readonly kind: 'sat'; /** assignment[v] is 1 when variable v is true (index 0 unused). */ readonly assignment: Uint8Array; readonly solveMillis: number; readonly conflicts: number }
  | { readonly kind: 'unsat'; /** Time in the worker from receiving the job to the answer. */ readonly solveMillis: number; readonly conflicts: number }
  | { readonly kind: 'budget'; /** The conflict limit ran out first. */ readonly solveMillis: number; readonly conflicts: number }
  | { readonly kind: 'out-of-memory'; readonly detail: string }
  | { readonly kind: 'failed'; readonly detail: string };
