// Worker thread entry: runs synchronous MiniSat solves off the main thread, so the main thread stays
// responsive and a timeout can simply terminate this thread. The asm.js source is compiled once per
// worker (~150 ms) and the worker is reused; every job gets a fresh solver with its own heap.
// Clauses go through MiniSat's raw numeric interface: one heap copy of the flat clause array, then
// `_addClause` per clause.
import { parentPort, workerData } from 'node:worker_threads';
import { loadMinisat, provedUnsat, setBudget, workSoFar, type LoadedMinisat } from './minisat-module.js';
import type { MinisatJob, MinisatReply, MinisatWorkerConfig } from './minisat-protocol.js';

const HEAP_ABORT_MESSAGE = 'Cannot enlarge memory arrays';
const config = workerData as MinisatWorkerConfig;

// MiniSat's own prints go to the capturing console given to loadMinisat; this keeps any other
// console output of this thread off the process's stdout too.
for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) console[method] = () => undefined;

let printedDuringJob: string[] = [];
let createSolver: LoadedMinisat | Error;
try {
  createSolver = loadMinisat(config.heapBytes, (line) => printedDuringJob.push(line));
} catch (error) {
  createSolver = error instanceof Error ? error : new Error(String(error));
}

type Native = ReturnType<LoadedMinisat['create']>;
/** The solver of the last job of a session (MinisatJob.session), kept for its next job. */
let kept: { readonly session: number; readonly native: Native } | null = null;

function solve(minisat: LoadedMinisat, job: MinisatJob, startedAt: number): MinisatReply {
  const reused = job.session !== undefined && kept?.session === job.session ? kept.native : null;
  kept = null;
  const native = reused ?? minisat.create();
  if (!reused) native._createTheSolver();
  if (job.session !== undefined) kept = { session: job.session, native };
  native._ensureVar(job.numVars);
  // A kept solver's counters go on from its earlier solves: this job's limits and work are relative.
  const before = reused ? workSoFar(native, minisat.layout) : { conflicts: 0, propagations: 0 };
  const done = () => {
    const total = workSoFar(native, minisat.layout);
    return { conflicts: total.conflicts - before.conflicts, propagations: total.propagations - before.propagations };
  };

  const { flatClauses } = job;
  const base = native._malloc(flatClauses.length * Int32Array.BYTES_PER_ELEMENT);
  if (base === 0) return { kind: 'out-of-memory', detail: 'no heap left for the clauses' };
  native.HEAP32.set(flatClauses, base >> 2);
  let clauseStart = 0;
  for (let i = 0; i < flatClauses.length; i++) {
    if (flatClauses[i] !== 0) continue;
    // false once MiniSat can already tell the clauses are unsatisfiable
    if (!native._addClause(base + clauseStart * Int32Array.BYTES_PER_ELEMENT)) return { kind: 'unsat', solveMillis: performance.now() - startedAt, work: done() };
    clauseStart = i + 1;
  }
  native._free(base);

  // MiniSat's budgets are totals of its counters.
  setBudget(native, minisat.layout, {
    conflicts: job.conflictLimit === undefined ? null : before.conflicts + job.conflictLimit,
    propagations: job.propagationLimit === undefined ? null : before.propagations + job.propagationLimit,
  });
  const satisfiable = native._solve() !== 0;
  const solveMillis = performance.now() - startedAt;
  const work = done();
  if (!satisfiable) return { kind: provedUnsat(native) ? 'unsat' : 'budget', solveMillis, work };
  const solution = native._getSolution();
  const assignment = new Uint8Array(job.numVars + 1);
  // MiniSat's lbool: 0 is l_True
  for (let v = 1; v <= job.numVars; v++) assignment[v] = native.HEAPU8[solution + v - 1] === 0 ? 1 : 0;
  return { kind: 'sat', assignment, solveMillis, work };
}

function describe(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

function run(job: MinisatJob): MinisatReply {
  const startedAt = performance.now();
  if (createSolver instanceof Error) return { kind: 'failed', detail: createSolver.message };
  printedDuringJob = [];
  try {
    return solve(createSolver, job, startedAt);
  } catch (thrown) {
    kept = null; // a solver that threw is not solved again
    // Emscripten's abort() prints the reason, then throws a string.
    const printed = printedDuringJob.join('\n');
    if (printed.includes(HEAP_ABORT_MESSAGE) || describe(thrown).includes(HEAP_ABORT_MESSAGE)) {
      return { kind: 'out-of-memory', detail: 'heap full' };
    }
    if (thrown instanceof RangeError && /allocat/i.test(thrown.message)) {
      return { kind: 'out-of-memory', detail: `could not allocate a ${config.heapBytes >> 20} MiB heap` };
    }
    const lastPrint = printedDuringJob.at(-1);
    return { kind: 'failed', detail: describe(thrown).split('\n')[0] + (lastPrint ? ` (${lastPrint})` : '') };
  } finally {
    printedDuringJob = [];
  }
}

parentPort!.on('message', (job: MinisatJob) => {
  const reply = run(job);
  parentPort!.postMessage(reply, reply.kind === 'sat' ? [reply.assignment.buffer as ArrayBuffer] : []);
});
