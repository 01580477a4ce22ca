// Worker threads for MiniSat, kept warm between solves: compiling the asm.js source costs ~150 ms
// per thread, more than many solves. A worker that timed out, was cancelled or failed is terminated
// (the solve cannot be interrupted any other way); one that answered goes back to the idle list.
// Idle workers are unref'd, so they never keep the process alive.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { MinisatJob, MinisatReply, MinisatWorkerConfig } from './minisat-protocol.js';

export type WorkerOutcome =
  | MinisatReply
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'crashed'; readonly detail: string };

export interface RunLimits {
  readonly timeLimitMs?: number;
  readonly signal?: AbortSignal;
}

/** The worker an incremental session (MinisatJob.session) keeps between its solves; null until its
 * first solve, and again once that worker is gone (terminated after a timeout, a cancel or a crash). */
export interface SessionWorker {
  worker: Worker | null;
  /** Its 'exit' listener, removed when the worker goes back to the pool. */
  onExit?: () => void;
}

const MAX_IDLE_WORKERS = 2;

export class MinisatWorkerPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: (() => void)[] = [];
  private busy = 0;

  /** At most `maxWorkers` solves run at once (they are CPU-bound); later ones wait their turn. */
  constructor(
    private readonly heapBytes: number,
    private readonly maxWorkers = Math.max(1, availableParallelism()),
    /** The worker script; tests substitute misbehaving ones. */
    private readonly workerUrl = new URL('./minisat-worker.js', import.meta.url),
  ) {}

  /**
   * Runs `job` on a worker; `job.flatClauses` is transferred (unusable afterwards). The time limit
   * includes any wait for a free worker. With `session`, on the session's own worker, which it keeps
   * afterwards instead of the pool (closeSession gives it back). Never rejects.
   */
  run(job: MinisatJob, limits: RunLimits, session?: SessionWorker): Promise<WorkerOutcome> {
    return new Promise<WorkerOutcome>((resolve) => {
      let worker: Worker | null = null;
      let started = false;
      let settled = false;
      const settle = (outcome: WorkerOutcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        limits.signal?.removeEventListener('abort', onAbort);
        if (worker) {
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
          // A worker that did not answer may still be solving: only terminating stops it.
          const answered = outcome.kind === 'sat' || outcome.kind === 'unsat' || outcome.kind === 'budget';
          if (answered && session) worker.unref();
          else if (answered) this.release(worker);
          else {
            if (session) session.worker = null;
            worker.terminate().catch(() => undefined);
          }
        }
        if (started) {
          this.busy--;
          this.waiting.shift()?.();
        } else {
          const at = this.waiting.indexOf(start);
          if (at >= 0) this.waiting.splice(at, 1);
        }
        resolve(outcome);
      };
      const onMessage = (reply: MinisatReply) => settle(reply);
      const onError = (error: Error) => settle({ kind: 'crashed', detail: error.message });
      const onExit = (code: number) => settle({ kind: 'crashed', detail: `worker exited with code ${code}` });
      const onAbort = () => settle({ kind: 'cancelled' });
      const timer =
        limits.timeLimitMs === undefined ? undefined : setTimeout(() => settle({ kind: 'timeout' }), limits.timeLimitMs);
      limits.signal?.addEventListener('abort', onAbort, { once: true });

      const start = (): void => {
        if (settled) return;
        started = true;
        this.busy++;
        try {
          worker = session?.worker ?? this.acquire();
          if (session && session.worker !== worker) {
            const own = worker;
            session.worker = own;
            // A kept worker that dies between solves leaves the session: the next solve starts anew.
            session.onExit = () => {
              if (session.worker === own) session.worker = null;
            };
            own.once('exit', session.onExit);
          }
          worker.ref();
          worker.on('message', onMessage);
          worker.on('error', onError);
          worker.on('exit', onExit);
          worker.postMessage(job, [job.flatClauses.buffer as ArrayBuffer]);
        } catch (error) {
          settle({ kind: 'crashed', detail: error instanceof Error ? error.message : String(error) });
        }
      };
      if (this.busy < this.maxWorkers) start();
      else this.waiting.push(start);
    });
  }

  /**
   * Starts compiling MiniSat in an idle worker now, so that the first solve does not wait for it:
   * callers that will solve soon (after sampling and encoding) overlap the ~150–400 ms start-up
   * with their own work. Does nothing if a worker is already idle.
   */
  warm(): void {
    if (this.idle.length > 0 || this.busy >= this.maxWorkers) return;
    const worker = this.spawn();
    worker.unref();
    this.idle.push(worker);
  }

  /** Gives a session's worker back to the pool (its kept solver goes with the next job there). */
  closeSession(session: SessionWorker): void {
    const worker = session.worker;
    session.worker = null;
    if (worker && session.onExit) worker.off('exit', session.onExit);
    if (worker) this.release(worker);
  }

  private acquire(): Worker {
    const worker = this.idle.pop() ?? this.spawn();
    worker.ref();
    return worker;
  }

  private release(worker: Worker): void {
    if (this.idle.length >= MAX_IDLE_WORKERS) {
      worker.terminate().catch(() => undefined);
      return;
    }
    worker.unref();
    this.idle.push(worker);
  }

  private spawn(): Worker {
    const config: MinisatWorkerConfig = { heapBytes: this.heapBytes };
    // Not `stdout: true`: a piped worker stdout keeps the process alive even when the worker is
    // unref'd. The worker silences its console itself (see minisat-worker.ts).
    const worker = new Worker(this.workerUrl, { workerData: config });
    // An idle worker that dies just leaves the pool; the 'error' listener keeps that from throwing.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
    });
    return worker;
  }
}

const poolsByHeap = new Map<number, MinisatWorkerPool>();

/** The process-wide pool for MiniSat workers with the given heap size. */
export function minisatPool(heapBytes: number): MinisatWorkerPool {
  let pool = poolsByHeap.get(heapBytes);
  if (!pool) {
    pool = new MinisatWorkerPool(heapBytes);
    poolsByHeap.set(heapBytes, pool);
  }
  return pool;
}
