// Limits on the work of one analysis step. Two kinds, both ending the step with "unknown" and the
// reason, never with a crash:
//  - the user's --timeout, checked inside long synchronous work (building a step's Farkas system,
//    bit-blasting it): past the deadline the work stops by throwing DeadlineExceeded;
//  - sizes that count work, not time, so the answer does not depend on the machine's load: a
//    formula's DNF, a step's Farkas applications and its CNF. Past them a step would take minutes and
//    gigabytes (a wrap-around in every branch of a path gives a guard with 2^k cases) and could not
//    be solved anyway; WorkLimitExceeded stops it deterministically.

/** Cubes of one formula's disjunctive normal form (a VC's guard, a fact, a conclusion's negation). */
export const MAX_DNF_CUBES = 4096;
/** Cases of a path's guard used as they are in the premise of Farkas' lemma (constraints/farkas.ts):
 * a larger guard is weakened to this many. Of the dev-set tasks, four have larger guards: sumt4 (64
 * cases), nested_delay_nd and _notd2 (96), sumt6 (1024); none of them was proved before the limit. */
export const MAX_GUARD_CUBES = 16;
/** Farkas' lemma applications (premise cube × conclusion clause) in one step's constraint system. */
export const MAX_FARKAS_APPLICATIONS = 50_000;
/** Clauses of one step's CNF (about 100 bytes each while it is built). The largest step that proved
 * a dev-set task had 1.2 million; steps of 17 million never finished, and on one of 7 million the
 * step's propagation budget (SAT_STEP_PROPAGATIONS) allows about 9,000 conflicts. */
export const MAX_CNF_CLAUSES = 4_000_000;
/** Transitions of one path of the symbolic-execution engine, whose search recurses along the path
 * (an async recursion: a frame per transition); past it the engine answers unknown, not a stack
 * overflow (issue 20: 50,000 straight-line statements). */
export const MAX_SYMBOLIC_PATH = 1000;

export class DeadlineExceeded extends Error {
  constructor() {
    super('deadline passed');
    this.name = 'DeadlineExceeded';
  }
}

/** Throws DeadlineExceeded once `deadline` (epoch milliseconds; Infinity: none) has passed. */
export function checkDeadline(deadline: number | undefined): void {
  if (deadline !== undefined && Date.now() > deadline) throw new DeadlineExceeded();
}

/** A size limit above was reached; the message says which (it is the "unknown" reason). */
export class WorkLimitExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkLimitExceeded';
  }
}

/**
 * Why building a search step stopped: past the deadline (the search then ends "unknown (timeout)") or
 * past a size limit (only that step is skipped, with the reason: the other steps differ in template
 * shape and facts). Any other error is rethrown.
 */
export function stepBuildStopped(e: unknown): { readonly timeout: true } | { readonly timeout: false; readonly reason: string } {
  if (e instanceof DeadlineExceeded) return { timeout: true };
  if (e instanceof WorkLimitExceeded) return { timeout: false, reason: e.message };
  throw e;
}

// Work budgets of the checker's searches, in z3's resource units (its `rlimit`: internal steps, the
// same on an idle or a busy machine; lib/certify/lia-solver.ts). A search bounded by them gives the same
// answer at any load; the user's --timeout is the only wall clock. z3 spends 300,000 to 1,000,000
// units per second of check on this project's machines, depending on the query (measured on the
// checks of benchmarks/ and of the tests); each budget is at least the time budget it replaced.

/** One check of a final certificate obligation (was 60 s). */
export const CERTIFICATE_CHECK_WORK = 25_000_000;
/** Verify's Houdini pass over the observed candidates, all its rounds (was 3 s). */
export const HOUDINI_WORK = 6_000_000;
/** One Houdini round's check (was at most 1 s). A check that runs out drops every candidate at its
 * cut-point, so this errs on the large side: 400,000 emptied the ghosted multiple-of-three proof. */
export const HOUDINI_CHECK_WORK = 2_000_000;
/** One implication test while minimising a proved conjunction (was 200 ms). */
export const MINIMISE_CHECK_WORK = 200_000;
/** sp's Houdini pass over the observed postcondition candidates (was up to 30 s). */
export const OBSERVED_POST_WORK = 12_000_000;
/** Minimising sp's observed postcondition and its invariants (was at least 2 s). */
export const OBSERVED_POST_MINIMISE_WORK = 800_000;
/** wp's data-driven precondition search: Houdini under each candidate precondition, all of them
 * (was up to 60 s, a third of the time left). */
export const OBSERVED_PRE_TOTAL_WORK = 24_000_000;

// Work budgets of concrete runs, in interpreter steps (the interpreter runs about 3,000 steps per
// millisecond here); each replaced a time budget of about the same length.

/** A search for a failing input inside a region (a neighbour of a precondition): grid points, then
 * points z3 finds (was 3 s). */
export const REGION_FAILURE_STEPS = 9_000_000;
/** The same for wp's neighbour witnesses of a plain answer (was 2 s). */
export const NEIGHBOUR_FAILURE_STEPS = 6_000_000;
/** The same for a shifted atom's slab (was 1 s). */
export const SLAB_FAILURE_STEPS = 3_000_000;
/** The same before wp's observed search tries a weaker precondition (was 300 ms). */
export const WEAKER_FAILURE_STEPS = 1_000_000;
/** cex: the first failing input among the sampled ones, and a failing input inside an answer (was 5 s). */
export const CEX_FAILURE_STEPS = 15_000_000;
/** wp's sampled inputs (was 4 s). */
export const WP_SAMPLE_STEPS = 12_000_000;
/** One z3 query for a point inside a region (was 2 s). */
export const POINT_QUERY_WORK = 800_000;

