// Instantiates logic-solver's MiniSat (Emscripten asm.js) with a heap of our choosing. The package's
// minisat.js hard-codes `TOTAL_MEMORY = Module["TOTAL_MEMORY"] || 67108864` with a `Module` private
// to its closure, and a full heap aborts; so we evaluate the installed source with that default
// replaced (the dependency stays as installed, no vendored copy), and with a `console` of our own so
// its prints (it routes stdout/stderr through console.log) never reach the process's stdout.
//
// Work budgets: MiniSat 2.2 has two (`Solver::conflict_budget` and `propagation_budget`, checked in
// its search loop, the same counts on any machine), but logic-solver's `solve()` wrapper calls
// `budgetOff()` first and exposes no setter. The evaluated source drops that one reset (in the
// exported `_solve`), and the budgets are written into the solver object before each solve. Two,
// because conflicts alone do not bound the time: on a step of 7 million clauses 50,000 conflicts took
// 100 s, on one of 400,000 clauses 3 s; propagations grow with the clauses each conflict visits. A
// solve that runs out returns MiniSat's l_Undef, which `_solve` reports as false like unsat; the two
// are told apart by the solver's `ok` flag, which only a proof of unsatisfiability clears
// (`addClause` returns it). Both source edits must match exactly once, or loading fails with
// "unexpected logic-solver build" (package-lock.json pins the version).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runInThisContext } from 'node:vm';

const HEAP_DEFAULT_IN_SOURCE = 'TOTAL_MEMORY=Module["TOTAL_MEMORY"]||67108864';
/** The exported `_solve` (emitted as a short function): load the solver pointer from its static
 * slot, then `budgetOff()` writes -1 to conflict_budget (two int32 halves) and propagation_budget. */
