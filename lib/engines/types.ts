// The common interface of the engines: the constraint engine (paper 004, `verify`) and the
// interpolation engines (papers 000–003). Each takes the shared IR and answers with the `verify`
// result contract plus its own search statistics, so that `farkas check`, the cross-check, the
// portfolio and the UI can run any of them alike.
import type { Problem } from '../problem/prepare.js';
import type { VerifyResult } from '../result.js';
import type { VerifySearch } from './constraint/verify.js';
import type { Settings } from '../settings.js';

/** The constraint engine's name: `farkas verify`'s search, the reference of the cross-check. */
export const CONSTRAINT_ENGINE = 'constraints';

export const INTERPOLATION_ENGINE_NAMES = ['lazy-abstraction', 'symbolic', 'lazy-annotation'] as const;
export type InterpolationEngineName = (typeof INTERPOLATION_ENGINE_NAMES)[number];
export type EngineName = typeof CONSTRAINT_ENGINE | InterpolationEngineName;
/** Every engine, the constraint engine first (the order of the registry and of the cross-check). */
export const ENGINE_NAMES = [CONSTRAINT_ENGINE, ...INTERPOLATION_ENGINE_NAMES] as const;

/** What an engine run asks beyond its problem and settings (the clock, the back end, the cut-set
 * and the schedule are the settings'). */
export interface EngineOptions {
  /** Interpolation engines: bound on the nodes created before answering unknown (default 20 000). */
  readonly maxNodes?: number;
  /** The constraint engine's own (pins, hooks, the order of its search); the interpolation engines
   * have no use for them. Passing them to every engine lets a caller run any engine alike. */
  readonly constraints?: VerifySearch;
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
  run(problem: Problem, settings: Settings, options?: EngineOptions): Promise<EngineResult>;
}
