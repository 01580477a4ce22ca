// Instantiates logic-solver's MiniSat (Emscripten asm.js) with a heap of our choosing. The package's
// minisat.js hard-codes `TOTAL_MEMORY = Module["TOTAL_MEMORY"] || 67108864` with a `Module` private
// to its closure, and a full heap aborts; so we evaluate the installed source with that default
// replaced (the dependency stays as installed, no vendored copy), and with a `console` of our own so
// its prints (it routes stdout/stderr through console.log) never reach the process's stdout.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runInThisContext } from 'node:vm';

const HEAP_DEFAULT_IN_SOURCE = 'TOTAL_MEMORY=Module["TOTAL_MEMORY"]||67108864';
const MiB = 1024 * 1024;

/** asm.js heaps above 16 MiB must be multiples of 16 MiB; pointers are signed 32-bit. */
export function assertValidHeapBytes(heapBytes: number): void {
  if (!Number.isInteger(heapBytes) || heapBytes < 16 * MiB || heapBytes % (16 * MiB) !== 0 || heapBytes >= 2048 * MiB) {
    throw new RangeError(`MiniSat heap must be a multiple of 16 MiB between 16 and 2032 MiB, got ${heapBytes} bytes`);
  }
}

/** The parts of the Emscripten module we use (see logic-solver's minisat_wrapper.js). */
export interface MinisatNative {
  HEAP32: Int32Array;
  HEAPU8: Uint8Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _createTheSolver(): void;
  _ensureVar(variable: number): void;
  /** Pointer to a 0-terminated int32 array of DIMACS-style signed literals; 0 once trivially unsat. */
  _addClause(pointer: number): number;
  /** Non-zero when satisfiable. */
  _solve(): number;
  _getNumVars(): number;
  /** Pointer to one byte per variable (variable v at offset v-1); 0 means true. */
  _getSolution(): number;
}

export type MinisatFactory = () => MinisatNative;

export function minisatSourcePath(): string {
  return createRequire(import.meta.url).resolve('logic-solver/minisat.js');
}

/**
 * Evaluates minisat.js with the given heap size. Every factory call creates an independent solver
 * environment with its own heap. Everything MiniSat prints goes to `onPrint` instead of a console.
 */
export function loadMinisat(heapBytes: number, onPrint: (line: string) => void): MinisatFactory {
  assertValidHeapBytes(heapBytes);
  const path = minisatSourcePath();
  const source = readFileSync(path, 'utf8');
  const at = source.indexOf(HEAP_DEFAULT_IN_SOURCE);
  if (at < 0 || source.indexOf(HEAP_DEFAULT_IN_SOURCE, at + 1) >= 0) {
    throw new Error(`unexpected logic-solver build: cannot find the heap size default in ${path}`);
  }
  const patched = source.replace(HEAP_DEFAULT_IN_SOURCE, `TOTAL_MEMORY=${heapBytes}`);
  const silentConsole = {
    log: (...parts: unknown[]) => onPrint(parts.map(String).join(' ')),
  };
  // `module` is shadowed so the source's trailing `module.exports = C_MINISAT` is inert.
  const wrapped = `(function (console, module) {\n${patched}\nreturn C_MINISAT;\n})`;
  const evaluate = runInThisContext(wrapped, { filename: path }) as (
    console: unknown,
    module: undefined,
  ) => MinisatFactory;
  return evaluate(silentConsole, undefined);
}
