// Structural validation of a CNF and the independent model check every back end goes through, so a
// buggy or misconfigured solver can never hand a wrong 'sat' answer downstream.
import type { Cnf, SatResult } from './types.js';

/** Throws a RangeError when `cnf` breaks the Cnf contract (an encoder bug, not a user error). */
export function assertWellFormedCnf(cnf: Cnf): void {
  const { numVars } = cnf;
  if (!Number.isInteger(numVars) || numVars < 0 || numVars > 0x7fffffff) {
    throw new RangeError(`CNF: numVars must be a non-negative 32-bit integer, got ${numVars}`);
  }
  cnf.clauses.forEach((clause, index) => {
    for (const literal of clause) {
      if (!Number.isInteger(literal) || literal === 0 || Math.abs(literal) > numVars) {
        throw new RangeError(`CNF: clause ${index} has literal ${literal} outside ±1..${numVars}`);
      }
    }
  });
}

/** The first clause index that `model` falsifies, or -1 when it satisfies every clause. */
export function firstFalsifiedClause(cnf: Cnf, model: readonly boolean[]): number {
  const { clauses } = cnf;
  for (let index = 0; index < clauses.length; index++) {
    const clause = clauses[index]!;
    let satisfied = false;
    for (const literal of clause) {
      if (model[Math.abs(literal)] === literal > 0) {
        satisfied = true;
        break;
      }
    }
    if (!satisfied) return index;
  }
  return -1;
}

/** True when `model` (index 0 unused, one entry per variable) satisfies every clause. */
export function satisfies(cnf: Cnf, model: readonly boolean[]): boolean {
  return model.length === cnf.numVars + 1 && firstFalsifiedClause(cnf, model) === -1;
}

export const INVALID_MODEL_REASON = 'solver returned an invalid model';

/**
 * The single exit for a 'sat' answer: the model is re-checked against the CNF here, and a model that
 * does not satisfy it becomes 'unknown'.
 */
export function checkedSat(cnf: Cnf, model: readonly boolean[], backend: string, startedAt: number, solverMillis?: number): SatResult {
  const millis = elapsedSince(startedAt);
  if (!satisfies(cnf, model)) return { status: 'unknown', reason: INVALID_MODEL_REASON, millis, backend };
  return { status: 'sat', model, millis, ...solverTime(solverMillis), backend };
}

export function unsatResult(backend: string, startedAt: number, solverMillis?: number): SatResult {
  return { status: 'unsat', millis: elapsedSince(startedAt), ...solverTime(solverMillis), backend };
}

function solverTime(solverMillis: number | undefined): { solverMillis?: number } {
  return solverMillis === undefined ? {} : { solverMillis: Math.round(solverMillis) };
}

export function unknownResult(reason: string, backend: string, startedAt: number): SatResult {
  return { status: 'unknown', reason, millis: elapsedSince(startedAt), backend };
}

export function timeoutReason(timeLimitMs: number): string {
  return `timeout after ${timeLimitMs} ms`;
}

export function conflictLimitReason(conflicts: number): string {
  return `conflict limit reached (${conflicts} conflicts)`;
}

export function propagationLimitReason(propagations: number): string {
  return `propagation limit reached (${propagations} propagations)`;
}

export const CANCELLED_REASON = 'cancelled';

export function elapsedSince(startedAt: number): number {
  return Math.round(performance.now() - startedAt);
}

/**
 * Answers that need no solver: an empty clause makes the CNF unsat, and a CNF with no clauses is
 * satisfied by all-false. Returns null when a solver is needed.
 */
export function trivialAnswer(cnf: Cnf, backend: string, startedAt: number): SatResult | null {
  if (cnf.clauses.some((clause) => clause.length === 0)) return unsatResult(backend, startedAt);
  if (cnf.clauses.length === 0) {
    return checkedSat(cnf, new Array<boolean>(cnf.numVars + 1).fill(false), backend, startedAt);
  }
  return null;
}
