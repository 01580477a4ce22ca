// A z3 solver for quantifier-free linear integer arithmetic, driven by SMT-LIB text.
//
// Why text and not z3-solver's expression objects: the WASM build runs check() on a worker thread
// while JavaScript keeps running, and z3 contexts are not thread-safe. Expression objects are freed
// by garbage-collection finalizers at arbitrary moments — also while a check of the same context
// runs — and building terms concurrently with a check crashed z3 ("memory access out of bounds")
// in our tests. With text, the only z3 objects are the solver and a model, both released
// explicitly, and every job that touches the shared context runs under one lock (withLiaSolver).
// Numbers are written as decimal numerals, so bigints of any size stay exact.
import type { Context } from 'z3-solver';
import { currentZ3, getZ3, trackZ3Work, type Z3Api } from '../sat/z3-context.js';
import { CHECKER_WARM_UP_TIMEOUT_MS, CHECKER_WARM_UP_WORK } from '../limits.js';

type LiaContext = Context<'lia'>;
type Z3Solver = InstanceType<LiaContext['Solver']>;

// One context and one solver per z3 instance, shared by every job and never released by the library
// (shutdownZ3() ends the instance). Reusing the solver (reset before every check) saves creating one per
// job. Keyed by the instance because getZ3() starts a fresh one after a shutdown.
interface Session {
  readonly ctx: LiaContext;
  readonly solver: Z3Solver;
  /** The solver's current 'timeout' and 'rlimit' parameters (each solver.set leaks a small params
   * object, so set only changes). */
  timeout: number;
  rlimit: number;
}
const sessions = new WeakMap<Z3Api, Session>();

async function liaSession(): Promise<Session> {
  const z3 = await getZ3();
  let session = sessions.get(z3);
  if (session === undefined) {
    const ctx = new z3.Context('lia');
    // z3's SMT core itself (the 'smt' tactic), not its default solver: for an integer problem whose
    // variables are all bounded (every C-typed variable is, unsigned ones by 0..2^32-1) the default
    // picks QF_LIA's strategy, which tries bit-blasting and MIP tactics first, some under time limits
    // of their own (try_for), so a trivial check took 50,000 resource units and 0.2 s instead of
    // 1,000 and 5 ms. Over the checks of 14 SV-COMP tasks the same answers in 0.5–0.7 of the time.
    session = { ctx, solver: new ctx.Tactic('smt').solver(), timeout: NO_TIMEOUT, rlimit: 0 };
    sessions.set(z3, session);
  }
  return session;
}

let queue: Promise<unknown> = Promise.resolve();

/** Lets shutdownZ3() stop a job: a running check is interrupted, later checks answer unknown at once. */
interface JobControl {
  interrupted: boolean;
  session: Session | null;
}

/**
 * Run `job` with an empty solver, exclusively: no other job touches the z3 context meanwhile.
 * The whole job (not only its checks) is registered with trackZ3Work, so shutdownZ3() waits for it
 * instead of ending z3's threads under a check about to start. Jobs must not nest (a job that
 * waits for another job deadlocks).
 */
export function withLiaSolver<T>(job: (solver: LiaSolver) => Promise<T>): Promise<T> {
  const control: JobControl = { interrupted: false, session: null };
  const run = queue.then(async () => {
    if (!control.interrupted) {
      control.session = await liaSession();
    }
    return job(new LiaSolver(control));
  });
  queue = run.catch(() => undefined);
  return trackZ3Work(run, () => {
    control.interrupted = true;
    // An interrupt that arrives while check() is still being handed to z3's thread is lost, and
    // that check would then run unbounded with shutdownZ3() waiting for it: repeat until the job ends.
    const interrupt = (): void => control.session?.ctx.interrupt();
    interrupt();
    const repeat = setInterval(interrupt, INTERRUPT_REPEAT_MS);
    const stop = (): void => clearInterval(repeat);
    run.then(stop, stop);
  });
}

const INTERRUPT_REPEAT_MS = 50;

/**
 * Starts the checker's z3 session in the background, for a check that is likely soon: z3's
 * initialisation (~0.2 s of this thread) and the first check() of a process (~0.3 s, while z3 starts
 * its worker thread in another) are paid on a trivial query while the caller searches. Queued like any
 * job, so shutdownZ3() waits for it; never rejects. Does nothing once the session has been started.
 *
 * The returned promise settles once the trivial query has been handed to z3's thread. Awaiting it
 * matters: z3's initialisation runs on this thread only when it yields, so a caller that goes on with
 * synchronous work (sampling, encoding) would otherwise start z3 only at its next await, and then wait
 * for z3's thread as well. `timed`: the checks to come will carry a time limit (the user's
 * --timeout), for which z3 runs a timer thread: start that one too. Without it the query is bounded
 * by z3's work units, which need no thread.
 */
