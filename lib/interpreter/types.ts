// Options and results of a concrete run. A run is fully determined by the entry procedure, its inputs
// and the nondet stream, so a RunResult's `nondetConsumed` replays it exactly.
import type { SourcePos } from '../ir/cfg.js';

export interface RunOptions {
  /** Procedure to run; default program.entry. */
  readonly entry?: string;
  /** Values of the entry procedure's parameters; missing ones come from the nondet stream, in
   * parameter order (and are listed in `inputsFromNondet`). */
  readonly inputs?: ReadonlyMap<string, bigint>;
  /** Consumed in order by every havoc and every choice location (and by missing inputs, first); not
   * by ghosts (havoc.ghost: quotients, wrap-around counts), whose values the run computes. */
  readonly nondet?: readonly bigint[];
  /** Value used once the stream is exhausted; null stops the run with 'nondet-exhausted'. Default 0.
   * Either way, past the stream a havoc whose next edge is the only one and an assume leaving exactly one
   * value (the front end's quotient of `/` and `%`) takes that value (counted in `nondetSolved`). */
  readonly nondetDefault?: bigint | null;
  /** Edges taken before giving up with 'step-limit'. Default 1,000,000. */
  readonly maxSteps?: number;
  /** Frames on the call stack before giving up with 'step-limit'. Default 1,000,000. */
  readonly maxCallDepth?: number;
  /** A havoc pinned by the next assumption (a quotient) takes that value even while the stream
   * lasts, without consuming it: a stream value there would block the run. For samplers; the run's
   * `nondetConsumed` (which lists the pinned values in place) still replays it without this option. */
  readonly preferPinned?: boolean;
  /** A stream value outside the C type's range of the havoc or input that takes it is brought into
   * the range (its absolute value when that fits, else reduced modulo the range's size) instead of
   * ending the run with 'nondet-out-of-range'. For samplers, whose streams know no types; the run's
   * `nondetConsumed` and `inputs` hold the values used, so a replay needs no option. */
  readonly foldIntoRange?: boolean;
  /** Record every step (costs memory proportional to the steps taken). */
  readonly recordTrace?: boolean;
  /** Snapshot the entry procedure's state (globals, locals, parameters) at these locations: the
   * first `firstAndLast` visits of each and its last one (every visit when not given). Cheaper than
   * a trace: the samplers watch loop heads that long runs visit thousands of times. */
  readonly watch?: {
    readonly locations: ReadonlySet<number>;
    readonly firstAndLast?: number;
    /** Instead of the first visits: the corners of the run's path at each location, at most this many
     * of them, and its last visit. A visit is a corner when the change from it to the next visit
     * differs from the change that led to it; each visit between two kept ones then lies on the
     * segment between them, so the kept states span the same convex hull as all the visits (whatever
     * is linear in the state, its bounds, equalities and facets, is the same over both). */
    readonly corners?: number;
  };
  /** Asked every 65,536 steps: true ends the run as at its step limit (the caller's deadline). */
  readonly interrupted?: () => boolean;
  /**
   * Loops of the entry procedure that repeat the same path adding the same change to the state are
   * run in closed form (accelerate.ts): the same steps, states and outcome as running them, so
   * `maxSteps` can be far more than the run interprets. `maxWork` then bounds the steps interpreted
   * one by one (default: maxSteps); past it the run stops as at its step limit. Not with a trace,
   * nor with `watch` other than its corners.
   */
  readonly accelerate?: boolean;
  readonly maxWork?: number;
}

export const DEFAULT_MAX_STEPS = 1_000_000;
export const DEFAULT_MAX_CALL_DEPTH = 1_000_000;

export interface ValueRange {
  readonly lo: bigint;
  readonly hi: bigint;
}

export type RunOutcome =
  /** The entry procedure returned (returnValue null for a void procedure). */
  | { readonly kind: 'exit'; readonly returnValue: bigint | null }
  | { readonly kind: 'assertion-failed'; readonly pos: SourcePos; readonly procedure: string; readonly edge: number }
  /** No outgoing edge is enabled: every guard (assume) fails, or the location has no outgoing edge. */
  | { readonly kind: 'assume-blocked'; readonly pos: SourcePos | null; readonly procedure: string; readonly location: number }
  | {
      readonly kind: 'step-limit';
      readonly limit: 'steps' | 'call-depth';
      readonly max: number;
      readonly pos: SourcePos | null;
      readonly procedure: string;
    }
  /** The stream ran out and no default was given (nondetDefault: null). */
  | { readonly kind: 'nondet-exhausted'; readonly pos: SourcePos | null; readonly procedure: string }
  /** A signed operation's result left its type's range (undefined behaviour in C): the run of the
   * C program has no defined meaning from here (the premise of the reachability property). */
  | { readonly kind: 'overflow'; readonly pos: SourcePos; readonly procedure: string }
  /** A havoc or an input with a C type range got a value outside it: this run cannot happen in C. */
  | {
      readonly kind: 'nondet-out-of-range';
      readonly pos: SourcePos;
      readonly procedure: string;
      readonly value: bigint;
      readonly range: ValueRange;
    };

export type RunOutcomeKind = RunOutcome['kind'];

export interface TraceStep {
  /** 'edge': an edge of `procedure` was taken. 'call': a call edge of `procedure` pushed the callee's
   * frame (`values` holds the bound parameters; the following steps run in the callee at depth + 1).
   * 'return': the callee of that call edge returned into `procedure` (`values` holds the call's target;
   * not counted as a step). `location`, `to`, `edge` and `pos` are those of the call edge in both. */
  readonly kind: 'edge' | 'call' | 'return';
  readonly procedure: string;
  /** Call-stack depth of `procedure`'s frame (the entry procedure is at depth 0). */
  readonly depth: number;
  readonly location: number;
  readonly to: number;
  readonly edge: number;
  readonly pos: SourcePos;
  /** The statement in C-like syntax. */
  readonly text: string;
  /** Variables this step changed (for a call: the callee's parameters), with their new values. */
  readonly values: ReadonlyMap<string, bigint>;
  /** The nondet values this step consumed (a choice, a havoc), when it consumed any. */
  readonly nondet?: readonly bigint[];
}

export interface RunResult {
  readonly outcome: RunOutcome;
  readonly entry: string;
  /** Every parameter of the entry procedure with the value it started with. */
  readonly inputs: ReadonlyMap<string, bigint>;
  /** Parameters that were not given and came from the nondet stream. */
  readonly inputsFromNondet: readonly string[];
  /** Every nondet value used, in order, defaults included: `{ inputs, nondet: nondetConsumed,
   * nondetDefault: null }` replays this run exactly. */
  readonly nondetConsumed: readonly bigint[];
  /** The nondetDefault the run used (null: none). */
  readonly nondetDefault: bigint | null;
  /** How many of `nondetConsumed` came from nondetDefault because the stream was exhausted. */
  readonly nondetDefaulted: number;
  /** How many of `nondetConsumed` were computed after the stream was exhausted because the assumption
   * right after the havoc leaves exactly one value (the front end's division/modulo quotients). */
  readonly nondetSolved: number;
  /** Edges taken, not counting the premise checks of signed overflow (which the trace shows). */
  readonly steps: number;
  /** Global variables when the run stopped. */
  readonly globals: ReadonlyMap<string, bigint>;
  readonly trace?: readonly TraceStep[];
  /** With `watch`: the states at the watched locations, in visit order. */
  readonly watched?: ReadonlyMap<number, readonly ReadonlyMap<string, bigint>[]>;
}
