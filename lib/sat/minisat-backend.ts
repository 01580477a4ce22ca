// The default back end: logic-solver's MiniSat (asm.js) in a worker thread (see minisat-pool.ts).
import {
  assertWellFormedCnf,
  CANCELLED_REASON,
  checkedSat,
  conflictLimitReason,
  propagationLimitReason,
  timeoutReason,
  trivialAnswer,
  unknownResult,
  unsatResult,
} from './cnf-check.js';
import { assertValidHeapBytes } from './minisat-module.js';
import { minisatPool, type SessionWorker } from './minisat-pool.js';
import type { MinisatJob, MinisatWorkDone } from './minisat-protocol.js';
import type { Cnf, SatBackend, SatResult, SatSession, SolveOptions } from './types.js';

let nextSession = 0;

/** An incremental session: its worker (which keeps its solver) and how many clauses that holds. */
interface Session {
  readonly id: number;
  readonly worker: SessionWorker;
  sent: number;
}

export const DEFAULT_MINISAT_HEAP_BYTES = 1024 * 1024 * 1024;
export const OUT_OF_MEMORY_REASON = 'SAT solver out of memory';

export interface MinisatOptions {
  /** Size of MiniSat's fixed heap (multiple of 16 MiB). Default 1 GiB; reserved lazily by the OS. */
  readonly heapBytes?: number;
}

/** Clauses as one Int32Array, each clause followed by 0, so it can be transferred to the worker. */
export function flattenClauses(cnf: Cnf): Int32Array {
  let length = 0;
  for (const clause of cnf.clauses) length += clause.length + 1;
  const flat = new Int32Array(length);
  let at = 0;
  for (const clause of cnf.clauses) {
    for (const literal of clause) flat[at++] = literal;
    flat[at++] = 0;
  }
  return flat;
}

export class MinisatBackend implements SatBackend {
  readonly name = 'minisat';
  private readonly heapBytes: number;

  constructor(options: MinisatOptions = {}) {
    this.heapBytes = options.heapBytes ?? DEFAULT_MINISAT_HEAP_BYTES;
    assertValidHeapBytes(this.heapBytes);
  }

  warmUp(): void {
    minisatPool(this.heapBytes).warm();
  }

  solve(cnf: Cnf, options: SolveOptions = {}): Promise<SatResult> {
    return this.solveOn(cnf, options);
  }

  /** An incremental session on a worker of its own (see SatSession). */
  session(): SatSession {
    const session: Session = { id: nextSession++, worker: { worker: null }, sent: 0 };
    return {
      solve: (cnf, options = {}) => this.solveOn(cnf, options, session),
      close: () => minisatPool(this.heapBytes).closeSession(session.worker),
    };
  }

  private async solveOn(cnf: Cnf, options: SolveOptions, session?: Session): Promise<SatResult> {
    const startedAt = performance.now();
    assertWellFormedCnf(cnf);
    const trivial = trivialAnswer(cnf, this.name, startedAt);
    if (trivial) return trivial;
    if (options.signal?.aborted) return unknownResult(CANCELLED_REASON, this.name, startedAt);

    // A session's worker holds the clauses sent before; a new one (or none yet) is sent them all.
    const from = session && session.worker.worker !== null ? session.sent : 0;
    const job: MinisatJob = {
      numVars: cnf.numVars,
      flatClauses: flattenClauses(from > 0 ? { ...cnf, clauses: cnf.clauses.slice(from) } : cnf),
      ...(options.conflicts !== undefined ? { conflictLimit: options.conflicts } : {}),
      ...(options.propagations !== undefined ? { propagationLimit: options.propagations } : {}),
      ...(session ? { session: session.id } : {}),
    };
    const outcome = await minisatPool(this.heapBytes).run(job, options, session?.worker);
    if (session) session.sent = session.worker.worker === null ? 0 : cnf.clauses.length;
    switch (outcome.kind) {
      case 'sat':
        return { ...checkedSat(cnf, Array.from(outcome.assignment, (bit) => bit === 1), this.name, startedAt, outcome.solveMillis), ...outcome.work };
      case 'unsat':
        return { ...unsatResult(this.name, startedAt, outcome.solveMillis), ...outcome.work };
      case 'budget':
        return { ...unknownResult(budgetReason(options, outcome.work), this.name, startedAt), solverMillis: Math.round(outcome.solveMillis), ...outcome.work };
      case 'out-of-memory':
        return unknownResult(OUT_OF_MEMORY_REASON, this.name, startedAt);
      case 'timeout':
        return unknownResult(timeoutReason(options.timeLimitMs!), this.name, startedAt);
      case 'cancelled':
        return unknownResult(CANCELLED_REASON, this.name, startedAt);
      case 'failed':
        return unknownResult(`MiniSat failed: ${outcome.detail}`, this.name, startedAt);
      case 'crashed':
        return unknownResult(`MiniSat worker crashed: ${outcome.detail}`, this.name, startedAt);
    }
  }
}

/** Which budget ended a solve: the propagations when they reached theirs, else the conflicts. */
function budgetReason(options: SolveOptions, work: MinisatWorkDone): string {
  if (options.propagations !== undefined && work.propagations >= options.propagations) return propagationLimitReason(options.propagations);
  return conflictLimitReason(options.conflicts!);
}