const SOLVE_BUDGET_OFF = /(function \w+\(\)\{var b=0,d=0,e=0,f=0;d=i;i=i\+16\|0;b=d;e=c\[(\d+)\]\|0;f=e\+(\d+)\|0;)c\[f\+0>>2\]=-1;c\[f\+4>>2\]=-1;c\[f\+8>>2\]=-1;c\[f\+12>>2\]=-1;/g;
/** Byte offsets of `Solver::propagations` and `Solver::conflicts` (uint64) in this build's solver
 * object: the statistics block (`solves, starts, decisions, rnd_decisions, propagations, conflicts`).
 * The budgets' tests check each is at its budget (or just past it) when that budget runs out. */
const PROPAGATIONS_OFFSET = 184;
const CONFLICTS_OFFSET = 192;
const MiB = 1024 * 1024;

/** asm.js heaps above 16 MiB must be multiples of 16 MiB; pointers are signed 32-bit. */
export function assertValidHeapBytes(heapBytes: number): void {
  if (!Number.isInteger(heapBytes) || heapBytes < 16 * MiB || heapBytes % (16 * MiB) !== 0 || heapBytes >= 2048 * MiB) {
    throw new RangeError(`MiniSat heap must be a multiple of 16 MiB between 16 and 2032 MiB, got ${heapBytes} bytes`);
  }
}

/** The parts of the Emscripten module we use (see logic-solver's minisat_wrapper.js). */
export interface MinisatNative {
  HEAP8: Int8Array;
  HEAP32: Int32Array;
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _createTheSolver(): void;
  _ensureVar(variable: number): void;
  /** Pointer to a 0-terminated int32 array of DIMACS-style signed literals; 0 once trivially unsat. */
  _addClause(pointer: number): number;
  /** Non-zero when satisfiable; 0 when unsatisfiable or a budget ran out. */
  _solve(): number;
  /** The same under the assumption that `variable` is true. */
  _solveAssuming(variable: number): number;
  /** The variable is no longer decided on (its clauses are settled for good). */
  _retireVar(variable: number): void;
  _getNumVars(): number;
  /** Pointer to one byte per variable (variable v at offset v-1); 0 means true. */
  _getSolution(): number;
}

export type MinisatFactory = () => MinisatNative;

/** Where the budgets and counters of the (one) solver of a MiniSat environment live. */
export interface SolverLayout {
  /** Heap address of the static slot holding the solver object's address. */
  readonly solverSlot: number;
  /** Byte offset of `conflict_budget` (int64; -1 means none) in the solver object;
   * `propagation_budget` follows it. */
  readonly conflictBudgetOffset: number;
  readonly conflictsOffset: number;
  readonly propagationsOffset: number;
}

/** Work limits of one solve (null: none). */
export interface MinisatBudget {
  readonly conflicts: number | null;
  readonly propagations: number | null;
}

/** Work one solve (or all solves of an environment) did. */
export interface MinisatWork {
  readonly conflicts: number;
  readonly propagations: number;
}

export interface LoadedMinisat {
  readonly create: MinisatFactory;
  readonly layout: SolverLayout;
}

/** Sets the budgets of the environment's solver for its next `_solve`. */
export function setBudget(native: MinisatNative, layout: SolverLayout, budget: MinisatBudget): void {
  const solver = native.HEAP32[layout.solverSlot >> 2]!;
  writeInt64(native, solver + layout.conflictBudgetOffset, budget.conflicts, 'conflict');
  writeInt64(native, solver + layout.conflictBudgetOffset + 8, budget.propagations, 'propagation');
}

function writeInt64(native: MinisatNative, address: number, value: number | null, what: string): void {
  const at = address >> 2;
  if (value === null) {
    native.HEAP32[at] = -1;
    native.HEAP32[at + 1] = -1;
    return;
  }
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what} budget must be a non-negative integer, got ${value}`);
  native.HEAP32[at] = value % 2 ** 32 | 0;
  native.HEAP32[at + 1] = Math.floor(value / 2 ** 32);
}

/** Conflicts and propagations the environment's solver has done so far (all its solves). */
export function workSoFar(native: MinisatNative, layout: SolverLayout): MinisatWork {
  const solver = native.HEAP32[layout.solverSlot >> 2]!;
  return { conflicts: readUint64(native, solver + layout.conflictsOffset), propagations: readUint64(native, solver + layout.propagationsOffset) };
}

function readUint64(native: MinisatNative, address: number): number {
  const at = address >> 2;
  return (native.HEAP32[at]! >>> 0) + (native.HEAP32[at + 1]! >>> 0) * 2 ** 32;
}

/** After `_solve` returned 0: true when that was a proof of unsatisfiability (MiniSat's `ok` is
 * false), false when a budget ran out. Adds the tautology (1 ∨ ¬1), which changes nothing. */
export function provedUnsat(native: MinisatNative): boolean {
  const clause = native._malloc(3 * Int32Array.BYTES_PER_ELEMENT);
  native.HEAP32.set([1, -1, 0], clause >> 2);
  const ok = native._addClause(clause);
  native._free(clause);
  return ok === 0;
}

export function minisatSourcePath(): string {
  return createRequire(import.meta.url).resolve('logic-solver/minisat.js');
}

/**
 * Evaluates minisat.js with the given heap size. Every factory call creates an independent solver
 * environment with its own heap. Everything MiniSat prints goes to `onPrint` instead of a console.
 */
export function loadMinisat(heapBytes: number, onPrint: (line: string) => void): LoadedMinisat {
  assertValidHeapBytes(heapBytes);
  const path = minisatSourcePath();
  const source = readFileSync(path, 'utf8');
  const at = source.indexOf(HEAP_DEFAULT_IN_SOURCE);
  if (at < 0 || source.indexOf(HEAP_DEFAULT_IN_SOURCE, at + 1) >= 0) {
    throw new Error(`unexpected logic-solver build: cannot find the heap size default in ${path}`);
  }
  const budgetOff = [...source.matchAll(SOLVE_BUDGET_OFF)];
  if (budgetOff.length !== 1) {
    throw new Error(`unexpected logic-solver build: cannot find the budget reset of solve() in ${path}`);
  }
  const layout: SolverLayout = {
    solverSlot: Number(budgetOff[0]![2]) * Int32Array.BYTES_PER_ELEMENT,
    conflictBudgetOffset: Number(budgetOff[0]![3]),
    conflictsOffset: CONFLICTS_OFFSET,
    propagationsOffset: PROPAGATIONS_OFFSET,
  };
  const patched = source
    .replace(HEAP_DEFAULT_IN_SOURCE, `TOTAL_MEMORY=${heapBytes}`)
    .replace(SOLVE_BUDGET_OFF, '$1');
  const silentConsole = {
    log: (...parts: unknown[]) => onPrint(parts.map(String).join(' ')),
  };
  // `module` is shadowed so the source's trailing `module.exports = C_MINISAT` is inert.
  const wrapped = `(function (console, module) {\n${patched}\nreturn C_MINISAT;\n})`;
  const evaluate = runInThisContext(wrapped, { filename: path }) as (
    console: unknown,
    module: undefined,
  ) => MinisatFactory;
  return { create: evaluate(silentConsole, undefined), layout };
}
