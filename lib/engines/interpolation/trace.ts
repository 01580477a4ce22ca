// Trace formulas of paths through the engine model in SSA form (variable `x` at version k is
// `x@k`; '@' cannot occur in C names), and concrete counterexamples from their models: the
// inputs and the nondet stream in the interpreter's order, replayed on the original program.
import type { CheckLimits } from '../../certify/lia-solver.js';
import * as F from '../../ir/formula.js';
import * as L from '../../ir/linear.js';
import { renameAtom, type Atom } from '../../rational/constraints.js';
import { isSatisfiable } from '../../certify/lia.js';
import { runProgram } from '../../interpreter/index.js';
import { replayed } from '../../guard/replay.js';
import type { Counterexample } from '../../result.js';
import type { EngineModel, Transition } from './model.js';

export const ssaName = (v: string, version: number): string => `${v}@${version}`;
export const programName = (ssa: string): string => ssa.slice(0, ssa.lastIndexOf('@'));

export interface TraceFormula {
  /** groups[0]: the precondition; groups[i]: the i-th transition's guard and update. */
  readonly groups: Atom[][];
  /** SSA variable written by each havoc, by position in the path (1-based like groups). */
  readonly havocs: ReadonlyMap<number, string>;
}

export function traceFormula(model: EngineModel, path: readonly Transition[]): TraceFormula {
  const version = new Map<string, number>();
  const current = (v: string): string => ssaName(v, version.get(v) ?? 0);
  const groups: Atom[][] = [model.precondition.map((a) => renameAtom(a, current))];
  const havocs = new Map<number, string>();
  path.forEach((t, i) => {
    const group = t.guard.map((a) => renameAtom(a, current));
    if (t.update) {
      const expr = t.update.kind === 'assign' ? L.rename(t.update.expr, current) : null;
      version.set(t.update.target, (version.get(t.update.target) ?? 0) + 1);
      const target = current(t.update.target);
      if (expr) group.push({ rel: '==', expr: L.sub(L.variable(target), expr) });
      else havocs.set(i + 1, target);
    }
    groups.push(group);
  });
  return { groups, havocs };
}

/** Renames an interpolant over SSA variables back to program variables. */
export function fromSsa(f: F.Formula): F.Formula {
  return F.mapAtoms(f, (rel, e) => {
    const r = L.rename(e, programName);
    return rel === '>=' ? F.geqZero(r) : F.eqZero(r);
  });
}

export type CounterexampleOutcome =
  | { readonly kind: 'counterexample'; readonly counterexample: Counterexample }
  | { readonly kind: 'infeasible' }
  | { readonly kind: 'unknown'; readonly reason: string };

/**
 * Looks for integer values that drive the program along `path` (ending in a failing assert) and
 * replays them on the original program; only a replayed failure is a counterexample.
 */
export async function concretize(model: EngineModel, path: readonly Transition[], limits: CheckLimits): Promise<CounterexampleOutcome> {
  const { groups, havocs } = traceFormula(model, path);
  // Real runs keep nondet values of typed nondet calls within their C range; so must the model.
  const ranges: F.Formula[] = [];
  path.forEach((t, i) => {
    const s = t.edge.stmt;
    const target = havocs.get(i + 1);
    if (s.kind === 'havoc' && s.range && target) {
      const x = L.variable(target);
      ranges.push(F.geqZero(L.sub(x, L.constant(s.range.lo))), F.geqZero(L.sub(L.constant(s.range.hi), x)));
    }
  });
  const formula = F.and(...groups.flat().map((a) => (a.rel === '>=' ? F.geqZero(a.expr) : F.eqZero(a.expr))), ...ranges);
  const sat = await isSatisfiable(formula, limits);
  if (sat.status === 'unsat') return { kind: 'infeasible' };
  if (sat.status === 'unknown') return { kind: 'unknown', reason: `path feasibility: ${sat.reason ?? 'z3 gave no answer'}` };
  const value = (ssa: string): bigint => sat.model!.get(ssa) ?? 0n;
  const inputs = new Map(model.proc.params.map((p) => [p, value(ssaName(p, 0))] as const));
  const nondet: bigint[] = [];
  path.forEach((t, i) => {
    if (model.proc.locations[t.from]?.choice) {
      const smaller = Math.min(...model.proc.edges.filter((e) => e.from === t.from).map((e) => e.id));
      nondet.push(t.edge.id === smaller ? 1n : 0n);
    }
    const target = havocs.get(i + 1);
    // A ghost's value is computed by the interpreter, not read from the stream.
    if (target !== undefined && !(t.edge.stmt.kind === 'havoc' && t.edge.stmt.ghost)) {
      const s = t.edge.stmt;
      let v = value(target);
      if (s.kind === 'havoc' && s.range && !sat.model!.has(target)) v = v < s.range.lo ? s.range.lo : v > s.range.hi ? s.range.hi : v;
      nondet.push(v);
    }
  });
  const run = runProgram(model.original, { entry: model.function, inputs, nondet, nondetDefault: 0n, maxSteps: path.length * 4 + 10_000 });
  const counterexample = run.outcome.kind === 'assertion-failed' ? replayed(model.original, model.function, run) : null;
  if (counterexample === null) {
    return { kind: 'unknown', reason: `a feasible error path did not replay on the interpreter (outcome: ${run.outcome.kind})` };
  }
  return { kind: 'counterexample', counterexample };
}
