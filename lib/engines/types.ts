// The common interface of the engines: the constraint engine (paper 004, `verify`) and the
// interpolation engines (papers 000–003). Each takes the shared IR and answers with the `verify`
// result contract plus its own search statistics, so that `farkas check`, the cross-check, the
// portfolio and the UI can run any of them alike.
import type { Program } from '../ir/cfg.js';
import type { VerifyResult } from '../problem/result.js';
import type { VerifyOptions } from './constraint/verify.js';
import type { Deadline } from '../limits.js';

/** The constraint engine's name: `farkas verify`'s search, the reference of the cross-check. */
export const CONSTRAINT_ENGINE = 'constraints';

export const INTERPOLATION_ENGINE_NAMES = ['lazy-abstraction', 'symbolic', 'lazy-annotation'] as const;
export type InterpolationEngineName = (typeof INTERPOLATION_ENGINE_NAMES)[number];
export type EngineName = typeof CONSTRAINT_ENGINE | InterpolationEngineName;
/** Every engine, the constraint engine first (the order of the registry and of the cross-check). */
export const ENGINE_NAMES = [CONSTRAINT_ENGINE, ...INTERPOLATION_ENGINE_NAMES] as const;

/**
 * The constraint engine's own options (cut-set, schedule, SAT back end, pins, step budgets, progress,
 * the portfolio's `selectAttempt`): `verify`'s, less those every engine has.
 */
export type ConstraintEngineOptions = Omit<VerifyOptions, 'function' | 'timeoutMs' | 'signal' | 'deadline'>;

export interface EngineOptions {
  /** Function to analyse (default: the program's entry). */
  readonly function?: string;
  /** Bound on the whole search; past it the answer is unknown (timeout). */
  readonly timeoutMs?: number;
  /** Aborting ends the search with unknown ("aborted"). */
  readonly signal?: AbortSignal;
  /** The deadline of a caller that runs several searches (bounds, nonterm): handed down as it is,
   * in place of timeoutMs and signal, so that the whole command has one clock. */
  readonly deadline?: Deadline;
  /** Interpolation engines: bound on the nodes created before answering unknown (default 20 000). */
  readonly maxNodes?: number;
  /** The constraint engine's own options; the interpolation engines have no use for them. Passing
   * them to every engine lets a caller run any engine alike. */
  readonly constraints?: ConstraintEngineOptions;
}

export interface InterpolationEngineStats {
  readonly engine: InterpolationEngineName;
  /** Nodes created: ART nodes (lazy abstraction), symbolic states (symbolic, lazy annotation). */
  nodes: number;
  /** Interpolation-based refinements (spurious paths removed / labels learned). */
  refinements: number;
  /** Restarts: re-explorations after an abstraction proved too coarse (loop abstraction weakened or unrolled). */
  restarts: number;
  /** Nodes covered (subsumed) by another node. */
  covered: number;
  /** Integer satisfiability / entailment queries sent to z3. */
  solverCalls: number;
}

/** The constraint engine's work, summed over the schedule steps of `VerifyResult.stats` (each step there in full). */
export interface ConstraintEngineStats {
  readonly engine: typeof CONSTRAINT_ENGINE;
  /** Schedule steps whose SAT instance was handed to the back end. */
  readonly steps: number;
  /** CNF clauses of those instances. */
  readonly clauses: number;
  /** SAT conflicts and unit propagations, as far as the back end counts them (MiniSat both, z3 and
   * external solvers conflicts only). */
  readonly conflicts: number;
  readonly propagations: number;
}

/** Search statistics; `engine` names the engine and tells which kind they are. */
export type EngineStats = InterpolationEngineStats | ConstraintEngineStats;

export type EngineResult = VerifyResult & { readonly engineStats: EngineStats };

export interface Engine {
  /** The registry's name (`farkas check --engine NAME`); an engine a caller brings has its own. */
  readonly name: string;
  /** One line for help texts and listings. */
  readonly description: string;
  run(program: Program, options?: EngineOptions): Promise<EngineResult>;
}
