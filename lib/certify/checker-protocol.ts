// Messages between the checker's client (lia-solver.ts) and its z3: the WASM thread (checker-worker.ts)
// or a native process (native-checker.ts).

export type Sort = 'Int' | 'Bool';

export type CheckStatus = 'sat' | 'unsat' | 'unknown';

export interface CheckOutcome {
  readonly status: CheckStatus;
  /** For 'unknown': why (time limit, z3's own reason, or the error z3 raised). */
  readonly reason?: string;
  readonly millis: number;
  /** z3's resource units the check consumed (counted only when CheckLimits.work is given, else 0). */
  readonly work: number;
}

export interface CheckLimits {
  /** Give up after this many milliseconds: the answer is 'unknown' with a reason saying timeout.
   * Only the user's --timeout should reach here: it is the one limit that depends on the machine.
   * The client enforces it (it ends the thread: lia-solver.ts); the thread never sees it. */
  readonly timeLimitMs?: number;
  /**
   * Give up after this many of z3's resource units (its `rlimit`: a count of internal steps, the same
   * on an idle or a busy machine), answering 'unknown' with a reason saying so. Searches bound their
   * checks by work, so that their answers do not depend on the machine's load (lib/limits.ts).
   */
  readonly work?: number;
  /**
   * Simplify and solve the equalities before the SMT core (PREPROCESSING_TACTICS), for queries that
   * are mostly copies and definitions: a chain of clause instances (lib/chc/unfold.ts), where a
   * Lustre system's 17 instances took 0.38 of the SMT core's resource units alone and a seventh of
   * its time; and for a model whose interpretations have quantifiers (lib/chc/model.ts), whose light
   * ones (qe-light) are eliminated first. Models still give every symbol a value.
   */
  readonly preprocess?: boolean;
}

/** The tactics before z3's SMT core when a check asks for preprocessing, in order. */
export const PREPROCESSING_TACTICS: readonly [string, string, ...string[]] = ['simplify', 'propagate-values', 'qe-light', 'solve-eqs', 'smt'];

/**
 * One satisfiability check. The thread keeps the current job's symbols and assertions, so a check
 * sends only those added since the job's previous check; a new `job` number starts from none.
 */
export interface CheckRequest {
  readonly kind: 'check';
  readonly id: number;
  readonly job: number;
  readonly symbols: readonly (readonly [string, Sort])[];
  readonly assertions: readonly string[];
  /** Terms that hold for this check only. */
  readonly goals: readonly string[];
  /** The work limit and the preprocessing: the time limit stays with the client. */
  readonly limits: Pick<CheckLimits, 'work' | 'preprocess'>;
  /** A new job starts in a new z3 context: its models then depend on its own checks alone, not on
   * the terms earlier jobs left in the context (withLiaSolver's `fresh`). */
  readonly fresh?: boolean;
}

export interface CheckReply {
  readonly kind: 'checked';
  readonly id: number;
  readonly outcome: CheckOutcome;
  /** For 'sat': z3's model, as `(define-fun …)` text. */
  readonly model?: string;
}

/** z3's parameters are unsigned 32-bit. */
const MAX_PARAMETER = 0xfffffffe;

/** z3's 'rlimit' for a check's work limit: 0 (none) without one, else at least 1 and at most what a
 * parameter holds. */
export function rlimitFor(work: number | undefined): number {
  return work === undefined ? 0 : Math.min(Math.max(1, Math.ceil(work)), MAX_PARAMETER);
}

/** `(declare-const …)` for the symbols of `sorts` that `text` uses and `declared` does not hold yet
 * (added to it). */
export function declarationsFor(text: string, sorts: ReadonlyMap<string, Sort>, declared: Set<string>): string[] {
  const declarations: string[] = [];
  for (const token of text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) {
    const sort = sorts.get(token);
    if (sort !== undefined && !declared.has(token)) {
      declared.add(token);
      declarations.push(`(declare-const ${token} ${sort})`);
    }
  }
  return declarations;
}

/** The reply of a check that z3 did not answer (its checker failed, was ended, or ran out of time). */
export function unknownReply(id: number, reason: string, millis = 0): CheckReply {
  return { kind: 'checked', id, outcome: { status: 'unknown', reason, millis, work: 0 } };
}

/** z3's reason for 'unknown' in words; `workLimit` is the check's (if any), `work` what it used. */
export function describeUnknown(z3Reason: string, workLimit: number | undefined, millis: number, work: number): string {
  // An exhausted 'rlimit' shows as "max. resource limit exceeded" or "canceled". (A time limit or
  // shutdownZ3 ends the checker's thread or process instead of interrupting z3: its client answers
  // for the check, lia-solver.ts.)
  if (/resource|canceled/i.test(z3Reason) && workLimit !== undefined && work >= workLimit) {
    return `work limit reached (${workLimit} of z3's resource units)`;
  }
  if (/interrupt|cancel/i.test(z3Reason)) return `z3 was interrupted after ${millis} ms (${z3Reason})`;
  return `z3 answered unknown: ${z3Reason || 'no reason given'}`;
}
