// A z3 solver for quantifier-free linear integer arithmetic, driven by SMT-LIB text.
//
// Why text and not z3-solver's expression objects: the WASM build runs check() on a worker thread
// while JavaScript keeps running, and z3 contexts are not thread-safe. Expression objects are freed
// by garbage-collection finalizers at arbitrary moments — also while a check of the same context
// runs — and building terms concurrently with a check crashed z3 ("memory access out of bounds")
// in our tests. With text, the only z3 objects are the solver and a model, both released
// explicitly, and every job that touches the shared context runs under one lock (withLiaSolver).
// Numbers are written as decimal numerals, so bigints of any size stay exact. z3 itself runs on a
// thread of its own (checker-worker.ts); this side collects the text and sends it with each check.
import { Worker } from 'node:worker_threads';
import { onShutdownZ3, trackZ3Work } from '../sat/z3-context.js';
import { findExecutable } from '../sat/external-backend.js';
import { CHECKER_WARM_UP_WORK } from '../limits.js';
import { NativeChecker } from './native-checker.js';
import { unknownReply, type CheckLimits, type CheckOutcome, type CheckReply, type CheckRequest, type Sort } from './checker-protocol.js';

export type { CheckLimits, CheckOutcome, CheckStatus } from './checker-protocol.js';

/**
 * The thread that runs the checker's z3 (checker-worker.ts): one per process, started on first use
 * (or by warmUpChecker) and kept while idle without keeping the process alive. Its checks block it,
 * so it is stopped by terminating it: by shutdownZ3, after which the check under way and every later
 * one of the jobs then running answer 'unknown' and the next job starts a fresh thread; and when a
 * check's time limit passes, after which that check answers 'unknown' (timeout) and its job goes on
 * with a fresh thread (LiaSolver.check).
 */
class CheckerThread implements Checker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { readonly resolve: (reply: CheckReply) => void; readonly sentAt: number; readonly timer?: NodeJS.Timeout }>();
  private nextId = 0;
  /** Why the thread can serve no more checks, once it cannot. */
  private failure: string | null = null;
  retired = false;
  /** Retired because a check ran out of time (not shut down): its job may go on with a new thread. */
  timedOut = false;

  constructor() {
    // None of the process's Node options: a worker inherits them, and some fail there (a process
    // started with `--input-type=module -e …` cannot start a worker with --input-type).
    this.worker = new Worker(new URL('./checker-worker.js', import.meta.url), { execArgv: [] });
    this.worker.unref();
    this.worker.on('message', (reply: CheckReply) => {
      const entry = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (entry?.timer !== undefined) clearTimeout(entry.timer);
      this.idleCheck();
      entry?.resolve(reply);
    });
    this.worker.on('error', (error) => this.fail(`z3 failed: the checker's thread failed: ${error.message}`));
    this.worker.on('exit', (code) => this.fail(`z3 failed: the checker's thread exited with code ${code}`));
  }

  /** One check; past `timeLimitMs` (if given) the thread is ended and the check answers 'unknown'. */
  check(request: Omit<CheckRequest, 'kind' | 'id'>, timeLimitMs?: number): Promise<CheckReply> {
    const id = this.nextId++;
    if (this.failure !== null) return Promise.resolve(unknownReply(id, this.failure));
    return new Promise((resolve) => {
      const timer = timeLimitMs === undefined ? undefined : setTimeout(() => this.timeOut(timeLimitMs), timeLimitMs);
      this.pending.set(id, { resolve, sentAt: Date.now(), ...(timer !== undefined ? { timer } : {}) });
      // Awaited, so it must keep the process alive until the answer comes.
      this.worker.ref();
      this.worker.postMessage({ kind: 'check', id, ...request } satisfies CheckRequest);
    });
  }

  /** Ends the thread, a check under way too: it and every later one answer 'unknown'. */
  terminate(): Promise<void> {
    this.fail('z3 was interrupted (shutting down)');
    return this.worker.terminate().then(() => undefined, () => undefined);
  }

  private timeOut(timeLimitMs: number): void {
    if (this.retired) return;
    this.timedOut = true;
    this.fail(`timeout after ${timeLimitMs} ms`);
    void this.worker.terminate().catch(() => undefined);
  }

  private fail(reason: string): void {
    this.failure ??= reason;
    this.retired = true;
    for (const [id, { resolve, sentAt, timer }] of this.pending) {
      if (timer !== undefined) clearTimeout(timer);
      resolve(unknownReply(id, this.failure, Date.now() - sentAt));
    }
    this.pending.clear();
    this.idleCheck();
  }

  private idleCheck(): void {
    if (this.pending.size === 0) this.worker.unref();
  }
}

/** What serves the checks: the WASM thread or a native z3 process, with the same requests and answers. */
interface Checker {
  check(request: Omit<CheckRequest, 'kind' | 'id'>, timeLimitMs?: number): Promise<CheckReply>;
  terminate(): Promise<void>;
  readonly retired: boolean;
  readonly timedOut: boolean;
}

