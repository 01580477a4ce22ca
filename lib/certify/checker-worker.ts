// Worker thread entry: the certificate checker's z3, off the main thread.
//
// Why a thread of its own: starting z3 costs ~0.4 s (loading its JavaScript, compiling and
// instantiating its WASM, creating a context), and on the main thread it could only overlap with the
// search where the search awaited something. Here it runs beside sampling, encoding and SAT from the
// moment the client starts the thread.
//
// Checks are synchronous (z3's own Z3_solver_check, not z3-solver's async check()): the async one
// runs every check on a new Emscripten thread and resolves through several thread hops, ~12 ms per
// check even when the check itself is trivial (Houdini makes dozens), against ~4 ms. Blocking is
// harmless here: this thread does nothing else. While a check runs, this thread cannot take a
// message, so it is stopped by terminating it: by shutdownZ3, and by the client when a check's time
// limit passes (lia-solver.ts). The only limit z3 sees is its work count ('rlimit'). Its own
// 'timeout' would need a timer thread, an Emscripten thread that loads z3's JavaScript and WASM once
// more beside z3's start and costs every timed check a thread hop: ~10 % of a quick verify.
//
// The session (one context, one solver, reset before every check) and the SMT-LIB text protocol are
// those described in lia-solver.ts. Requests are served one at a time, in order.
import { parentPort } from 'node:worker_threads';
import type { Context } from 'z3-solver';
import { getZ3, type Z3Api } from '../sat/z3-context.js';
import { declarationsFor, describeUnknown, PREPROCESSING_TACTICS, rlimitFor, type CheckOutcome, type CheckReply, type CheckRequest, type Sort } from './checker-protocol.js';

type LiaContext = Context<'lia'>;
type Z3Solver = InstanceType<LiaContext['Solver']>;

interface Session {
  readonly z3: Z3Api;
  readonly ctx: LiaContext;
  readonly plain: Slot;
  /** For the checks that ask for preprocessing (CheckLimits.preprocess), made on first use. */
  preprocessing: Slot | null;
}

interface Slot {
  readonly solver: Z3Solver;
  /** The solver's current 'rlimit' parameter (each solver.set leaks a small params object, so set
   * only changes). */
  rlimit: number;
}

// Started at once: the client starts this thread when a check is likely soon. Checks run on this
// thread, and z3 needs no thread of its own.
const z3api = getZ3({ prestartThread: false });

function newSession(z3: Z3Api): Session {
  const ctx = new z3.Context('lia');
  // z3's SMT core itself (the 'smt' tactic), not its default solver: for an integer problem whose
  // variables are all bounded (every C-typed variable is, unsigned ones by 0..2^32-1) the default
  // picks QF_LIA's strategy, which tries bit-blasting and MIP tactics first, some under time limits
  // of their own (try_for), so a trivial check took 50,000 resource units and 0.2 s instead of
  // 1,000 and 5 ms. Over the checks of 14 SV-COMP tasks the same answers in 0.5–0.7 of the time.
  return { z3, ctx, plain: { solver: new ctx.Tactic('smt').solver(), rlimit: 0 }, preprocessing: null };
}

/** The solver for a check: the SMT core, or with preprocessing the same after PREPROCESSING_TACTICS. */
function slotFor(s: Session, preprocess: boolean | undefined): Slot {
  if (!preprocess) return s.plain;
  const [first, second, ...rest] = PREPROCESSING_TACTICS;
  s.preprocessing ??= { solver: s.ctx.AndThen(first, second, ...rest).solver(), rlimit: 0 };
  return s.preprocessing;
}

// One context for the jobs in turn (a new one costs ~5 ms); a job that asks for it gets its own
// (CheckRequest.fresh). The one left behind is freed by z3-solver's finalizers.
let session: Promise<Session> = z3api.then(newSession);
session.catch(() => undefined); // reported by each check that needs it

// solver.fromString copies its argument onto the WASM stack, and strings of ~20 MB crash it; send
// assertions in chunks well below that.
const MAX_CHUNK_CHARS = 1_000_000;

