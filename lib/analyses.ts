// The analyses besides verify (paper 004's other questions) behind one interface, as the engines are
// behind Engine: a name, a run on the prepared problem with the command's settings, and what the
// answer means for the exit code. The command line and the UI's modes both go through this registry.
import type { Problem } from './problem/prepare.js';
import type { Settings } from './settings.js';
import type { ConditionOptions } from './conditions/search.js';
import { wp, type WpOptions } from './conditions/wp.js';
import { sp, type SpOptions } from './conditions/sp.js';
import { cex, type CexOptions, type CexResult } from './conditions/cex.js';
import type { SpResult, WpResult } from './conditions/types.js';
import { bounds, type BoundsOptions, type BoundsResult } from './termination/bounds.js';
import { nonterm, type NontermResult } from './termination/nonterm.js';
import { termination, type TerminationResult } from './termination/termination.js';
import type { TerminationStatus } from './result.js';

/** What an answer means, as the command line's exit code: 0 the question is answered (certified), 1
 * a violation is found (replayed on the program), 2 no answer (with the reason). */
export type AnalysisExit = 0 | 1 | 2;

export interface Analysis<Options, Result> {
  readonly name: string;
  run(problem: Problem, settings: Settings, options?: Options): Promise<Result>;
  exitCode(result: Result): AnalysisExit;
}

const terminationExit = (status: TerminationStatus): AnalysisExit => (status === 'terminates' ? 0 : status === 'non-terminating' ? 1 : 2);

/** Weakest preconditions: answered when one was found. */
export const wpAnalysis: Analysis<WpOptions, WpResult> = { name: 'wp', run: wp, exitCode: (r) => (r.preconditions.length > 0 ? 0 : 2) };
/** Strongest postconditions: answered when one was certified. */
export const spAnalysis: Analysis<SpOptions, SpResult> = { name: 'sp', run: sp, exitCode: (r) => (r.postcondition ? 0 : 2) };
/** Loop bounds: answered when every loop and recursive procedure has a certified bound and no callee has loops. */
export const boundsAnalysis: Analysis<BoundsOptions, BoundsResult> = {
  name: 'bounds',
  run: bounds,
  exitCode: (r) => ([...r.loops, ...r.procedures].every((l) => l.certified) && r.calleesWithLoops.length === 0 ? 0 : 2),
};
/** Failing conditions: a violation when one was found with a replayed run, answered when the assertions were proved. */
export const cexAnalysis: Analysis<CexOptions, CexResult> = { name: 'cex', run: cex, exitCode: (r) => (r.conditions.length > 0 ? 1 : r.provedSafe ? 0 : 2) };
/** Non-termination conditions, or a proof that every run ends. */
export const nontermAnalysis: Analysis<ConditionOptions, NontermResult> = { name: 'nonterm', run: nonterm, exitCode: (r) => terminationExit(r.verdict) };
/** `verify --property termination`: every run ends, or one does not. */
export const terminationAnalysis: Analysis<ConditionOptions, TerminationResult> = { name: 'termination', run: termination, exitCode: (r) => terminationExit(r.verdict) };

/** The registry, by name. */
export const ANALYSES = {
  wp: wpAnalysis,
  sp: spAnalysis,
  bounds: boundsAnalysis,
  cex: cexAnalysis,
  nonterm: nontermAnalysis,
  termination: terminationAnalysis,
} as const;

export type AnalysisName = keyof typeof ANALYSES;
