// What the portfolio runs side by side: lanes of the constraint engine's attempt sequence (each a
// schedule step with or without the hull equalities, see engine/verify.ts) and the interpolation
// engines of lib/engines. A configuration is plain data: it crosses into a worker thread as is.
import type { EngineName } from '../engines/types.js';
import type { AttemptInfo } from '../engine/verify.js';

export type Configuration =
  /** The attempts whose index ≡ lane (mod lanes). With hull equalities the sequence alternates
   * "step k with them", "step k without them", so two lanes are exactly "with" and "without". */
  | { readonly kind: 'schedule'; readonly lane: number; readonly lanes: number }
  | { readonly kind: 'engine'; readonly engine: EngineName };

/**
 * The configurations for `jobs` parallel workers, in the order the workers take them up.
 *
 * The schedule is split into `jobs` lanes (one lane when it cannot be split: procedure summaries
 * search sequentially), and the engines are interleaved after the first lane: with 2 jobs, one
 * worker starts on the hull-equality attempts while the other tries the engines (which differ most
 * from the template search and usually give up quickly when they cannot prove a task) before the
 * plain attempts. Whatever a worker finishes without a certified answer, it takes the next one.
 */
export function portfolioConfigurations(jobs: number, engines: readonly EngineName[], splittable: boolean): Configuration[] {
  const lanes = splittable ? Math.max(1, jobs) : 1;
  const schedule: Configuration[] = Array.from({ length: lanes }, (_, lane) => ({ kind: 'schedule', lane, lanes }));
  const others: Configuration[] = engines.map((engine) => ({ kind: 'engine', engine }));
  const ordered: Configuration[] = [schedule[0]!];
  for (let i = 0; i < Math.max(lanes - 1, others.length); i++) {
    if (i < others.length) ordered.push(others[i]!);
    if (i + 1 < lanes) ordered.push(schedule[i + 1]!);
  }
  return ordered;
}

/** Does the attempt belong to this schedule lane? */
export function inLane(configuration: { readonly lane: number; readonly lanes: number }, attempt: AttemptInfo): boolean {
  return attempt.index % configuration.lanes === configuration.lane;
}

export function configurationName(c: Configuration): string {
  if (c.kind === 'engine') return `engine ${c.engine}`;
  return c.lanes === 1 ? 'schedule' : `schedule lane ${c.lane + 1}/${c.lanes}`;
}
