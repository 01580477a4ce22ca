// SAT back ends behind one interface. Specs: `auto` (default: the embedded MiniSat, raced on large
// instances by cadical or kissat when one is on PATH), `minisat` (the in-process asm.js MiniSat
// alone), `z3` (z3-solver WASM), `dimacs:CMD [ARGS…]` (an external solver executable).
import { InputError } from '../diagnostics.js';
import { ExternalBackend } from './external-backend.js';
import { MinisatBackend } from './minisat-backend.js';
import { installedExternalSolver, RacingBackend } from './racing-backend.js';
import { RACE_MAX_CLAUSES, RACE_MIN_CLAUSES } from '../limits.js';
import type { SatBackend } from './types.js';
import { Z3Backend } from './z3-backend.js';

export const DEFAULT_BACKEND_SPEC = 'auto';
export const BACKEND_SPECS_HELP = "'auto' (default: the embedded MiniSat, raced on large steps by cadical or kissat when on PATH), 'minisat' (embedded only), 'z3', or 'dimacs:CMD [ARGS]' (e.g. 'dimacs:cadical -q')";

export interface BackendOptions {
  /** MiniSat's heap in bytes (multiple of 16 MiB); default 1 GiB. */
  readonly minisatHeapBytes?: number;
}

/** Throws InputError for an unknown spec or a `dimacs:` command that is not found. */
export function createBackend(spec: string, options: BackendOptions = {}): SatBackend {
  const trimmed = spec.trim();
  if (trimmed === 'auto' || trimmed === 'minisat') {
    const embedded = new MinisatBackend({ heapBytes: options.minisatHeapBytes });
    const external = trimmed === 'auto' ? installedExternalSolver() : null;
    return external ? new RacingBackend(embedded, external, { min: RACE_MIN_CLAUSES, max: RACE_MAX_CLAUSES }) : embedded;
  }
  if (trimmed === 'z3') return new Z3Backend();
  if (trimmed.startsWith('dimacs:')) return new ExternalBackend(trimmed.slice('dimacs:'.length));
  throw new InputError('error', `unknown SAT back end '${spec}'; expected ${BACKEND_SPECS_HELP}`, null);
}

export type { Cnf, SatBackend, SatResult, SatStatus, SolveOptions } from './types.js';
export { parseDimacs, toDimacs, writeDimacsFile, dimacsChunks } from './dimacs.js';
export { satisfies, firstFalsifiedClause, INVALID_MODEL_REASON } from './cnf-check.js';
export { MinisatBackend, OUT_OF_MEMORY_REASON, DEFAULT_MINISAT_HEAP_BYTES } from './minisat-backend.js';
export { Z3Backend } from './z3-backend.js';
export { ExternalBackend, parseSolverOutput } from './external-backend.js';
export { RacingBackend, RACED_SOLVERS, installedExternalSolver } from './racing-backend.js';
export { getZ3, shutdownZ3, trackZ3Work } from './z3-context.js';
