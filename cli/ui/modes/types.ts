// A mode of the UI (verify, wp, sp, …): one registry entry couples the library call that runs in the
// analysis worker with the component that shows its result. Adding a mode is adding one entry.
import type { ReactElement } from 'react';
import type { Problem, Settings } from '../../../lib/index.js';
import type { Emit, Job, SourceMark } from '../protocol.js';
import type { TraceRow } from '../trace.js';
import type { Pin } from '../state.js';
import type { ScrollRange } from './line-list.js';

export interface ResultProps<R> {
  readonly data: R;
  /** The cut-point or assertion selected in the source pane. */
  readonly selected: SourceMark | null;
  /** Index into the mode's trace (n/p). */
  readonly traceIndex: number;
  /** Invariants the user pinned (kept across re-runs). */
  readonly pins: readonly Pin[];
  readonly width: number;
  readonly height: number;
  readonly color: boolean;
  /** The first line of the result's list shown (PgUp/PgDn, H/G when the result pane has the focus). */
  readonly scroll?: number;
  /** Told how far the list can scroll (the keys stop there). */
  readonly onScrollRange?: (range: ScrollRange) => void;
}

export interface Mode<R = any> {
  /** The single key that switches to the mode. */
  readonly key: string;
  readonly id: string;
  readonly name: string;
  /** Worker side: runs the library on the job's problem with its settings (both made once by the
   * worker), emits search progress and exactly one `result` with data R. */
  run(problem: Problem, settings: Settings, job: Job, emit: Emit): Promise<void>;
  /** UI side. */
  readonly Result: (props: ResultProps<R>) => ReactElement;
  /** Source positions the result is about (invariant cut-points), for the source pane. */
  marks?(data: R): readonly SourceMark[];
  /** A counterexample's steps, when the result has one. */
  trace?(data: R): readonly TraceRow[] | undefined;
  /** What `i` pins: the result's invariant at the selected cut-point. */
  pinnable?(data: R, selected: SourceMark | null): Pin | undefined;
  /** What `x` (export) writes. */
  exportJson(data: R): unknown;
}