/** The environment variable that chooses the checker's z3 (the CLI's --checker sets it): inherited by
 * worker threads and child processes, so a portfolio's workers check with the same z3. */
export const CHECKER_VARIABLE = 'FARKAS_CHECKER';

export const CHECKER_CHOICES = ['auto', 'wasm', 'native'] as const;
export type CheckerChoice = (typeof CHECKER_CHOICES)[number];

export type CheckerInUse = { readonly kind: 'wasm' } | { readonly kind: 'native'; readonly executable: string | null };

/**
 * The checker's z3 for a choice: 'wasm' is z3-solver's WASM build, on a thread of its own; 'native'
 * is the `z3` on PATH as a process (`executable` null when there is none: every check then answers
 * unknown, saying so); 'auto' is native when z3 is on PATH, else WASM.
 */
export function resolveChecker(choice: CheckerChoice): CheckerInUse {
  if (choice === 'wasm') return { kind: 'wasm' };
  const executable = findExecutable('z3');
  if (choice === 'native' || executable !== null) return { kind: 'native', executable };
  return { kind: 'wasm' };
}

/** The checker's z3 of this process: FARKAS_CHECKER's choice ('auto' when unset or not a choice),
 * resolved on first use and kept. */
export function checkerInUse(): CheckerInUse {
  if (inUse === null) {
    const value = process.env[CHECKER_VARIABLE];
    inUse = resolveChecker((CHECKER_CHOICES as readonly string[]).includes(value ?? '') ? (value as CheckerChoice) : 'auto');
  }
  return inUse;
}
let inUse: CheckerInUse | null = null;

/** Chooses the checker's z3 for this process and the threads and processes it starts later (a
 * checker already started serves its jobs to the end). */
export function chooseChecker(choice: CheckerChoice): void {
  process.env[CHECKER_VARIABLE] = choice;
  inUse = null;
}

let thread: Checker | null = null;

function checkerThread(): Checker {
  if (thread === null || thread.retired) {
    const use = checkerInUse();
    thread = use.kind === 'wasm' ? new CheckerThread() : new NativeChecker(use.executable ?? 'z3');
  }
  return thread;
}

// shutdownZ3() first interrupts and awaits every job (they are tracked), then ends the thread.
onShutdownZ3(async () => {
  const ending = thread;
  thread = null;
  warming = null;
  await ending?.terminate();
});

let queue: Promise<unknown> = Promise.resolve();
let nextJob = 0;

/** Lets shutdownZ3() stop a job: a running check is interrupted, later checks answer unknown at once. */
interface JobControl {
  readonly job: number;
  /** The job runs in a new z3 context (CheckRequest.fresh). */
  readonly fresh: boolean;
  interrupted: boolean;
  thread: Checker | null;
}

/**
 * Run `job` with an empty solver, exclusively: no other job uses the checker meanwhile.
 * The whole job (not only its checks) is registered with trackZ3Work, so shutdownZ3() waits for it
 * instead of ending z3's threads under a check about to start. Jobs must not nest (a job that
 * waits for another job deadlocks). `fresh`: the job runs in a new z3 context, for a caller that uses
 * the models: z3's models depend on the terms earlier jobs left in its context, and a fresh one makes
 * them depend on the job's own checks alone (the same models in any process, after any history).
 */
export function withLiaSolver<T>(job: (solver: LiaSolver) => Promise<T>, options: { readonly fresh?: boolean } = {}): Promise<T> {
  const control: JobControl = { job: nextJob++, fresh: options.fresh ?? false, interrupted: false, thread: null };
  const run = queue.then(() => {
    if (!control.interrupted) control.thread = checkerThread();
    return job(new LiaSolver(control));
  });
  queue = run.catch(() => undefined);
  return trackZ3Work(run, () => {
    control.interrupted = true;
    void control.thread?.terminate();
  });
}

/**
 * Starts the checker's thread, for a check that is likely soon: z3's start-up (~0.3 s: loading,
 * compiling its WASM, a context) then happens beside the caller's work, on a trivial query queued like
 * any job (so shutdownZ3() waits for it), bounded by z3's work units. Does nothing once the thread has
 * been started.
 */
export function warmUpChecker(): void {
  void startChecker();
}

/** Settles once the checker's z3 has started and answered its first check (starting both if
 * needed): what is measured after it is the checker's work, not z3's start-up. Never rejects. */
export function checkerWarm(): Promise<void> {
  return startChecker();
}

function startChecker(): Promise<void> {
  if (warming !== null && thread !== null && warming.thread === thread && !thread.retired) return warming.done;
  const started = checkerThread();
  const done = withLiaSolver(async (solver) => {
    const x = solver.intSymbol();
    solver.assert(`(> ${x} 0)`);
    await solver.check({ work: CHECKER_WARM_UP_WORK });
  }).catch(() => undefined);
  warming = { thread: started, done };
  return done;
}
let warming: { readonly thread: Checker; readonly done: Promise<void> } | null = null;

/** Values of a satisfying assignment; symbols z3 left out are don't-cares and read as 0 / false. */
export interface LiaModel {
  int(symbol: string): bigint;
  bool(symbol: string): boolean;
}

