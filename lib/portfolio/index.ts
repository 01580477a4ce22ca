// `farkas verify --jobs N`: the constraint search split into lanes, and the interpolation engines,
// raced in worker threads. The first certified answer wins ("safe" only after the certificate check,
// "unsafe" only with a replayed counterexample — each configuration enforces that itself, and the race
// accepts nothing else); the other workers are terminated. With one job it is the sequential search,
// in this thread, unchanged.
import { withOverflowNote } from '../observe/overflow-probe.js';
import type { Problem } from '../problem/prepare.js';
import { settingsJob, type Settings } from '../settings.js';
import type { ProgressEvent, StepStats } from '../result.js';
import { interpolationEngines, type InterpolationEngineName, type VerifySearch } from '../engines/index.js';
import { configurationName, portfolioConfigurations, type Configuration } from './configurations.js';
import type { ConfigurationResult, PortfolioJob } from './protocol.js';
import { race, type ConfigurationOutcome } from './race.js';
import { runScheduleLane } from './schedule-lane.js';
import { WORKER_OVERRUN_GRACE_MS } from '../limits.js';
import { DEFAULT_JOBS } from './jobs.js';

export { portfolioConfigurations, configurationName, type Configuration } from './configurations.js';
export { liveWorkers, isCertifiedAnswer } from './race.js';

/** The constraint search's own options (pins, a CNF dump, the order of the observed bounds) and the
 * race's; the lanes are the portfolio's to choose. */
export interface PortfolioOptions extends Omit<VerifySearch, 'onProgress' | 'selectAttempt'> {
  /** Parallel worker threads (default: the number of cores). 1 is the sequential search. */
  readonly jobs?: number;
  /** Engines raced besides the schedule's lanes (default: every registered engine but the constraint
   * engine, whose search the lanes are). */
  readonly engines?: readonly InterpolationEngineName[];
  /** Progress of every configuration; `configuration` names it (absent with one job). */
  readonly onProgress?: (e: ProgressEvent, configuration?: string) => void;
  /** A configuration started or finished (not called with one job). */
  readonly onConfiguration?: (e: ConfigurationEvent) => void;
}

export type ConfigurationEvent =
  | { readonly kind: 'started'; readonly configuration: string }
  | { readonly kind: 'finished'; readonly configuration: string; readonly verdict: string; readonly reason?: string };

export interface PortfolioReport {
  readonly jobs: number;
  /** The configuration whose answer is reported (absent when none gave a certified one). */
  readonly winner?: string;
  /** Every configuration that was started, with how it ended. */
  readonly configurations: readonly { readonly name: string; readonly verdict: string; readonly reason?: string; readonly millis?: number }[];
}

export type PortfolioResult = ConfigurationResult & { readonly portfolio?: PortfolioReport };

export { DEFAULT_JOBS, MAX_JOBS } from './jobs.js';

