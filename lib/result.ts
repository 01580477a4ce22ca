// Result types shared by every engine and every report (CLI text, --json, UI, harness).
import type { Formula } from './ir/formula.js';
import type { Widths } from './constraints/system.js';
import type { CutsetStrategy } from './vc/cutset.js';

export type Verdict = 'safe' | 'unsafe' | 'unknown';

export interface InvariantReport {
  readonly function: string;
  readonly line: number;
  readonly col: number;
  /** C expression over the program's variables. */
  readonly expression: string;
  /** Cut-point location id in the prepared (possibly path-expanded) procedure. */
  readonly location: number;
  readonly formula: Formula;
}

/** One pre/post pair of a procedure summary (paper 004, Section 3). */
export interface SummaryPairReport {
  /** C expression over the procedure's inputs. */
  readonly pre: string;
  /** C expression over the inputs and `\result`. */
  readonly post: string;
  readonly preFormula: Formula;
  /** Over the inputs and the return value named as in ir/summary-names.ts. */
  readonly postFormula: Formula;
}

export interface SummaryReport {
  readonly procedure: string;
  readonly pairs: readonly SummaryPairReport[];
}

export interface StepStats {
  readonly template: string; // e.g. "1x2"
  readonly disjuncts: number;
  readonly conjuncts: number;
  readonly widths: Widths;
  readonly unknowns: number;
  readonly constraints: number;
  readonly variables: number; // CNF variables
  readonly clauses: number;
  readonly encodeMillis: number;
  /** Wall-clock time of the SAT call (solver start-up included). */
  readonly satMillis: number;
  /** Time inside the solver on this instance, when the back end reports it (see SatResult). */
  readonly solverMillis?: number;
  /** Conflicts of the SAT search, when the back end counts them (its work, the same at any load). */
  readonly conflicts?: number;
  /** Unit propagations of the SAT search, likewise (the embedded MiniSat). */
  readonly propagations?: number;
  readonly backend: string;
  readonly result: 'sat' | 'unsat' | 'unknown' | 'skipped';
  readonly reason?: string;
  /** Wall-clock time of the sample search that followed a SAT search that ran out (sample-search.ts). */
  readonly statesMillis?: number;
  /** Pre/post pairs per recursive procedure (interprocedural steps only). */
  readonly summaries?: number;
}

export interface Counterexample {
  /** Values of the analysed function's parameters. */
  readonly inputs: ReadonlyMap<string, bigint>;
  /** Values of every nondeterministic choice, in order. */
  readonly nondet: readonly bigint[];
  readonly line: number;
  readonly replayed: boolean;
  /** Steps the replay on the original program took, when it is known (a run may need millions). */
  readonly steps?: number;
}

export interface VerifyResult {
  readonly verdict: Verdict;
  readonly reason?: string;
  /** True only after the independent certificate check passed (safe) or the interpreter replayed the counterexample (unsafe). */
  readonly certified: boolean;
  readonly function: string;
  readonly cutset: CutsetStrategy;
  readonly schedule: string;
  readonly cutpoints: number;
  readonly verificationConditions: number;
  readonly invariants: readonly InvariantReport[];
  /** Procedure summaries (only when recursive procedures were summarised). */
  readonly summaries?: readonly SummaryReport[];
  readonly stats: readonly StepStats[];
  readonly counterexample?: Counterexample;
  /** `verify --cex`: the most-general failing condition the counterexample was drawn from. */
  readonly failingCondition?: { readonly expression: string; readonly certified: boolean };
  /** The pinned invariants the search was given (VerifyOptions.knownInvariants), by line. */
  readonly pinned?: readonly { readonly line: number; readonly expression: string }[];
  /** The fast path before the template search (engine/houdini.ts), when it ran. */
  readonly houdini?: HoudiniReport;
  /** The falsifier's bounded model checking, when it ran. */
  readonly falsifier?: FalsifierReport;
  /** A sampled run that overflowed a signed type (undefined behaviour in C, assumed absent by the
   * reachability property): where, and on which inputs. */
  readonly overflow?: OverflowReport;
  readonly millis: number;
}

export interface OverflowReport {
  readonly line: number;
  readonly inputs: ReadonlyMap<string, bigint>;
  readonly nondet: readonly bigint[];
}

/** Bounds observed in concrete runs, filtered by the checker to an inductive subset (Houdini). */
/** What the falsifier's bounded model checking did (lib/falsify/bmc.ts). */
export interface FalsifierReport {
  /** Every run of at most this many region steps (entry to a loop head, one iteration, …) was
   * searched and none fails (0: none searched yet). With guessed summaries, only among the runs
   * whose calls follow them. */
  readonly depth: number;
  /** The depth whose query ran out of work, when one did. */
  readonly unknownAt?: number;
  readonly queries: number;
  /** z3's resource units spent. */
  readonly work: number;
  /** Models whose run did not fail on the original program (a wrong guessed summary). */
  readonly unreplayed: number;
  /** Calls of recursive procedures followed guessed summaries. */
  readonly summaries: boolean;
  /** The depth of the counterexample it found, when it found one. */
  readonly foundAt?: number;
  /** Why it searches no deeper, when it does not. */
  readonly stopped?: string;
}

export interface HoudiniReport {
  /** Candidate conjuncts over all cut-points. */
  readonly candidates: number;
  /** Conjuncts in the inductive subset. */
  readonly kept: number;
  /** Checker rounds. */
  readonly rounds: number;
  /** The subset proved the program (the invariants reported are those conjuncts, minimised). */
  readonly proved: boolean;
  readonly millis: number;
}

export type ProgressEvent =
  | { readonly kind: 'prepared'; readonly cutpoints: number; readonly verificationConditions: number }
  | { readonly kind: 'step-start'; readonly index: number; readonly total: number; readonly template: string; readonly widths: Widths }
  | { readonly kind: 'step-encoded'; readonly index: number; readonly variables: number; readonly clauses: number }
  | { readonly kind: 'step-done'; readonly index: number; readonly stats: StepStats }
  | { readonly kind: 'checking' };

/** Whether every run of a function ends: the one status of `nonterm` and `verify --property
 * termination`. */
export type TerminationStatus = 'terminates' | 'non-terminating' | 'unknown';
