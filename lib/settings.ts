// The settings of one command, resolved once where it starts (the CLI, a library call, a portfolio
// worker) and handed down with the prepared problem: the one clock, the SAT back end, the template
// schedule, the cut-set strategy and the work limits of one step and one query. Below this file no
// option bag carries the user's timeout or a back end's name: every search reads `settings`.
//
// Vocabulary: the *timeout* is the user's bound on a whole command (`--timeout`), turned into the
// deadline here and nowhere else; a *time limit* (`timeLimitMs`) is that of one SAT solve or one z3
// check, read off the deadline where the solve starts (Deadline.timeLimit, satStepLimits).
import { Deadline, CONDITION_QUERY_CONFLICTS, CONDITION_QUERY_PROPAGATIONS, SAT_STEP_CONFLICTS, SAT_STEP_PROPAGATIONS } from './limits.js';
import { loadSchedule, type Schedule } from './constraints/schedule.js';
import { createBackend, DEFAULT_BACKEND_SPEC } from './sat/index.js';
import type { SatBackend } from './sat/types.js';
import type { CutsetStrategy } from './vc/cutset.js';

/** The work of one template step's SAT solve (verify) and of one solver query (the condition
 * searches): counts, the same on any machine; a schedule step may set its own. A time limit per
 * step or query only where the user gave one (`--step-timeout`, `--query-timeout`). */
export interface WorkLimits {
  readonly stepConflicts: number;
  readonly stepPropagations: number;
  readonly stepTimeLimitMs?: number;
  readonly queryConflicts: number;
  readonly queryPropagations: number;
  readonly queryTimeLimitMs?: number;
}

export interface Settings {
  /** The command's one clock and its cancellation: every search below asks it whether to go on. */
  readonly deadline: Deadline;
  readonly backend: SatBackend;
  /** The back end's spec ('auto', 'minisat', 'z3', 'dimacs:CMD'), for a worker thread to resolve
   * again (a back end object does not cross threads); a back end given as an object has its name. */
  readonly backendSpec: string;
  readonly schedule: Schedule;
  readonly cutset: CutsetStrategy;
  readonly limits: WorkLimits;
}

/** What a caller says, each part optional: the defaults are the CLI's. */
export interface SettingsOptions {
  /** The user's bound on the whole command (none: no bound but the work limits). */
  readonly timeoutMs?: number;
  /** Aborting ends every search with unknown ("aborted"). */
  readonly signal?: AbortSignal;
  /** A back end spec (lib/sat/index.ts) or a back end object (tests, the library). */
  readonly backend?: string | SatBackend;
  /** A schedule's name or file (templates/), or a loaded one. */
  readonly schedule?: string | Schedule;
  readonly cutset?: CutsetStrategy;
  readonly stepConflicts?: number;
  readonly stepPropagations?: number;
  readonly stepTimeLimitMs?: number;
  readonly queryConflicts?: number;
  readonly queryPropagations?: number;
  readonly queryTimeLimitMs?: number;
}

/** The settings of one command; an unknown back end or schedule is the user's input error. */
export function resolveSettings(options: SettingsOptions = {}): Settings {
  const deadline = new Deadline(options.timeoutMs, options.signal);
  return settingsWith(deadline, options);
}

/** The part of Settings a worker thread needs to resolve them again: plain data. */
export interface SettingsJob {
  /** The deadline as epoch milliseconds (absent: unbounded). */
  readonly deadlineAt?: number;
  readonly backend: string;
  readonly schedule: Schedule;
  readonly cutset: CutsetStrategy;
  readonly limits: WorkLimits;
}

/** `settings` as a worker thread's job, with another back end spec where the worker must use one. */
export function settingsJob(settings: Settings, backendSpec = settings.backendSpec): SettingsJob {
  return {
    ...(settings.deadline.bounded ? { deadlineAt: settings.deadline.at } : {}),
    backend: backendSpec,
    schedule: settings.schedule,
    cutset: settings.cutset,
    limits: settings.limits,
  };
}

/** The settings of a portfolio worker: the command's, with the same deadline. */
export function settingsOfJob(job: SettingsJob): Settings {
  const deadline = job.deadlineAt === undefined ? new Deadline() : Deadline.until(job.deadlineAt);
  return settingsWith(deadline, { backend: job.backend, schedule: job.schedule, cutset: job.cutset, ...job.limits });
}

function settingsWith(deadline: Deadline, options: SettingsOptions): Settings {
  const backend = typeof options.backend === 'object' ? options.backend : createBackend(options.backend ?? DEFAULT_BACKEND_SPEC);
  const backendSpec = typeof options.backend === 'object' ? options.backend.name : (options.backend ?? DEFAULT_BACKEND_SPEC).trim();
  return {
    deadline,
    backend,
    backendSpec,
    schedule: typeof options.schedule === 'object' ? options.schedule : loadSchedule(options.schedule),
    cutset: options.cutset ?? 'paths',
    limits: {
      stepConflicts: options.stepConflicts ?? SAT_STEP_CONFLICTS,
      stepPropagations: options.stepPropagations ?? SAT_STEP_PROPAGATIONS,
      ...(options.stepTimeLimitMs !== undefined ? { stepTimeLimitMs: options.stepTimeLimitMs } : {}),
      queryConflicts: options.queryConflicts ?? CONDITION_QUERY_CONFLICTS,
      queryPropagations: options.queryPropagations ?? CONDITION_QUERY_PROPAGATIONS,
      ...(options.queryTimeLimitMs !== undefined ? { queryTimeLimitMs: options.queryTimeLimitMs } : {}),
    },
  };
}

/** The same settings on another clock: a part of the command's time for one search of several. */
export function withDeadline(settings: Settings, deadline: Deadline): Settings {
  return { ...settings, deadline };
}

/** The same settings with another cut-set strategy (a search that needs one of its own). */
export function withCutset(settings: Settings, cutset: CutsetStrategy): Settings {
  return { ...settings, cutset };
}