export async function verifyPortfolio(problem: Problem, settings: Settings, options: PortfolioOptions = {}): Promise<PortfolioResult> {
  const jobs = options.jobs ?? DEFAULT_JOBS();
  const { jobs: _jobs, engines: _engines, onConfiguration: _onConfiguration, onProgress, ...search } = options;
  const { program } = problem;
  const sequential = (): Promise<PortfolioResult> => runScheduleLane(problem, settings, { ...search, ...(onProgress ? { onProgress: (e) => onProgress(e) } : {}) });
  // One job, a back end object (not a spec a worker can resolve), a CNF dump per step, or an external
  // solver (a child process that a terminated worker would leave running): the sequential search.
  // Pinned invariants too: they belong to the constraint search, and a race with engines that ignore
  // them would not answer the question the user asked (does the proof go through with the pins?).
  const spec = settings.backendSpec;
  if (jobs <= 1 || options.onCnf || (options.knownInvariants?.size ?? 0) > 0 || spec.startsWith('dimacs:') || !['auto', 'minisat', 'z3'].includes(spec)) return sequential();

  const started = Date.now();
  // The lanes run the embedded MiniSat alone: 'auto' races an external solver in a child process,
  // which a terminated lane would leave running (why 'dimacs:' runs sequentially, above), and the
  // lanes already take the cores.
  const job = settingsJob(settings, spec === 'auto' ? 'minisat' : spec);
  const { deadline } = settings;
  const configurations = portfolioConfigurations(jobs, options.engines ?? interpolationEngines(), !problem.needsSummaries);
  const jobFor = (configuration: Configuration): PortfolioJob => ({
    program,
    configuration,
    function: problem.function,
    settings: job,
    ...(options.observedBounds !== undefined ? { observedBounds: options.observedBounds } : {}),
  });
  const outcome = await race(configurations, {
    jobs,
    jobFor,
    // The workers keep the bound themselves; this only ends those that overrun it (a certificate
    // check may take up to a second past it, as in the sequential search).
    deadline: deadline.extended(WORKER_OVERRUN_GRACE_MS),
    ...(onProgress ? { onProgress: (c, e) => onProgress(e, configurationName(c)) } : {}),
    ...(options.onConfiguration
      ? {
          onStart: (c) => options.onConfiguration!({ kind: 'started', configuration: configurationName(c) }),
          onFinish: (o) => options.onConfiguration!(finishedEvent(o)),
        }
      : {}),
  });
  const report: PortfolioReport = {
    jobs,
    ...(outcome.winner ? { winner: configurationName(outcome.winner.configuration) } : {}),
    configurations: outcome.outcomes.map(summary),
  };
  const millis = Date.now() - started;
  // A lane whose certified claim a run of the program broke is a bug report, whatever the others say.
  const contradicted = outcome.outcomes.find((o) => o.kind === 'failed' && o.contradicted);
  if (contradicted && contradicted.kind === 'failed') throw new Error(`${configurationName(contradicted.configuration)}: ${contradicted.message}`);
  if (outcome.winner) return withOverflowNote(program, { ...outcome.winner.result, millis, portfolio: report });
  const failure = outcome.outcomes.find((o) => o.kind === 'failed' && !o.resourceLimit);
  // A configuration that crashed is a bug; with no certified answer to report, it must not be hidden.
  if (failure && failure.kind === 'failed') throw new Error(`${configurationName(failure.configuration)}: ${failure.message}`);
  const fallback: ConfigurationResult = {
    verdict: 'unknown', certified: false, function: problem.function, cutset: settings.cutset,
    schedule: settings.schedule.name, cutpoints: 0, verificationConditions: 0, invariants: [], stats: [], millis,
  };
  return withOverflowNote(program, { ...unknownResult(outcome.outcomes, outcome.timedOut, millis, fallback), portfolio: report });
}

/**
 * No certified answer: the schedule's first lane gives the frame (function, cut-set, candidate
 * invariants), every lane's step statistics are merged in the sequential order, and the reason
 * names what each configuration ended with. The time bound overrides all: "timeout after N s".
 */
function unknownResult(outcomes: readonly ConfigurationOutcome[], timedOut: boolean, millis: number, fallback: ConfigurationResult): ConfigurationResult {
  const results = outcomes.flatMap((o) => (o.kind === 'result' ? [o] : []));
  const schedule = results.filter((o) => o.configuration.kind === 'schedule');
  const frame = schedule.find((o) => o.configuration.kind === 'schedule' && o.configuration.lane === 0) ?? schedule[0] ?? results[0];
  const indexed: { index: number; stats: StepStats }[] = schedule.flatMap((o) => o.result.stats.map((stats, i) => ({ index: o.attemptIndices[i] ?? Number.MAX_SAFE_INTEGER, stats })));
  const stats = indexed.sort((a, b) => a.index - b.index).map((s) => s.stats);
  const reasons = [...new Set(outcomes.map((o) => `${configurationName(o.configuration)}: ${o.kind === 'result' ? o.result.reason ?? o.result.verdict : o.kind === 'failed' ? o.message : 'stopped at the time bound'}`))];
  const reason = timedOut ? `timeout after ${Math.round(millis / 1000)} s (${reasons.join('; ')})` : reasons.join('; ');
  const { engineStats: _engineStats, ...base } = frame?.result ?? fallback;
  return { ...base, verdict: 'unknown', certified: false, reason, stats, millis };
}

function summary(o: ConfigurationOutcome): PortfolioReport['configurations'][number] {
  const name = configurationName(o.configuration);
  if (o.kind === 'result') return { name, verdict: o.result.verdict, ...(o.result.reason !== undefined ? { reason: o.result.reason } : {}), millis: o.result.millis };
  if (o.kind === 'failed') return { name, verdict: 'error', reason: o.message };
  return { name, verdict: 'cancelled' };
}

function finishedEvent(o: ConfigurationOutcome): ConfigurationEvent {
  const s = summary(o);
  return { kind: 'finished', configuration: s.name, verdict: s.verdict, ...(s.reason !== undefined ? { reason: s.reason } : {}) };
}