/** One z3 query of an interpolation engine (path feasibility, a node's satisfiability; was 10–30 s). */
export const ENGINE_QUERY_WORK = 4_000_000;
/** A side question to z3 in a condition search or a witness (an implication, an equivalence, a point
 * beyond a relation; was 2–5 s). */
export const SIDE_QUERY_WORK = 2_000_000;

// Work budgets of SAT searches, in conflicts and unit propagations (MiniSat's and z3's own counts;
// lib/sat/types.ts). Both, because a conflict's cost grows with the CNF: the embedded MiniSat meets
// 3,000 to 30,000 conflicts per second on small template steps and 500 on a step of 7 million
// clauses, while it does 1.5 to 2.7 million propagations per second on all of them (measured on the
// steps of loop-acceleration/diamond_1-1, ../shared/bench/svcomp). Propagations are counted by the
// embedded MiniSat only; z3 and the external solvers stop at the conflicts.

/** The SAT work of one solve or of a search: whichever runs out first ends it. */
export interface SatWork {
  readonly conflicts: number;
  readonly propagations: number;
}

/** One template step of verify (also each interprocedural step; a guided guess gets half). The
 * largest that proved a dev-set task used 23,000 conflicts (large_const, 1x2) and 3 s. */
export const SAT_STEP_CONFLICTS = 50_000;
/** The same step's propagations: about 15 s of the embedded MiniSat. A small step may need many per
 * conflict: the summary of a recursive sum that writes a global (cli/commands/verify.test.ts) takes
 * 15 million propagations and 30,000 conflicts on 97,000 clauses, where the 7-million-clause step
 * of diamond_1-1 takes 3,200 propagations per conflict. */
export const SAT_STEP_PROPAGATIONS = 30_000_000;
/** All template steps of one verify together, the search with procedure summaries too: about half a
 * minute of the embedded MiniSat (no dev-set task proved by a template step used more than 4 s). */
export const VERIFY_SAT_WORK: SatWork = { conflicts: 200_000, propagations: 60_000_000 };
/** The whole search of wp, sp, bounds, cex and nonterm when the caller sets no --timeout (the CLI's
 * default too): the user's clock, the only one. */
export const CONDITION_SEARCH_TIMEOUT_MS = 300_000;
/** `verify --cex` without --timeout: the failing-condition search after an "unknown" verdict. */
export const CEX_AFTER_VERIFY_TIMEOUT_MS = 120_000;
/** One query of a condition search (wp, sp, bounds, cex, nonterm; was 30 s). */
export const CONDITION_QUERY_CONFLICTS = 100_000;
/** The same query's propagations: about 25 s of the embedded MiniSat. */
export const CONDITION_QUERY_PROPAGATIONS = 50_000_000;

/**
 * The limits of one SAT search step: its work, and a time limit only where the user gave one —
 * a step's own (`--step-timeout`, a schedule step's `timeout`) and the rest of the --timeout.
 */
export function satStepLimits(work: SatWork, stepTimeoutMs: number | undefined, deadline: number): SatWork & { readonly timeoutMs?: number } {
  const timeoutMs = Math.min(stepTimeoutMs ?? Infinity, deadline - Date.now());
  return Number.isFinite(timeoutMs) ? { ...work, timeoutMs: Math.max(1, timeoutMs) } : { ...work };
}

/** Work left to a search: each check gets at most what is left, and pays what it used. */
export class WorkBudget {
  private spent = 0;

  constructor(readonly limit: number) {}

  get left(): number {
    return Math.max(0, this.limit - this.spent);
  }

  get exhausted(): boolean {
    return this.spent >= this.limit;
  }

  /** The work for the next check: `cap`, or what is left when that is less. */
  next(cap: number): number {
    return Math.min(cap, this.left);
  }

  charge(units: number): void {
    this.spent += units;
  }
}

/** SAT work left to a search of several solves: each solve gets at most what is left of both. */
export class SatWorkBudget {
  private readonly conflicts: WorkBudget;
  private readonly propagations: WorkBudget;

  constructor(readonly limit: SatWork) {
    this.conflicts = new WorkBudget(limit.conflicts);
    this.propagations = new WorkBudget(limit.propagations);
  }

  get exhausted(): boolean {
    return this.conflicts.exhausted || this.propagations.exhausted;
  }

  /** The work for the next solve: `cap`, or what is left where that is less. */
  next(cap: SatWork): SatWork {
    return { conflicts: this.conflicts.next(cap.conflicts), propagations: this.propagations.next(cap.propagations) };
  }

  /** Pays a solve's work (a back end that does not count propagations pays conflicts only). */
  charge(done: { readonly conflicts?: number; readonly propagations?: number }): void {
    this.conflicts.charge(done.conflicts ?? 0);
    this.propagations.charge(done.propagations ?? 0);
  }

  /** The limit, for an "unknown" reason. */
  describe(): string {
    return `${this.limit.conflicts} conflicts or ${this.limit.propagations} propagations`;
  }
}
