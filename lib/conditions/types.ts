// Results of the weakest-precondition and strongest-postcondition searches, shared by the CLI text
// and --json reports and the UI.
import type { Formula } from '../ir/formula.js';
import type { QueryStats } from './query.js';
import type { ProgressEvent } from '../result.js';

/** Why a neighbour of an answer is not an answer: a concrete witness, replayed by the interpreter. */
export interface NeighbourEvidence {
  /** C expression of the neighbour. */
  readonly expression: string;
  readonly move: string;
  /** Preconditions: parameter values inside the neighbour but outside the answer on which a run fails
   * an assertion. Postconditions: a reachable state inside the answer that violates the neighbour. */
  readonly input?: ReadonlyMap<string, bigint>;
  readonly state?: ReadonlyMap<string, bigint>;
  /** Nondet values of the witnessing run, in order. */
  readonly nondet?: readonly bigint[];
  /** Failing line (preconditions). */
  readonly line?: number;
  readonly replayed: boolean;
  /** When no witness was found: why (the neighbour may also be an answer, or be equivalent to it). */
  readonly note?: string;
}

export interface ConditionAnswer {
  readonly expression: string;
  readonly formula: Formula;
  /** The independent checker proved the program under it (wp) / that it holds (sp), with `invariants`. */
  readonly certified: boolean;
  readonly invariants: readonly { readonly line: number; readonly expression: string }[];
  readonly neighbours: readonly NeighbourEvidence[];
  /** Every neighbour has a replayed witness: the answer is locally weakest (strongest). */
  readonly locallyOptimal: boolean;
}

export interface ConditionStats {
  readonly queries: readonly QueryStats[];
  readonly iterations: number;
  readonly concreteRuns: number;
  readonly millis: number;
}

export type ConditionEvent =
  | { readonly kind: 'sampled'; readonly passing: number; readonly failing: number }
  | { readonly kind: 'query-start'; readonly index: number; readonly conjuncts: number; readonly template: string; readonly purpose: string }
  | { readonly kind: 'query-done'; readonly index: number; readonly stats: QueryStats }
  | { readonly kind: 'answer'; readonly expression: string }
  | { readonly kind: 'binary-step'; readonly entry: string; readonly low: string; readonly high: string }
  /** sp: the distinct states the sampled runs reach at the target (line), before any solver call. */
  | { readonly kind: 'reached'; readonly states: number; readonly line: number }
  /** A candidate answer goes to the independent checker: proposed by the reached states (`observed`,
   * proved by Houdini) or by a solver query. */
  | { readonly kind: 'certifying'; readonly expression: string; readonly from: 'observed' | 'query' }
  /** A certified answer's neighbours are each looked at for a replayed witness (and equivalence). */
  | { readonly kind: 'neighbours'; readonly expression: string; readonly count: number }
  /** bounds, and the termination proofs built on it: one event of the constraint engine's proof that
   * the loop (or recursive procedure) at `line` runs (is called) at most `bound` times. Each proof's
   * steps count from 0 again. */
  | { readonly kind: 'bound-proof'; readonly line: number; readonly bound: string; readonly event: ProgressEvent }
  /** The termination proofs: one event of the constraint engine's proof that `ranking` ranks the loop
   * at `line` (its checks hold on every iteration). */
  | { readonly kind: 'ranking-proof'; readonly line: number; readonly ranking: string; readonly event: ProgressEvent };

/** The search for further answers stopped at its time limit with sampled inputs still uncovered. */
export interface IncompleteSearch {
  /** Sampled inputs the search wanted covered (wp: safe ones; cex: failing ones) outside every answer. */
  readonly uncoveredInputs: number;
  /** Solver queries the last search had: as many as the first answer took, at least FURTHER_ANSWER_MIN_QUERIES. */
  readonly budgetQueries: number;
}

/** How many of the sampled inputs the answers aim at (wp: safe ones; cex: failing ones) lie inside
 * at least one answer. */
export interface Coverage {
  readonly covered: number;
  readonly observed: number;
}

export interface WpResult {
  readonly function: string;
  readonly strategy: 'neighbourhood' | 'binary';
  readonly parameters: readonly string[];
  readonly preconditions: readonly ConditionAnswer[];
  /** Set when no precondition was found. */
  readonly reason?: string;
  /** Set when sampled passing inputs lie outside every answer and the search for a further one
   * ran out of its time: the answers are not known to cover every safe input. */
  readonly incomplete?: IncompleteSearch;
  /** Of the sampled inputs the answers aim to cover, how many they do… */
  readonly coverage?: Coverage;
  /** …and those inputs (cex counts again over the conditions it keeps). */
  readonly observedInputs?: readonly ReadonlyMap<string, bigint>[];
  readonly stats: ConditionStats;
}

export interface SpResult {
  readonly function: string;
  /** Source line of the cut-point (the function's line for the exit). */
  readonly line: number;
  readonly at: 'exit' | 'cutpoint';
  readonly variables: readonly string[];
  readonly postcondition: ConditionAnswer | null;
  readonly reason?: string;
  readonly stats: ConditionStats;
}