/**
 * Collects assertions as text; each check() sends them (plus that check's goals) to a freshly reset
 * z3 solver. Checking from scratch instead of push/pop is deliberate: z3 in incremental mode skips
 * its preprocessing, and on large-block encodings (long if/else chains) that measured 5–30× slower.
 * The checker's thread keeps a job's symbols and assertions, so each check sends only the new ones.
 */
export class LiaSolver {
  private readonly symbols: [string, Sort][] = [];
  private readonly assertions: string[] = [];
  private sentSymbols = 0;
  private sentAssertions = 0;
  private lastModel: string | null = null;

  constructor(private readonly control: JobControl) {}

  /** A fresh integer constant's SMT-LIB symbol. */
  intSymbol(): string {
    return this.fresh('i', 'Int');
  }

  /** A fresh boolean constant's SMT-LIB symbol. */
  boolSymbol(): string {
    return this.fresh('b', 'Bool');
  }

  private fresh(prefix: string, sort: Sort): string {
    const symbol = `${prefix}${this.symbols.length}`;
    this.symbols.push([symbol, sort]);
    return symbol;
  }

  /** Assert an SMT-LIB boolean term over symbols from intSymbol()/boolSymbol(), for every later check. */
  assert(term: string): void {
    this.assertions.push(term);
  }

  /**
   * Satisfiability of the assertions together with `goals` (which hold for this check only), under
   * limits; z3 failures become 'unknown' with a reason instead of exceptions.
   */
  async check(limits: CheckLimits = {}, ...goals: string[]): Promise<CheckOutcome> {
    this.lastModel = null;
    // A check of this job that ran out of time ended the thread; the job goes on with a fresh one,
    // which is sent the job's symbols and assertions from the start.
    if (!this.control.interrupted && this.control.thread?.timedOut) {
      this.control.thread = checkerThread();
      this.sentSymbols = 0;
      this.sentAssertions = 0;
    }
    const thread = this.control.interrupted ? null : this.control.thread;
    if (thread === null) return { status: 'unknown', reason: 'z3 was interrupted (shutting down)', millis: 0, work: 0 };
    const reply = await thread.check(
      {
        job: this.control.job,
        symbols: this.symbols.slice(this.sentSymbols),
        assertions: this.assertions.slice(this.sentAssertions),
        goals,
        // Only the work limit and the preprocessing: the caller's object may carry more, which need
        // not survive the copy to the thread, and the time limit is the client's (CheckerThread.check).
        limits: { ...(limits.work !== undefined ? { work: limits.work } : {}), ...(limits.preprocess ? { preprocess: true } : {}) },
        ...(this.control.fresh ? { fresh: true } : {}),
      },
      limits.timeLimitMs === undefined ? undefined : Math.max(1, Math.ceil(limits.timeLimitMs)),
    );
    this.sentSymbols = this.symbols.length;
    this.sentAssertions = this.assertions.length;
    if (reply.outcome.status === 'sat') this.lastModel = reply.model ?? null;
    return reply.outcome;
  }

  /** The model of the last check, which answered 'sat'. */
  model(): LiaModel {
    if (this.lastModel === null) throw new Error('LiaSolver.model() without a sat check');
    return parseModel(this.lastModel);
  }
}

type SExpr = string | SExpr[];

function parseSExprs(text: string): SExpr[] {
  const tokens = text.match(/\(|\)|\|[^|]*\||[^\s()]+/g) ?? [];
  const stack: SExpr[][] = [[]];
  for (const token of tokens) {
    if (token === '(') stack.push([]);
    else if (token === ')') {
      const list = stack.pop();
      if (list === undefined || stack.length === 0) throw new Error('z3 model: unbalanced parentheses');
      stack[stack.length - 1]!.push(list);
    } else stack[stack.length - 1]!.push(token);
  }
  if (stack.length !== 1) throw new Error('z3 model: unbalanced parentheses');
  return stack[0]!;
}

function integerValue(value: SExpr): bigint {
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  if (Array.isArray(value) && value.length === 2 && value[0] === '-') return -integerValue(value[1]!);
  throw new Error(`z3 model: not an integer value: ${JSON.stringify(value)}`);
}

/** Reads z3's `(define-fun name () Sort value)` lines. */
export function parseModel(text: string): LiaModel {
  const ints = new Map<string, bigint>();
  const bools = new Map<string, boolean>();
  for (const item of parseSExprs(text)) {
    if (!Array.isArray(item) || item[0] !== 'define-fun' || item.length !== 5) continue;
    const [, name, params, sort, value] = item;
    if (typeof name !== 'string' || !Array.isArray(params) || params.length !== 0) continue;
    if (sort === 'Int') ints.set(name, integerValue(value!));
    else if (sort === 'Bool' && (value === 'true' || value === 'false')) bools.set(name, value === 'true');
  }
  return {
    int: (symbol) => ints.get(symbol) ?? 0n,
    bool: (symbol) => bools.get(symbol) ?? false,
  };
}
