// What the precondition and postcondition searches share: the schedule of invariant templates, the
// solver queries with progress and statistics, and certification by the independent checker.
import type { Formula } from '../ir/formula.js';
import * as F from '../ir/formula.js';
import type { Program } from '../ir/cfg.js';
import type { ScheduleStep } from '../constraints/schedule.js';
import type { SatBackend } from '../sat/types.js';
import { checkInvariants } from '../certify/certificate.js';
import { constantBitsNeeded } from '../problem/prepare.js';
import { solveConditionQuery, type ConditionQuery, type QueryOutcome, type QueryStats } from './query.js';
import type { ConditionProblem } from './condition-problem.js';
import { lineOf } from './condition-problem.js';
import { constantsOf } from '../ir/constants.js';
import { readableInvariants } from '../certify/readable.js';
import type { ConditionEvent } from './types.js';
import type { ProgressEvent } from '../result.js';
import { READABLE_INVARIANT_CHECKS, READABLE_CONSTANT_CHECKS, satStepLimits, type Deadline } from '../limits.js';
import type { Settings } from '../settings.js';
import type { VerifySearch } from '../engines/constraint/verify.js';

/** What a condition search asks beyond its problem and settings. */
export interface ConditionOptions {
  /** Most conjuncts tried for the answer's template (default 4). */
  readonly maxConjuncts?: number;
  readonly onProgress?: (e: ConditionEvent) => void;
}

/** The constraint engine's options for a proof a condition search runs on a program of its own (a
 * bound's, a ranking function's): its steps passed on as the search's progress events (nothing
 * without a listener), and the observed bounds after the first template step, whose many small
 * proofs it usually settles. */
export function proofSearch(options: Pick<ConditionOptions, 'onProgress'>, wrap: (event: ProgressEvent) => ConditionEvent): VerifySearch {
  const listener = options.onProgress;
  return { observedBounds: 'second', ...(listener ? { onProgress: (event: ProgressEvent) => listener(wrap(event)) } : {}) };
}

export class SearchContext {
  readonly started = Date.now();
  readonly deadline: Deadline;
  readonly backend: SatBackend;
  readonly steps: readonly ScheduleStep[];
  readonly queries: QueryStats[] = [];
  iterations = 0;

  constructor(
    readonly program: Program,
    readonly problem: ConditionProblem,
    readonly settings: Settings,
    readonly options: ConditionOptions,
  ) {
    this.deadline = settings.deadline;
    this.backend = settings.backend;
    const { schedule } = settings;
    const constantBits = constantBitsNeeded(problem.prepared);
    this.steps = schedule.steps
      .filter((s) => (s.summaries ?? 1) === 1)
      .map((s) => ({ ...s, widths: { ...s.widths, constant: Math.max(s.widths.constant, constantBits) } }));
  }

  /** Solver queries after which the current part of the search ends. */
  private windowEnd = Infinity;

  /** Gives the next part of the search at most `queries` solver queries (within the whole search's
   * deadline): a count of work, so that a part ends at the same point on an idle or a busy machine. */
  limitNextPart(queries: number): void {
    this.windowEnd = this.queries.length + queries;
  }

  /** The current part's queries, or the whole search's time, are spent. */
  get timedOut(): boolean {
    return this.queries.length >= this.windowEnd || this.deadlinePassed;
  }

  /** The whole search's time is spent (not just the current part's). */
  get deadlinePassed(): boolean {
    return this.deadline.passed;
  }

  async query(q: Omit<ConditionQuery, 'problem' | 'backend' | 'limits'>, purpose: string): Promise<QueryOutcome> {
    const index = this.queries.length;
    this.options.onProgress?.({ kind: 'query-start', index, conjuncts: q.conjuncts, template: `${q.step.shape.disjuncts}x${q.step.shape.conjuncts}`, purpose });
    const work = {
      conflicts: q.step.conflicts ?? this.settings.limits.queryConflicts,
      propagations: q.step.propagations ?? this.settings.limits.queryPropagations,
    };
    const limits = satStepLimits(work, q.step.timeLimitMs ?? this.settings.limits.queryTimeLimitMs, this.deadline);
    const outcome = await solveConditionQuery({ ...q, problem: this.problem, backend: this.backend, limits });
    this.queries.push(outcome.stats);
    this.options.onProgress?.({ kind: 'query-done', index, stats: outcome.stats });
    return outcome;
  }

  /** The independent check: the program is safe under `precondition` with these invariants, and
   * `postcondition` holds at the exit. */
  async certify(invariants: ReadonlyMap<number, Formula>, conditions: { precondition?: Formula; postcondition?: Formula; workPerCheck?: number }): Promise<boolean> {
    const { prepared } = this.problem;
    const result = await checkInvariants(prepared.preparedProgram, prepared.function, invariants, {
      precondition: F.and(prepared.precondition, conditions.precondition ?? F.TRUE),
      ...(conditions.postcondition ? { postcondition: conditions.postcondition } : {}),
      ...(conditions.workPerCheck !== undefined ? { workPerCheck: conditions.workPerCheck } : {}),
      deadline: this.deadline,
    });
    return result.valid;
  }

  /** The certified invariants as printed: made readable (lib/certify/readable.ts) under the same
   * conditions, so what is printed is what the checker validated last. */
  async invariantReports(invariants: ReadonlyMap<number, Formula>, certify: (candidate: ReadonlyMap<number, Formula>) => Promise<boolean>): Promise<{ line: number; expression: string }[]> {
    const proc = this.problem.prepared.cut.proc;
    const readable = await readableInvariants(invariants, certify, READABLE_INVARIANT_CHECKS, READABLE_CONSTANT_CHECKS, constantsOf(proc));
    return [...readable].map(([loc, f]) => ({ line: lineOf(proc, loc), expression: F.toC(f) })).sort((a, b) => a.line - b.line);
  }

  stats(concreteRuns: number) {
    return { queries: this.queries, iterations: this.iterations, concreteRuns, millis: Date.now() - this.started };
  }
}
