// Faults injected on purpose into the transformations, for the tests of the claim guard only (issue
// 19): into inlining, the first transformation every analysis applies (cut-sets, ghosts and
// instrumentation come after it), or into the counter instrumentation. With one active, samples,
// search and certificate all see a wrongly built procedure, and a test shows that the guard (runs of
// the original program) stops the claim. Nothing but a test activates one; the default is none.
import * as F from './formula.js';
import * as L from './linear.js';
import type { Procedure } from './cfg.js';

export type TransformationFault =
  /** Inlining: every assertion of the analysed procedure is dropped, and any program looks safe. */
  | 'assertions-dropped'
  /** Inlining: the first assignment of a constant gets that constant plus one. */
  | 'constant-shifted'
  /** Counter instrumentation (lib/infer/counters.ts), the bug of issue 19 put back: an edge that
   * enters an inner loop and the outer loop's body at once keeps only the inner reset and drops the
   * outer increment, and the outer loop is certified "at most 0 iterations". */
  | 'outer-increment-dropped';

export const TRANSFORMATION_FAULTS: readonly TransformationFault[] = ['assertions-dropped', 'constant-shifted', 'outer-increment-dropped'];

/** The environment can set one for a whole process (FARKAS_FAULT_FOR_TESTS), for the tests that check
 * the exit code and the message of the command-line tool; an unknown name activates none. */
const fromEnvironment = process.env['FARKAS_FAULT_FOR_TESTS'];
let active: TransformationFault | null = TRANSFORMATION_FAULTS.find((f) => f === fromEnvironment) ?? null;

/** The fault injected now, if any. */
export function faultForTests(): TransformationFault | null {
  return active;
}

/** Runs `body` with `fault` injected into the transformations (tests only; not re-entrant). */
export async function withFaultForTests<T>(fault: TransformationFault, body: () => Promise<T>): Promise<T> {
  const before = active;
  active = fault;
  try {
    return await body();
  } finally {
    active = before;
  }
}

/** The analysed procedure as the active fault breaks it (itself when none is active). */
export function faultyForTests(proc: Procedure): Procedure {
  if (active === null || active === 'outer-increment-dropped') return proc;
  if (active === 'assertions-dropped') {
    return { ...proc, edges: proc.edges.map((e) => (e.stmt.kind === 'assert' ? { ...e, stmt: { kind: 'assume' as const, cond: F.TRUE } } : e)) };
  }
  const first = proc.edges.find((e) => e.stmt.kind === 'assign' && L.isConstant(e.stmt.expr));
  if (!first || first.stmt.kind !== 'assign') return proc;
  const shifted = { ...first, stmt: { ...first.stmt, expr: L.addConstant(first.stmt.expr, 1n) } };
  return { ...proc, edges: proc.edges.map((e) => (e === first ? shifted : e)) };
}
