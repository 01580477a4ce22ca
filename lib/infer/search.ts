// What the precondition and postcondition searches share: the schedule of invariant templates, the
// solver queries with progress and statistics, and certification by the independent checker.
import type { Formula } from '../ir/formula.js';
import * as F from '../ir/formula.js';
import type { Program } from '../ir/cfg.js';
import { loadSchedule, type Schedule, type ScheduleStep } from '../constraints/schedule.js';
import { createBackend, DEFAULT_BACKEND_SPEC } from '../sat/index.js';
import type { SatBackend } from '../sat/types.js';
import { checkInvariants } from '../certify/certificate.js';
import type { CutsetStrategy } from '../vc/cutset.js';
import { constantBitsNeeded } from '../problem/prepare.js';
import { solveConditionQuery, type ConditionQuery, type QueryOutcome, type QueryStats } from './query.js';
import type { ConditionProblem } from './condition-problem.js';
import { lineOf } from './condition-problem.js';
import { constantsOf } from '../ir/constants.js';
import { readableInvariants } from '../certify/readable.js';
import type { ConditionEvent } from './types.js';
import type { ProgressEvent } from '../problem/result.js';
import { CONDITION_QUERY_CONFLICTS, CONDITION_QUERY_PROPAGATIONS, CONDITION_SEARCH_TIMEOUT_MS, Deadline, READABLE_INVARIANT_CHECKS, READABLE_CONSTANT_CHECKS, satStepLimits } from '../limits.js';

export interface ConditionOptions {
  readonly function?: string;
  readonly cutset?: CutsetStrategy;
  readonly schedule?: string | Schedule;
  readonly backend?: string | SatBackend;
  /** Bound on the whole search (default 300 s). */
  readonly timeoutMs?: number;
  /** The deadline of a caller that runs several searches (bounds, nonterm): handed down as it is,
   * in place of timeoutMs and signal, so that the whole command has one clock. */
  readonly deadline?: Deadline;
  /** Time limit of one solver query (default: none but the search's). */
  readonly queryTimeoutMs?: number;
  /** Conflict budget of one solver query (default CONDITION_QUERY_CONFLICTS, lib/limits.ts). */
  readonly queryConflicts?: number;
  /** Propagation budget of one solver query (default CONDITION_QUERY_PROPAGATIONS). */
  readonly queryPropagations?: number;
  /** Most conjuncts tried for the answer's template (default 4). */
  readonly maxConjuncts?: number;
  readonly onProgress?: (e: ConditionEvent) => void;
}

/** The constraint engine's options a condition search hands on when it proves a program of its own
 * (an instrumented one): the user's cut-set, schedule and back end. */
export function constraintOptionsOf(options: Pick<ConditionOptions, 'cutset' | 'schedule' | 'backend'>): { cutset?: CutsetStrategy; schedule?: string | Schedule; backend?: string | SatBackend; observedBounds: 'second' } {
  return {
    // Their many small proofs (a bound's, a ranking function's) the first template step usually
    // settles: the observed bounds after it, as before verify put them first.
    observedBounds: 'second',
    ...(options.cutset ? { cutset: options.cutset } : {}),
    ...(options.schedule ? { schedule: options.schedule } : {}),
    ...(options.backend ? { backend: options.backend } : {}),
  };
}

/** The steps of a constraint-engine proof that a search runs on a program of its own (a bound's, a
 * ranking function's), passed on as the search's progress events; nothing without a listener. */
export function proofProgress(options: Pick<ConditionOptions, 'onProgress'>, wrap: (event: ProgressEvent) => ConditionEvent): { onProgress?: (e: ProgressEvent) => void } {
  const listener = options.onProgress;
  return listener ? { onProgress: (event) => listener(wrap(event)) } : {};
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
    readonly options: ConditionOptions,
  ) {
    this.deadline = options.deadline ?? new Deadline(options.timeoutMs ?? CONDITION_SEARCH_TIMEOUT_MS, undefined, this.started);
    this.backend = typeof options.backend === 'object' ? options.backend : createBackend(options.backend ?? DEFAULT_BACKEND_SPEC);
    const schedule = typeof options.schedule === 'object' ? options.schedule : loadSchedule(options.schedule);
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
      conflicts: q.step.conflicts ?? this.options.queryConflicts ?? CONDITION_QUERY_CONFLICTS,
      propagations: q.step.propagations ?? this.options.queryPropagations ?? CONDITION_QUERY_PROPAGATIONS,
    };
    const limits = satStepLimits(work, q.step.timeLimitMs ?? this.options.queryTimeoutMs, this.deadline);
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
