// z3-solver (WASM) as a SAT back end, fed the CNF as DIMACS. Slower than MiniSat on most instances
// (see /work/shared/notes/sat-backends.md) but an independent second opinion. Inputs above ~5 MB go
// through z3's in-memory file system: fromString copies its argument onto the WASM stack and
// crashes on strings of ~20 MB.
import type { Context, Solver, Z3_lbool, Z3_symbol_kind } from 'z3-solver';
import { dimacsChunks } from './dimacs.js';
import {
  assertWellFormedCnf,
  CANCELLED_REASON,
  checkedSat,
  conflictLimitReason,
  timeoutReason,
  trivialAnswer,
  unknownResult,
  unsatResult,
} from './cnf-check.js';
import type { Cnf, SatBackend, SatResult, SolveOptions } from './types.js';
import { getZ3, trackZ3Work, type Z3Api } from './z3-context.js';

export const Z3_STRING_INPUT_LIMIT = 5 * 1024 * 1024;
export const Z3_SHUT_DOWN_REASON = 'z3 was shut down';

const CONTEXT_NAME = 'farkas-sat';
type SatContext = Context<typeof CONTEXT_NAME>;
type SatSolver = Solver<typeof CONTEXT_NAME>;

// One context for all SAT solves, since z3 contexts are never freed. But an interrupt is sticky: a
// context interrupted while idle (e.g. a timer firing just as check() returns) answers 'canceled'
// to every later call. So an interrupted context is replaced. Solves run one at a time, so an
// interrupt can only hit the solve that asked for it.
class SatContextHolder {
  private interrupted = false;
  constructor(
    readonly api: Z3Api,
    readonly ctx: SatContext,
  ) {}

  get usable(): boolean {
    return !this.interrupted;
  }

  interrupt(): void {
    this.interrupted = true;
    this.ctx.interrupt();
  }
}

let shared: SatContextHolder | null = null;
let queue: Promise<unknown> = Promise.resolve();
let fileCounter = 0;

function satContext(api: Z3Api): SatContextHolder {
  if (shared?.api !== api || !shared.usable) shared = new SatContextHolder(api, new api.Context(CONTEXT_NAME));
  return shared;
}

function runExclusive<T>(task: () => Promise<T>): Promise<T> {
  const result = queue.then(task, task);
  queue = result.catch(() => undefined);
  return result;
}

export interface Z3BackendOptions {
  /** DIMACS texts longer than this many characters go through z3's in-memory file system. */
  readonly stringInputLimit?: number;
}

export class Z3Backend implements SatBackend {
  readonly name = 'z3';
  private readonly stringInputLimit: number;

  constructor(options: Z3BackendOptions = {}) {
    this.stringInputLimit = options.stringInputLimit ?? Z3_STRING_INPUT_LIMIT;
  }

  async solve(cnf: Cnf, options: SolveOptions = {}): Promise<SatResult> {
    const startedAt = performance.now();
    assertWellFormedCnf(cnf);
    const trivial = trivialAnswer(cnf, this.name, startedAt);
    if (trivial) return trivial;
    let api: Z3Api;
    try {
      api = await getZ3();
    } catch (error) {
      return unknownResult(`z3 could not start: ${messageOf(error)}`, this.name, startedAt);
    }
    // Registered as a whole, so shutdownZ3() also stops a solve that has not reached check() yet.
    const shutdown = new AbortController();
    let holder: SatContextHolder | null = null;
    const solving = runExclusive(() => {
      holder = satContext(api);
      return this.solveExclusively(holder, cnf, options, startedAt, shutdown.signal);
    });
    return trackZ3Work(solving, () => {
      shutdown.abort();
      holder?.interrupt();
    });
  }

