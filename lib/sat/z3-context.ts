// One z3-solver (WASM) instance per process, shared by the z3 SAT back end and the certificate
// checker. Initialisation is lazy (it costs ~0.2 s and ~140 MiB) and z3's worker threads keep Node
// alive, so a CLI must call shutdownZ3() before it exits. Ending the threads while a check() is
// still running hangs the process, so every check is registered with trackZ3Work() and shutdown
// interrupts and awaits those first.
// Beware: `ctx.interrupt()` is sticky. A context interrupted while no call is running answers
// 'canceled' to every later call, so after interrupting a context, create a new one.
// z3-solver is imported on first use: loading it alone costs ~40 ms that most runs never need.
import { Z3_THREAD_SETTLE_MS } from '../limits.js';
type Z3Module = typeof import('z3-solver');

export type Z3Api = Awaited<ReturnType<Z3Module['init']>>;

interface PendingWork {
  readonly settled: Promise<unknown>;
  readonly interrupt?: () => void;
}

let api: Promise<Z3Api> | null = null;
const pendingWork = new Set<PendingWork>();

/**
 * The process-wide z3 API (high level `Context` plus low-level `Z3` and the Emscripten `em`).
 * `prestartThread` (default true): start a thread for Emscripten's pool with z3 (see
 * prestartCheckThread); false for a caller that runs its checks synchronously. The first call decides.
 */
export function getZ3(options: { readonly prestartThread?: boolean } = {}): Promise<Z3Api> {
  if (api === null) {
    const starting = import('z3-solver').then((z3) => {
      // Emscripten makes this object its Module: once init()'s synchronous part has run, it holds
      // the thread pool (see prestartCheckThread).
      const module: EmscriptenModule = { print: reportZ3Print, printErr: reportZ3Print };
      const initialised = z3.init(module as unknown as Record<string, unknown>);
      const loadThread = options.prestartThread === false ? null : prestartCheckThread(module);
      return initialised.then((api) => {
        loadThread?.();
        return api;
      });
    });
    // A failed initialisation must not be cached: the next caller retries.
    starting.catch(() => {
      if (api === starting) api = null;
    });
    api = starting;
  }
  return api;
}

interface EmscriptenModule {
  print(text: string): void;
  printErr(text: string): void;
  PThread?: { unusedWorkers: unknown[]; allocateUnusedWorker(): void; loadWasmModuleToWorker(worker: unknown): Promise<unknown> };
}

/**
 * Every check() runs on a thread of Emscripten's pool, which starts empty: the first check would
 * start one (a Node worker that loads z3's JavaScript again, ~0.1 s) after z3 is up. Started here, it
 * loads beside the WASM compile; once z3 is up it gets the module, as Emscripten does for its own
 * pool (PTHREAD_POOL_SIZE, which this build leaves at 0). Returns that last step; null when the pool
 * is not where this z3-solver build keeps it (then the first check starts the thread as before).
 */
function prestartCheckThread(module: EmscriptenModule): (() => void) | null {
  const pool = module.PThread;
  if (pool === undefined || pool.unusedWorkers.length > 0 || typeof pool.allocateUnusedWorker !== 'function' || typeof pool.loadWasmModuleToWorker !== 'function') return null;
  pool.allocateUnusedWorker();
  const worker = pool.unusedWorkers[0];
  // Not awaited: a check started meanwhile queues behind the thread's 'load' message.
  return () => void pool.loadWasmModuleToWorker(worker).catch(() => undefined);
}

/**
 * Register a running z3 operation (a `solver.check()`, or a whole task that may call it) so that
 * shutdownZ3() can interrupt it and wait for it before ending z3's threads. `interrupt` may be
 * called several times, also before a check has started: it should make the task stop (e.g.
 * `ctx.interrupt()` plus a flag the task reads before starting a check). Returns `work` unchanged.
 */
export function trackZ3Work<T>(work: Promise<T>, interrupt?: () => void): Promise<T> {
  const entry: PendingWork = {
    settled: work.then(
      () => undefined,
      () => undefined,
    ),
    interrupt,
  };
  pendingWork.add(entry);
  void entry.settled.then(() => pendingWork.delete(entry));
  return work;
}

const shutdownHooks = new Set<() => Promise<void>>();

/** Registers what shutdownZ3() must also end, after the pending work has settled: z3 instances
 * that live elsewhere (the certificate checker's thread). */
export function onShutdownZ3(hook: () => Promise<void>): void {
  shutdownHooks.add(hook);
}

/**
 * Interrupt and await pending z3 work, then terminate z3's worker threads so the process can exit
 * by itself. A no-op when z3 was never used. getZ3() afterwards starts a fresh instance.
 */
export async function shutdownZ3(): Promise<void> {
  const running = api;
  // Callers from now on get a fresh instance; this one is being taken down.
  api = null;
  await settlePendingWork();
  for (const hook of shutdownHooks) await hook();
  if (running === null) return;
  let z3: Z3Api;
  try {
    z3 = await running;
  } catch {
    return; // initialisation failed: there are no threads to end
  }
  await threadsReturnedToPool(z3);
  const { killThreads } = await import('z3-solver');
  await killThreads(z3.em);
}

const REINTERRUPT_EVERY_MS = 50;

/**
 * Interrupts pending work until it settles. Interrupting repeatedly covers work that was between
 * steps (e.g. waiting for z3's global lock) when the first interrupt came and so missed it.
 */
async function settlePendingWork(): Promise<void> {
  while (pendingWork.size > 0) {
    const batch = [...pendingWork];
    const interruptAll = () => {
      for (const work of batch) {
        try {
          work.interrupt?.();
        } catch {
          // the context may already be gone; the work will settle on its own
        }
      }
    };
    interruptAll();
    const repeat = setInterval(interruptAll, REINTERRUPT_EVERY_MS);
    try {
      await Promise.all(batch.map((work) => work.settled));
    } finally {
      clearInterval(repeat);
    }
  }
}

/**
 * After a check() resolves, its pthread still reports back to finish its cleanup; terminating it
 * before that makes Emscripten complain. Wait (briefly) until no thread is running.
 */
async function threadsReturnedToPool(z3: Z3Api): Promise<void> {
  const threads = z3.em.PThread as { runningWorkers: unknown[] } | undefined;
  const deadline = performance.now() + Z3_THREAD_SETTLE_MS;
  while (threads && threads.runningWorkers.length > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** What Emscripten says about its own start-up and shutdown, not about any answer: on a busy machine
 * the WASM start waits for its threads and reports it every few seconds ("still waiting on run
 * dependencies", one "dependency: …" line each, "(end of list)"), which users saw as errors (issue 20). */
const Z3_HOUSEKEEPING = /command from terminated worker|still waiting on run dependencies|^dependency: |^\(end of list\)/;

/**
 * z3 (Emscripten) would print to the process's stdout/stderr; stdout belongs to the tool's own
 * output, so everything goes to stderr, except its start-up and shutdown housekeeping.
 */
function reportZ3Print(text: string): void {
  if (Z3_HOUSEKEEPING.test(text)) return;
  process.stderr.write(`z3: ${text}\n`);
}

