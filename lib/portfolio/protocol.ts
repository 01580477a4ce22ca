// Messages between the portfolio (main thread) and one worker running one configuration. Everything
// here is structured-clone data (the IR is plain objects, Maps and bigints).
import type { Program } from '../ir/cfg.js';
import type { SettingsJob } from '../settings.js';
import type { ProgressEvent, VerifyResult } from '../result.js';
import type { EngineStats } from '../engines/types.js';
import type { Configuration } from './configurations.js';

export interface PortfolioJob {
  readonly program: Program;
  readonly configuration: Configuration;
  readonly function: string;
  /** The command's settings, which the worker resolves again (its deadline is the command's). */
  readonly settings: SettingsJob;
  readonly observedBounds?: 'first' | 'second' | 'never';
}

export type ConfigurationResult = VerifyResult & { readonly engineStats?: EngineStats };

export type WorkerMessage =
  | { readonly kind: 'progress'; readonly event: ProgressEvent }
  | { readonly kind: 'result'; readonly result: ConfigurationResult; readonly attemptIndices: readonly number[] }
  /** `contradicted`: a certified claim of the lane was broken by a run of the program (ClaimContradicted). */
  | { readonly kind: 'failed'; readonly message: string; readonly contradicted?: boolean };