/** The current job's symbols and assertions. */
let job = -1;
const sorts = new Map<string, Sort>();
const assertions: string[] = [];

let queue: Promise<void> = Promise.resolve();

parentPort!.on('message', (request: CheckRequest) => {
  queue = queue.then(async () => parentPort!.postMessage(await serve(request)));
});

async function serve(request: CheckRequest): Promise<CheckReply> {
  if (request.job !== job) {
    job = request.job;
    sorts.clear();
    assertions.length = 0;
    if (request.fresh) {
      session = z3api.then(newSession);
      session.catch(() => undefined);
    }
  }
  for (const [symbol, sort] of request.symbols) sorts.set(symbol, sort);
  // Not push(...): a region's encoding can hold more assertions than a call takes arguments.
  for (const term of request.assertions) assertions.push(term);
  const started = Date.now();
  let work = 0;
  try {
    const s = await session;
    const slot = slotFor(s, request.limits.preprocess);
    load(slot, request.goals);
    setLimits(slot, request.limits);
    const before = request.limits.work === undefined ? 0 : resourceCount(slot);
    const status = checkNow(s, slot);
    const millis = Date.now() - started;
    if (request.limits.work !== undefined) work = Math.max(0, resourceCount(slot) - before);
    if (status === 'sat') return reply(request, { status, millis, work }, modelText(slot));
    if (status === 'unsat') return reply(request, { status, millis, work });
    return reply(request, { status, reason: describeUnknown(slot.solver.reasonUnknown(), request.limits.work, millis, work), millis, work });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return reply(request, { status: 'unknown', reason: `z3 failed: ${message}`, millis: Date.now() - started, work });
  }
}

/** Z3_solver_check on this thread; a z3 error is thrown with its message. */
function checkNow(s: Session, slot: Slot): CheckOutcome['status'] {
  const result = (s.z3.em as { _Z3_solver_check(ctx: number, solver: number): number })._Z3_solver_check(s.ctx.ptr as unknown as number, slot.solver.ptr as unknown as number);
  const error = s.z3.Z3.get_error_code(s.ctx.ptr);
  if (error !== 0) throw new Error(s.z3.Z3.get_error_msg(s.ctx.ptr, error));
  return result === 1 ? 'sat' : result === -1 ? 'unsat' : 'unknown';
}

function reply(request: CheckRequest, outcome: CheckOutcome, model?: string): CheckReply {
  return { kind: 'checked', id: request.id, outcome, ...(model !== undefined ? { model } : {}) };
}

/** Load the job's assertions and `goals` into the (reset) solver, in chunks, each with its declarations. */
function load(s: Slot, goals: readonly string[]): void {
  s.solver.reset();
  const declared = new Set<string>(); // declarations persist across fromString calls until reset
  let chunk: string[] = [];
  let chars = 0;
  const send = (): void => {
    if (chunk.length === 0) return;
    const declarations = declarationsFor(chunk.join(' '), sorts, declared);
    s.solver.fromString(`${declarations.join('\n')}\n${chunk.map((t) => `(assert ${t})`).join('\n')}`);
    chunk = [];
    chars = 0;
  };
  for (const term of [...assertions, ...goals]) {
    if (chars + term.length > MAX_CHUNK_CHARS) send();
    chunk.push(term);
    chars += term.length;
  }
  send();
}

function setLimits(s: Slot, limits: CheckRequest['limits']): void {
  // z3's rlimit counts from the check's start; 0 means no limit.
  const rlimit = rlimitFor(limits.work);
  if (rlimit !== s.rlimit) {
    s.solver.set('rlimit', rlimit);
    s.rlimit = rlimit;
  }
}

function modelText(s: Slot): string {
  const model = s.solver.model();
  try {
    return model.sexpr();
  } finally {
    model.release();
  }
}

/** z3's resource units spent so far by the session's context (they only grow). */
function resourceCount(s: Slot): number {
  const statistics = s.solver.statistics();
  try {
    let count = 0;
    for (const entry of statistics) if (entry.key === 'rlimit count') count = entry.value;
    return count;
  } finally {
    (statistics as { release?: () => void }).release?.();
  }
}
