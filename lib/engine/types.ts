// Result types shared by every engine and every report (CLI text, --json, UI, harness).
import type { Formula } from '../ir/formula.js';
import type { Widths } from '../constraints/system.js';
import type { CutsetStrategy } from '../vc/cutset.js';

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
  readonly satMillis: number;
  readonly backend: string;
  readonly result: 'sat' | 'unsat' | 'unknown' | 'skipped';
  readonly reason?: string;
}

export interface Counterexample {
  /** Values of the analysed function's parameters. */
  readonly inputs: ReadonlyMap<string, bigint>;
  /** Values of every nondeterministic choice, in order. */
  readonly nondet: readonly bigint[];
  readonly line: number;
  readonly replayed: boolean;
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
  readonly stats: readonly StepStats[];
  readonly counterexample?: Counterexample;
  readonly millis: number;
}

export type ProgressEvent =
  | { readonly kind: 'prepared'; readonly cutpoints: number; readonly verificationConditions: number }
  | { readonly kind: 'step-start'; readonly index: number; readonly total: number; readonly template: string; readonly widths: Widths }
  | { readonly kind: 'step-encoded'; readonly index: number; readonly variables: number; readonly clauses: number }
  | { readonly kind: 'step-done'; readonly index: number; readonly stats: StepStats }
  | { readonly kind: 'checking' };
