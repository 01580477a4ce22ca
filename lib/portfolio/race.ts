// Runs configurations on at most `jobs` worker threads, in order, until one answers with a certified
// verdict; then terminates every other worker. Terminating is the only way to stop a SAT solve or a
// z3 check (see /work/shared/notes/sat-backends.md), and it ends the worker's own solver threads too.
import { Worker } from 'node:worker_threads';
import type { ProgressEvent } from '../result.js';
import type { Configuration } from './configurations.js';
import type { ConfigurationResult, PortfolioJob, WorkerMessage } from './protocol.js';
import type { Deadline } from '../limits.js';

/** Heap of one worker: bounded, so that several lanes cannot exhaust the machine's memory (issue 20). */
export const WORKER_HEAP_MB = 2048;

export type ConfigurationOutcome =
  | { readonly kind: 'result'; readonly configuration: Configuration; readonly result: ConfigurationResult; readonly attemptIndices: readonly number[] }
  /** `resourceLimit`: the lane hit a limit (its heap), an unknown answer rather than a bug. */
  | { readonly kind: 'failed'; readonly configuration: Configuration; readonly message: string; readonly contradicted?: boolean; readonly resourceLimit?: boolean }
  | { readonly kind: 'cancelled'; readonly configuration: Configuration };

export interface RaceOutcome {
  /** The first certified answer, if any configuration gave one before the deadline. */
  readonly winner?: ConfigurationOutcome & { readonly kind: 'result' };
  /** Every configuration that was started, in the order they were started. */
  readonly outcomes: readonly ConfigurationOutcome[];
  /** The deadline passed before every configuration had answered. */
  readonly timedOut: boolean;
}

export interface RaceOptions {
  readonly jobs: number;
  /** The job of one configuration; called when a worker takes it up. */
  readonly jobFor: (configuration: Configuration) => PortfolioJob;
  /** After it the still running workers are terminated. */
  readonly deadline?: Deadline;
  readonly onProgress?: (configuration: Configuration, event: ProgressEvent) => void;
  readonly onStart?: (configuration: Configuration) => void;
  readonly onFinish?: (outcome: ConfigurationOutcome) => void;
  /** The worker script; tests substitute others. */
  readonly workerUrl?: URL;
}

/** A verdict the portfolio may report: "safe" only certified, "unsafe" only with a replayed run. */
export function isCertifiedAnswer(r: ConfigurationResult): boolean {
  if (r.verdict === 'safe') return r.certified;
  if (r.verdict === 'unsafe') return r.certified && r.counterexample?.replayed === true;
  return false;
}

let live = 0;

/** Portfolio workers currently alive in this process (0 once every race has settled). */
export function liveWorkers(): number {
  return live;
}

export function race(configurations: readonly Configuration[], options: RaceOptions): Promise<RaceOutcome> {
  return new Promise<RaceOutcome>((resolve) => {
    const queue = [...configurations];
    const running = new Map<Worker, Configuration>();
    const exited: Promise<void>[] = [];
    const outcomes: ConfigurationOutcome[] = [];
    let finished = false;
    let timer: NodeJS.Timeout | undefined;

    const finish = (winner: RaceOutcome['winner'], timedOut: boolean): void => {
      if (finished) return;
      finished = true;
      if (timer) clearTimeout(timer);
      for (const [worker, configuration] of running) {
        outcomes.push({ kind: 'cancelled', configuration });
        void worker.terminate().catch(() => undefined);
      }
      running.clear();
      // Resolve once every thread is gone, so that a caller that returns leaves nothing running.
      void Promise.all(exited).then(() => resolve({ ...(winner ? { winner } : {}), outcomes, timedOut }));
    };

    const settle = (worker: Worker, outcome: ConfigurationOutcome): void => {
      if (finished || !running.has(worker)) return;
      running.delete(worker);
      outcomes.push(outcome);
      void worker.terminate().catch(() => undefined);
      options.onFinish?.(outcome);
      if (outcome.kind === 'result' && isCertifiedAnswer(outcome.result)) finish(outcome, false);
      else startNext();
    };

    const startNext = (): void => {
      while (!finished && running.size < options.jobs && queue.length > 0) {
        const configuration = queue.shift()!;
        let worker: Worker;
        try {
          worker = new Worker(options.workerUrl ?? new URL('./worker.js', import.meta.url), { workerData: options.jobFor(configuration), resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
        } catch (e) {
          outcomes.push({ kind: 'failed', configuration, message: e instanceof Error ? e.message : String(e) });
          continue;
        }
        live++;
        exited.push(new Promise<void>((done) => worker.once('exit', () => {
          live--;
          done();
        })));
        running.set(worker, configuration);
        options.onStart?.(configuration);
        worker.on('message', (m: WorkerMessage) => {
          if (m.kind === 'progress') {
            if (!finished) options.onProgress?.(configuration, m.event);
          } else if (m.kind === 'result') settle(worker, { kind: 'result', configuration, result: m.result, attemptIndices: m.attemptIndices });
          else settle(worker, { kind: 'failed', configuration, message: m.message, ...(m.contradicted ? { contradicted: true } : {}) });
        });
        worker.on('error', (e: Error & { code?: string }) => settle(worker, e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? { kind: 'failed', configuration, message: `out of memory (a worker may use ${WORKER_HEAP_MB} MB)`, resourceLimit: true }
          : { kind: 'failed', configuration, message: e.message }));
        worker.on('exit', (code) => settle(worker, { kind: 'failed', configuration, message: `worker exited with code ${code} before answering` }));
      }
      if (!finished && running.size === 0) finish(undefined, false);
    };

    if (options.deadline?.bounded) {
      timer = setTimeout(() => finish(undefined, true), Math.max(0, options.deadline.left));
    }
    startNext();
  });
}
