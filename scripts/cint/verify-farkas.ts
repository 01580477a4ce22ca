// farkas's side of the verifier's gcc-differential tester: `verify --function f` on a task's farkas
// text, in a worker thread (verify-worker.ts) that is terminated when it overruns a hard bound or runs
// out of memory. verify honours its time bound and size limits (lib/limits.ts) itself; the hard bound
// is a safety net, so that one runaway task (a bug) cannot end a run of hundreds: such a task counts as
// 'unknown', with the reason, and the summary counts it.
import { Worker } from 'node:worker_threads';
import { InputError } from '../../lib/diagnostics.js';
import { verify } from '../../lib/index.js';
import { parseProgram } from '../../lib/frontend/index.js';
import { verifyPortfolio } from '../../lib/portfolio/index.js';
import type { DataModel } from './types.js';
import { Problem } from '../../lib/problem/prepare.js';
import { resolveSettings } from '../../lib/settings.js';

/** What farkas answered on a task. */
export type FarkasAnswer =
  | {
      readonly kind: 'verdict';
      readonly verdict: 'safe' | 'unsafe' | 'unknown';
      readonly reason?: string;
      readonly counterexample?: { readonly inputs: ReadonlyMap<string, bigint>; readonly nondet: readonly bigint[]; readonly line: number };
      /** The worker was terminated at the hard bound or ran out of memory (the verdict is then unknown). */
      readonly killed?: string;
      readonly millis: number;
    }
  | { readonly kind: 'error'; readonly message: string; readonly millis: number };

export interface VerifyJob {
  /** The farkas text and the name it is parsed under. */
  readonly text: string;
  readonly file: string;
  readonly dataModel: DataModel;
  readonly timeoutMs: number;
  /** Portfolio workers (verifyPortfolio); 1 is the sequential search (verify). */
  readonly jobs: number;
}

/** The job in this thread. */
export async function verifyJob(job: VerifyJob): Promise<FarkasAnswer> {
  const started = Date.now();
  try {
    const program = parseProgram(job.text, job.file, { dataModel: job.dataModel });
    const r = job.jobs > 1
      ? await verifyPortfolio(Problem.of(program, 'f'), resolveSettings({ timeoutMs: job.timeoutMs }), { jobs: job.jobs })
      : await verify(Problem.of(program, 'f'), resolveSettings({ timeoutMs: job.timeoutMs }));
    const cex = r.counterexample;
    return {
      kind: 'verdict',
      verdict: r.verdict,
      ...(r.reason !== undefined ? { reason: r.reason } : {}),
      ...(cex ? { counterexample: { inputs: cex.inputs, nondet: cex.nondet, line: cex.line } } : {}),
      millis: Date.now() - started,
    };
  } catch (e) {
    const message = e instanceof InputError ? `rejected: ${e.message}` : e instanceof Error ? e.stack ?? e.message : String(e);
    return { kind: 'error', message, millis: Date.now() - started };
  }
}

export interface WorkerVerifierOptions {
  /** Terminate a job after this long; default twice its time bound plus 5 s. */
  readonly hardTimeoutMs?: (job: VerifyJob) => number;
  /** Heap of the worker thread; default 3 GB. */
  readonly maxHeapMb?: number;
}

/** Runs jobs one at a time in a worker thread, replaced after it is terminated. */
export class WorkerVerifier {
  private worker: Worker | null = null;

  constructor(private readonly options: WorkerVerifierOptions = {}) {}

  private spawn(): Worker {
    if (!this.worker) {
      this.worker = new Worker(new URL('./verify-worker.js', import.meta.url), {
        resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 3072 },
      });
      this.worker.unref();
    }
    return this.worker;
  }

  verify(job: VerifyJob): Promise<FarkasAnswer> {
    const started = Date.now();
    const worker = this.spawn();
    const hard = this.options.hardTimeoutMs?.(job) ?? 2 * job.timeoutMs + 5000;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (answer: FarkasAnswer, kill: boolean): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (kill) {
          this.worker = null;
          void worker.terminate().catch(() => undefined);
        }
        resolve(answer);
      };
      const killed = (why: string): FarkasAnswer => ({ kind: 'verdict', verdict: 'unknown', reason: why, killed: why, millis: Date.now() - started });
      const onMessage = (answer: FarkasAnswer): void => finish(answer, false);
      const onError = (e: Error): void => {
        const oom = (e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
        finish(oom ? killed(`out of memory (${this.options.maxHeapMb ?? 3072} MB)`) : { kind: 'error', message: `the verify worker failed: ${e.stack ?? e.message}`, millis: Date.now() - started }, true);
      };
      const onExit = (code: number): void => finish({ kind: 'error', message: `the verify worker exited (${code})`, millis: Date.now() - started }, true);
      const timer = setTimeout(() => finish(killed(`terminated after ${Math.round(hard / 1000)} s (time bound ${job.timeoutMs / 1000} s)`), true), hard);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate().catch(() => undefined);
  }
}
