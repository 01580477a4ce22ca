// Faults injected on purpose into the transformations, for the tests of the claim guard only (issue
// 19): into inlining, the first transformation every analysis applies (cut-sets, ghosts and
// instrumentation come after it), or into the counter instrumentation. A test marks the program it
// analyses with one (withFaultForTests); samples, search and certificate then all see a wrongly
// built procedure, while runs of the original program do not, and the test shows that the guard
// stops the claim. A program without the mark (every program but a test's) has none.
import * as F from './formula.js';
import * as L from './linear.js';
import type { Procedure, Program } from './cfg.js';

export type TransformationFault = NonNullable<Program['faultForTests']>;
// 'assertions-dropped' (inlining): every assertion of the analysed procedure is dropped, and any
// program looks safe. 'constant-shifted' (inlining): the first assignment of a constant gets that
// constant plus one. 'outer-increment-dropped' (the counter instrumentation, lib/conditions/counters.ts):
// the bug of issue 19 put back: an edge that enters an inner loop and the outer loop's body at once
// keeps only the inner reset and drops the outer increment, and the outer loop is certified "at most
// 0 iterations".

export const TRANSFORMATION_FAULTS: readonly TransformationFault[] = ['assertions-dropped', 'constant-shifted', 'outer-increment-dropped'];

/** `program` marked with `fault`: its preparation (inlining, the counters) applies the fault, and so
 * does that of every program transformed from it (they are copies that keep the mark). */
export function withFaultForTests(program: Program, fault: TransformationFault): Program {
  return { ...program, faultForTests: fault };
}

/** The analysed procedure of `program` as its fault breaks it (itself when it has none). */
export function faultyForTests(program: Program, proc: Procedure): Procedure {
  const fault = program.faultForTests;
  if (fault === undefined || fault === 'outer-increment-dropped') return proc;
  if (fault === 'assertions-dropped') {
    return { ...proc, edges: proc.edges.map((e) => (e.stmt.kind === 'assert' ? { ...e, stmt: { kind: 'assume' as const, cond: F.TRUE } } : e)) };
  }
  const first = proc.edges.find((e) => e.stmt.kind === 'assign' && L.isConstant(e.stmt.expr));
  if (!first || first.stmt.kind !== 'assign') return proc;
  const shifted = { ...first, stmt: { ...first.stmt, expr: L.addConstant(first.stmt.expr, 1n) } };
  return { ...proc, edges: proc.edges.map((e) => (e === first ? shifted : e)) };
}
