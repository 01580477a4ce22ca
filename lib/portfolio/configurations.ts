// What the portfolio runs side by side: lanes of the constraint engine's attempt sequence (each a
// schedule step with or without the hull equalities: the constraint engine's AttemptInfo) and the
// interpolation engines of lib/engines. A configuration is plain data: it crosses into a worker thread as is.
import type { AttemptInfo, InterpolationEngineName } from '../engines/index.js';

export type Configuration =
  /** The attempts whose index ≡ lane (mod lanes). With hull equalities the sequence alternates
   * "step k with them", "step k without them", so two lanes are exactly "with" and "without". */
  | { readonly kind: 'schedule'; readonly lane: number; readonly lanes: number }
  | { readonly kind: 'engine'; readonly engine: InterpolationEngineName };

/**
 * The configurations for `jobs` parallel workers, in the order the workers take them up: the
 * schedule's lanes first, then the engines, one after another on the workers left over.
 *
 * The schedule keeps one whole lane until there are more workers than engines (lanes = jobs minus
 * engines, at least one): measured on the SV-COMP dev set with 2 jobs, splitting it into a "with
 * hull equalities" and a "without" lane lost 11 of 35 proofs, because the plain lane waited behind
 * an engine that used its whole time bound, while most of those proofs come from plain steps. With
 * one whole lane the portfolio proves what the sequential search proves (given the CPU), plus what
 * an engine proves first. Procedure summaries always search sequentially: one lane.
 */
export function portfolioConfigurations(jobs: number, engines: readonly InterpolationEngineName[], splittable: boolean): Configuration[] {
  const lanes = splittable ? Math.max(1, jobs - engines.length) : 1;
  const schedule: Configuration[] = Array.from({ length: lanes }, (_, lane) => ({ kind: 'schedule', lane, lanes }));
  return [...schedule, ...engines.map((engine): Configuration => ({ kind: 'engine', engine }))];
}

/** Does the attempt belong to this schedule lane? */
export function inLane(configuration: { readonly lane: number; readonly lanes: number }, attempt: AttemptInfo): boolean {
  return attempt.index % configuration.lanes === configuration.lane;
}

export function configurationName(c: Configuration): string {
  if (c.kind === 'engine') return `engine ${c.engine}`;
  return c.lanes === 1 ? 'schedule' : `schedule lane ${c.lane + 1}/${c.lanes}`;
}