export function warmUpChecker(options: { readonly timed?: boolean } = {}): Promise<void> {
  return startChecker(options.timed ?? false).handedOver;
}

/** Settles once the checker's z3 session has started and answered its first check (starting both if
 * needed): what is measured after it is the checker's work, not z3's start-up. Never rejects. */
export function checkerWarm(): Promise<void> {
  return startChecker(false).done;
}

function startChecker(timed: boolean): { readonly handedOver: Promise<void>; readonly done: Promise<void> } {
  if (warming !== null && warming.z3 === currentZ3()) return warming;
  const z3 = currentZ3() ?? getZ3();
  let handOver: () => void = () => undefined;
  const handedOver = new Promise<void>((resolve) => (handOver = resolve));
  const done = withLiaSolver(async (solver) => {
    const x = solver.intSymbol();
    solver.assert(`(> ${x} 0)`);
    const check = solver.check(timed ? { timeoutMs: CHECKER_WARM_UP_TIMEOUT_MS } : { work: CHECKER_WARM_UP_WORK });
    // z3-solver hands the query to its thread a few promise turns later: after a full turn it has.
    setImmediate(handOver);
    await check;
  }).catch(() => undefined).finally(handOver);
  warming = { z3, handedOver, done };
  return warming;
}
let warming: { readonly z3: Promise<Z3Api>; readonly handedOver: Promise<void>; readonly done: Promise<void> } | null = null;

export type CheckStatus = 'sat' | 'unsat' | 'unknown';

export interface CheckOutcome {
  readonly status: CheckStatus;
  /** For 'unknown': why (time limit, z3's own reason, or the error z3 raised). */
  readonly reason?: string;
  readonly millis: number;
  /** z3's resource units the check consumed (counted only when CheckLimits.work is given, else 0). */
  readonly work: number;
}

export interface CheckLimits {
  /** Give up after this many milliseconds: the answer is 'unknown' with a reason saying timeout.
   * Only the user's --timeout should reach here: it is the one limit that depends on the machine. */
  readonly timeoutMs?: number;
  /**
   * Give up after this many of z3's resource units (its `rlimit`: a count of internal steps, the same
   * on an idle or a busy machine), answering 'unknown' with a reason saying so. Searches bound their
   * checks by work, so that their answers do not depend on the machine's load (lib/limits.ts).
   */
  readonly work?: number;
}

/** Values of a satisfying assignment; symbols z3 left out are don't-cares and read as 0 / false. */
export interface LiaModel {
  int(symbol: string): bigint;
  bool(symbol: string): boolean;
}

type Sort = 'Int' | 'Bool';

// solver.fromString copies its argument onto the WASM stack, and strings of ~20 MB crash it; send
// assertions in chunks well below that.
const MAX_CHUNK_CHARS = 1_000_000;

const NO_TIMEOUT = 0xffffffff;

/**
 * Collects assertions as text; each check() sends them (plus that check's goals) to a freshly reset
 * z3 solver. Checking from scratch instead of push/pop is deliberate: z3 in incremental mode skips
 * its preprocessing, and on large-block encodings (long if/else chains) that measured 5–30× slower.
 */
export class LiaSolver {
  private readonly sorts = new Map<string, Sort>();
  private readonly assertions: string[] = [];
  private next = 0;

  constructor(private readonly control: JobControl) {}

  /** The shared solver, or null once shutdownZ3() has interrupted this job (z3 is then left alone). */
  private get live(): Session | null {
    return this.control.interrupted ? null : this.control.session;
  }

  /** A fresh integer constant's SMT-LIB symbol. */
  intSymbol(): string {
    return this.fresh('i', 'Int');
  }

  /** A fresh boolean constant's SMT-LIB symbol. */
  boolSymbol(): string {
    return this.fresh('b', 'Bool');
  }

  private fresh(prefix: string, sort: Sort): string {
    const symbol = `${prefix}${this.next++}`;
    this.sorts.set(symbol, sort);
    return symbol;
  }

  /** Assert an SMT-LIB boolean term over symbols from intSymbol()/boolSymbol(), for every later check. */
  assert(term: string): void {
    this.assertions.push(term);
  }

