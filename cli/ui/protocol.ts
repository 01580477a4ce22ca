// What the UI and its analysis worker (a child process, see runner.ts) say to each other. Every
// message is structured-clone data (bigints and Maps included), never library objects with methods.
import type { Schedule, CutsetStrategy, Formula, FrontendOptions } from '../../lib/index.js';

/** One analysis run: a mode of the registry on one program text. */
export interface Job {
  readonly mode: string;
  readonly file: string;
  readonly source: string;
  /** The data model and property the program text is lowered with. */
  readonly frontend?: FrontendOptions;
  readonly options: JobOptions;
}

export interface JobOptions {
  readonly function?: string;
  readonly cutset: CutsetStrategy;
  /** A built-in schedule name, or the schedule the user composed with the template keys. */
  readonly schedule: string | Schedule;
  /** wp: 'neighbourhood' or 'binary'. */
  readonly strategy?: string;
  /** sp: the line of a cut-point instead of the exit. */
  readonly atLine?: number;
  readonly timeoutMs?: number;
  /** verify: pinned invariants (IR formulas of the analysed function), known conjuncts at their line. */
  readonly pins?: readonly { readonly line: number; readonly formula: Formula }[];
}

/** Progress of a parameter search, the same shape for every mode (the Search pane's rows). */
export type SearchEvent =
  | { readonly kind: 'phase'; readonly text: string }
  | { readonly kind: 'row-start'; readonly index: number; readonly template: string; readonly widths: string; readonly purpose?: string }
  | { readonly kind: 'row-encoded'; readonly index: number; readonly variables: number; readonly clauses: number }
  | { readonly kind: 'row-done'; readonly index: number; readonly variables: number; readonly clauses: number; readonly satMillis: number; readonly result: string; readonly reason?: string }
  /** A bar: binary-search narrowing or iterations; `fraction` in [0, 1]. */
  | { readonly kind: 'bar'; readonly label: string; readonly fraction: number };

export interface SourceMark {
  readonly line: number;
  readonly col: number;
}

/** One row of the Engines pane. */
export interface EngineRow {
  readonly name: string;
  /** `cancelled`: the job ended (another one started) before this engine answered. */
  readonly status: 'pending' | 'running' | 'done' | 'error' | 'cancelled';
  readonly verdict?: string;
  readonly millis?: number;
  readonly note?: string;
}

/** An SV-COMP witness (lib/witness), or why none backs the result. */
export type WitnessOutcomeView = { readonly kind: 'correctness' | 'violation'; readonly text: string; readonly items: number } | { readonly kind: 'none'; readonly reason: string };

export type WorkerMessage =
  | { readonly type: 'search'; readonly event: SearchEvent }
  | { readonly type: 'cutpoints'; readonly points: readonly SourceMark[] }
  | { readonly type: 'result'; readonly data: unknown }
  /** A provisional result while the search goes on (cex: a concrete counterexample); `result` replaces it. */
  | { readonly type: 'partial'; readonly data: unknown }
  | { readonly type: 'engines'; readonly rows: readonly EngineRow[] }
  | { readonly type: 'witness'; readonly witness: WitnessOutcomeView }
  /** Positioned input errors arrive as their `file:line:col: error: …` text. */
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'done' };

export type Emit = (m: WorkerMessage) => void;