  private async solveExclusively(
    holder: SatContextHolder,
    cnf: Cnf,
    options: SolveOptions,
    startedAt: number,
    shutdown: AbortSignal,
  ): Promise<SatResult> {
    const stopReason = (): string | null => {
      if (shutdown.aborted) return Z3_SHUT_DOWN_REASON;
      if (options.signal?.aborted) return CANCELLED_REASON;
      if (options.timeLimitMs !== undefined && performance.now() - startedAt >= options.timeLimitMs) {
        return timeoutReason(options.timeLimitMs);
      }
      return null;
    };
    const early = stopReason() ?? (options.conflicts === 0 ? conflictLimitReason(0) : null);
    if (early) return unknownResult(early, this.name, startedAt);

    const { api, ctx } = holder;
    let solver: SatSolver | null = null;
    // An interrupt that reaches z3 before check() has really started in its thread is lost, so once
    // asked to stop we keep interrupting until check() returns.
    let repeater: ReturnType<typeof setInterval> | undefined;
    const interrupt = () => {
      holder.interrupt();
      repeater ??= setInterval(() => holder.interrupt(), 50);
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      solver = new ctx.Solver();
      loadDimacs(api, solver, cnf, this.stringInputLimit);
      const afterLoad = stopReason();
      if (afterLoad) return unknownResult(afterLoad, this.name, startedAt);
      if (options.timeLimitMs !== undefined) {
        const remaining = Math.max(1, Math.ceil(options.timeLimitMs - (performance.now() - startedAt)));
        solver.set('timeout', remaining);
        // Backstop in case z3 overruns its own limit (e.g. in preprocessing).
        timer = setTimeout(interrupt, remaining + 50);
      }
      // z3's SAT core counts conflicts against 'max_conflicts' and answers unknown ("sat.max.conflicts").
      if (options.conflicts !== undefined) solver.set('max_conflicts', Math.min(options.conflicts, 2 ** 31 - 1));
      options.signal?.addEventListener('abort', interrupt);
      if (options.signal?.aborted) interrupt();
      const status = await solver.check();
      const conflicts = satConflicts(solver);
      const work = conflicts === undefined ? {} : { conflicts };
      if (status === 'unsat') return { ...unsatResult(this.name, startedAt), ...work };
      if (status === 'unknown') {
        const said = solver.reasonUnknown();
        const ownTimeout = said === 'timeout' && options.timeLimitMs !== undefined ? timeoutReason(options.timeLimitMs) : null;
        const ownBudget = /max\.conflicts/.test(said) && options.conflicts !== undefined ? conflictLimitReason(options.conflicts) : null;
        return { ...unknownResult(stopReason() ?? ownTimeout ?? ownBudget ?? `z3: ${said}`, this.name, startedAt), ...work };
      }
      return { ...checkedSat(cnf, readModel(api, ctx, solver, cnf.numVars), this.name, startedAt), ...work };
    } catch (error) {
      // An interrupted z3 call may throw ('canceled') instead of answering unknown.
      return unknownResult(stopReason() ?? `z3 failed: ${messageOf(error)}`, this.name, startedAt);
    } finally {
      clearTimeout(timer);
      clearInterval(repeater);
      options.signal?.removeEventListener('abort', interrupt);
      solver?.release();
    }
  }
}

/** The 'sat conflicts' statistic of the last check, when z3 reports it. */
function satConflicts(solver: SatSolver): number | undefined {
  for (const entry of solver.statistics()) if (entry.key === 'sat conflicts') return Number(entry.value);
  return undefined;
}

function loadDimacs(api: Z3Api, solver: SatSolver, cnf: Cnf, stringInputLimit: number): void {
  let text = '';
  let file: { readonly path: string; readonly stream: unknown } | null = null;
  const { FS } = api.em;
  const encoder = new TextEncoder();
  try {
    for (const chunk of dimacsChunks(cnf)) {
      if (!file && text.length + chunk.length <= stringInputLimit) {
        text += chunk;
        continue;
      }
      if (!file) {
        // The .cnf extension makes z3's fromFile parse DIMACS.
        const path = `/farkas-sat-${process.pid}-${fileCounter++}.cnf`;
        file = { path, stream: FS.open(path, 'w') };
        writeToZ3File(FS, file.stream, encoder.encode(text));
        text = '';
      }
      writeToZ3File(FS, file.stream, encoder.encode(chunk));
    }
    if (!file) {
      solver.fromString(text);
      return;
    }
    FS.close(file.stream);
    solver.fromFile(file.path);
  } finally {
    if (file) FS.unlink(file.path);
  }
}

// The Emscripten FS is untyped.
function writeToZ3File(FS: any, stream: unknown, bytes: Uint8Array): void {
  FS.write(stream, bytes, 0, bytes.length);
}

// Values of z3's Z3_lbool / Z3_symbol_kind enums; the module is loaded lazily, so no value import.
const Z3_L_TRUE: Z3_lbool.Z3_L_TRUE = 1;
const Z3_INT_SYMBOL: Z3_symbol_kind.Z3_INT_SYMBOL = 0;

/**
 * Reads variable values through the low-level API: the high-level model.get() per variable took
 * ~4 s for 100k variables. DIMACS variable v is the constant named by the integer symbol v.
 */
function readModel(api: Z3Api, ctx: SatContext, solver: SatSolver, numVars: number): boolean[] {
  const { Z3 } = api;
  const model = solver.model();
  try {
    // Variables z3 does not mention are unconstrained; false is as good as any value.
    const values = new Array<boolean>(numVars + 1).fill(false);
    const count = Z3.model_get_num_consts(ctx.ptr, model.ptr);
    for (let i = 0; i < count; i++) {
      const decl = Z3.model_get_const_decl(ctx.ptr, model.ptr, i);
      const symbol = Z3.get_decl_name(ctx.ptr, decl);
      if (Z3.get_symbol_kind(ctx.ptr, symbol) !== Z3_INT_SYMBOL) continue;
      const variable = Z3.get_symbol_int(ctx.ptr, symbol);
      if (variable < 1 || variable > numVars) continue;
      const value = Z3.model_get_const_interp(ctx.ptr, model.ptr, decl);
      values[variable] = value !== null && Z3.get_bool_value(ctx.ptr, value) === Z3_L_TRUE;
    }
    return values;
  } finally {
    model.release();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
