// Messages between the portfolio (main thread) and one worker running one configuration. Everything
// here is structured-clone data (the IR is plain objects, Maps and bigints).
import type { Program } from '../ir/cfg.js';
import type { Schedule } from '../constraints/schedule.js';
import type { CutsetStrategy } from '../vc/cutset.js';
import type { ProgressEvent, VerifyResult } from '../problem/result.js';
import type { EngineStats } from '../engines/types.js';
import type { Configuration } from './configurations.js';

export interface PortfolioJob {
  readonly program: Program;
  readonly configuration: Configuration;
  readonly function?: string;
  readonly cutset: CutsetStrategy;
  readonly schedule: Schedule;
  /** SAT back-end spec ('auto', 'minisat', 'z3'). */
  readonly backend: string;
  /** What is left of the whole search's time bound when the worker starts. */
  readonly timeoutMs?: number;
  readonly stepTimeoutMs?: number;
  readonly stepConflicts?: number;
  readonly stepPropagations?: number;
  readonly observedBounds?: 'first' | 'second' | 'never';
}

export type ConfigurationResult = VerifyResult & { readonly engineStats?: EngineStats };

export type WorkerMessage =
  | { readonly kind: 'progress'; readonly event: ProgressEvent }
  | { readonly kind: 'result'; readonly result: ConfigurationResult; readonly attemptIndices: readonly number[] }
  /** `contradicted`: a certified claim of the lane was broken by a run of the program (ClaimContradicted). */
  | { readonly kind: 'failed'; readonly message: string; readonly contradicted?: boolean };