  /** Load the assertions and `goals` into the (reset) solver, in chunks, each with its declarations. */
  private load(session: Session, goals: readonly string[]): void {
    session.solver.reset();
    const declared = new Set<string>(); // declarations persist across fromString calls until reset
    let chunk: string[] = [];
    let chars = 0;
    const send = (): void => {
      if (chunk.length === 0) return;
      const declarations: string[] = [];
      for (const token of chunk.join(' ').match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) {
        const sort = this.sorts.get(token);
        if (sort !== undefined && !declared.has(token)) {
          declared.add(token);
          declarations.push(`(declare-const ${token} ${sort})`);
        }
      }
      session.solver.fromString(`${declarations.join('\n')}\n${chunk.map((t) => `(assert ${t})`).join('\n')}`);
      chunk = [];
      chars = 0;
    };
    for (const term of [...this.assertions, ...goals]) {
      if (chars + term.length > MAX_CHUNK_CHARS) send();
      chunk.push(term);
      chars += term.length;
    }
    send();
  }

  /**
   * Satisfiability of the assertions together with `goals` (which hold for this check only), under
   * limits; z3 failures become 'unknown' with a reason instead of exceptions.
   */
  async check(limits: CheckLimits = {}, ...goals: string[]): Promise<CheckOutcome> {
    const started = Date.now();
    let work = 0;
    try {
      const session = this.live;
      if (session === null) return { status: 'unknown', reason: 'z3 was interrupted (shutting down)', millis: 0, work };
      this.load(session, goals);
      // z3's timeout is an unsigned 32-bit count of milliseconds; its maximum means no limit.
      // The solver is shared between jobs, so the parameter is compared with its current value.
      const timeout = limits.timeoutMs === undefined ? NO_TIMEOUT : Math.min(Math.max(1, Math.ceil(limits.timeoutMs)), NO_TIMEOUT - 1);
      if (timeout !== session.timeout) {
        session.solver.set('timeout', timeout);
        session.timeout = timeout;
      }
      // z3's rlimit counts from the check's start; 0 means no limit.
      const rlimit = limits.work === undefined ? 0 : Math.min(Math.max(1, Math.ceil(limits.work)), NO_TIMEOUT - 1);
      if (rlimit !== session.rlimit) {
        session.solver.set('rlimit', rlimit);
        session.rlimit = rlimit;
      }
      const before = limits.work === undefined ? 0 : resourceCount(session);
      const status = await session.solver.check();
      const millis = Date.now() - started;
      if (limits.work !== undefined) work = Math.max(0, resourceCount(session) - before);
      if (status !== 'unknown') return { status, millis, work };
      if (this.control.interrupted) return { status, reason: `z3 was interrupted (shutting down) after ${millis} ms`, millis, work };
      return { status, reason: describeUnknown(session.solver.reasonUnknown(), limits, millis, work), millis, work };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { status: 'unknown', reason: `z3 failed: ${message}`, millis: Date.now() - started, work };
    }
  }

  /** The model of the last 'sat' check. */
  model(): LiaModel {
    // A job interrupted after a 'sat' answer may still read its model: shutdownZ3() waits for the job.
    const session = this.control.session;
    if (session === null) throw new Error('LiaSolver.model() without a sat check');
    const model = session.solver.model();
    let text: string;
    try {
      text = model.sexpr();
    } finally {
      model.release();
    }
    return parseModel(text);
  }
}

/** z3's resource units spent so far by the session's context (they only grow). */
function resourceCount(session: Session): number {
  const statistics = session.solver.statistics();
  try {
    let count = 0;
    for (const entry of statistics) if (entry.key === 'rlimit count') count = entry.value;
    return count;
  } finally {
    (statistics as { release?: () => void }).release?.();
  }
}

function describeUnknown(z3Reason: string, limits: CheckLimits, millis: number, work: number): string {
  // An expired 'timeout' parameter shows as "timeout" or, when noticed while cancelling, "canceled";
  // an exhausted 'rlimit' as "max. resource limit exceeded" or "canceled"; ctx.interrupt()
  // (shutdownZ3) as "interrupted" or "canceled".
  if (/timeout|canceled/i.test(z3Reason) && limits.timeoutMs !== undefined && millis >= limits.timeoutMs) {
    return `timeout after ${limits.timeoutMs} ms`;
  }
  if (/resource|canceled/i.test(z3Reason) && limits.work !== undefined && work >= limits.work) {
    return `work limit reached (${limits.work} of z3's resource units)`;
  }
  if (/interrupt|cancel/i.test(z3Reason)) return `z3 was interrupted after ${millis} ms (${z3Reason})`;
  return `z3 answered unknown: ${z3Reason || 'no reason given'}`;
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
