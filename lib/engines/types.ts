// The common interface of the interpolation engines (papers 000–003): each takes the shared IR and
// answers with the `verify` result contract plus its own search statistics.
import type { Program } from '../ir/cfg.js';
import type { VerifyResult } from '../problem/result.js';

export type EngineName = 'lazy-abstraction' | 'symbolic' | 'lazy-annotation';
export const ENGINE_NAMES: readonly EngineName[] = ['lazy-abstraction', 'symbolic', 'lazy-annotation'];

export interface EngineOptions {
  /** Function to analyse (default: the program's entry). */
  readonly function?: string;
  /** Bound on the whole search; past it the answer is unknown (timeout). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Bound on the nodes an engine creates before answering unknown (default 20 000). */
  readonly maxNodes?: number;
}

export interface EngineStats {
  readonly engine: EngineName;
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

export type EngineResult = VerifyResult & { readonly engineStats: EngineStats };

export type Engine = (program: Program, options?: EngineOptions) => Promise<EngineResult>;
