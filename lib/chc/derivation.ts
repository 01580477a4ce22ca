// unsat's certificate: a derivation of false, a sequence of clause instances with values, read off a
// failing run of the lowered clauses and then checked by evaluating the clauses as written.
import { runProgram } from '../interpreter/index.js';
import type { Counterexample } from '../result.js';
import { evaluate, EvaluationError, type ChcValue } from './evaluate.js';
import type { ChcProgram } from './lower.js';
import type { Clause, PredicateApp } from './system.js';
import { symbolText } from './sexpr.js';

export interface DerivationStep {
  /** 0-based index of the clause. */
  readonly clause: number;
  /** Every variable of the clause, with its value in this instance. */
  readonly values: ReadonlyMap<string, ChcValue>;
}

export interface Derivation {
  readonly steps: readonly DerivationStep[];
}

/** The derivation a counterexample of the lowered clauses stands for, or null when its replay does
 * not end in a query. */
export function derivationOf(chc: ChcProgram, cex: Counterexample, maxSteps: number): Derivation | null {
  const run = runProgram(chc.program, { inputs: cex.inputs, nondet: cex.nondet, nondetDefault: null, recordTrace: true, maxSteps });
  if (run.outcome.kind !== 'assertion-failed' || !run.trace) return null;
  const byLastEdge = new Map(chc.clauses.map((c) => [c.lastEdge, c]));
  const state = new Map<string, bigint>();
  const steps: DerivationStep[] = [];
  const snapshot = (edge: number): void => {
    const c = byLastEdge.get(edge);
    if (!c) return;
    const values = new Map<string, ChcValue>();
    for (const v of c.clause.vars) {
      const ir = c.vars.get(v.name);
      const n = ir === undefined ? 0n : (state.get(ir) ?? 0n);
      values.set(v.name, v.sort === 'Bool' ? n !== 0n : n);
    }
    steps.push({ clause: c.clause.index, values });
  };
  for (const step of run.trace) {
    if (step.kind !== 'edge') continue;
    // The clause's last edge: its variables hold the instance's values before the head's assignment.
    snapshot(step.edge);
    for (const [v, value] of step.values) state.set(v, value);
  }
  const failed = run.outcome.edge;
  if (steps.length === 0 || chc.clauses[steps[steps.length - 1]!.clause]!.lastEdge !== failed) snapshot(failed);
  return { steps };
}

export type DerivationCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Each instance's constraint holds, each of its body facts was derived by an earlier instance, and the
 * last instance is a query: false is derived. Works for trees of instances (nonlinear clauses) too. */
export function checkDerivation(clauses: readonly Clause[], derivation: Derivation): DerivationCheck {
  const derived = new Set<string>();
  const fact = (app: PredicateApp, values: ReadonlyMap<string, ChcValue>): string => `${app.predicate.name}(${app.args.map((a) => String(evaluate(a, values))).join(',')})`;
  if (derivation.steps.length === 0) return { ok: false, reason: 'the derivation is empty' };
  for (const [k, step] of derivation.steps.entries()) {
    const clause = clauses[step.clause];
    if (!clause) return { ok: false, reason: `step ${k + 1}: no clause ${step.clause + 1}` };
    try {
      for (const v of clause.vars) {
        const value = step.values.get(v.name);
        if (value === undefined || typeof value !== (v.sort === 'Int' ? 'bigint' : 'boolean')) return { ok: false, reason: `step ${k + 1}: no ${v.sort} value for ${v.name}` };
      }
      for (const c of clause.constraint) if (evaluate(c, step.values) !== true) return { ok: false, reason: `step ${k + 1}: the constraint of clause ${step.clause + 1} is false` };
      for (const app of clause.body) {
        const f = fact(app, step.values);
        if (!derived.has(f)) return { ok: false, reason: `step ${k + 1}: ${f} was not derived before` };
      }
      if (clause.head) derived.add(fact(clause.head, step.values));
      else if (k !== derivation.steps.length - 1) return { ok: false, reason: `step ${k + 1}: a query before the last step` };
    } catch (error) {
      if (error instanceof EvaluationError) return { ok: false, reason: `step ${k + 1}: ${error.message}` };
      throw error;
    }
  }
  const last = clauses[derivation.steps[derivation.steps.length - 1]!.clause]!;
  return last.head === null ? { ok: true } : { ok: false, reason: 'the last step does not derive false' };
}

function valueText(v: ChcValue): string {
  return typeof v === 'boolean' ? String(v) : v < 0n ? `(- ${-v})` : String(v);
}

/** One line per instance: `N. clause K (line L): (P 1 2) -> (Q 2 3)`. */
export function formatDerivation(clauses: readonly Clause[], derivation: Derivation): string {
  return derivation.steps.map((step, k) => {
    const clause = clauses[step.clause]!;
    const app = (a: PredicateApp): string => (a.args.length === 0 ? symbolText(a.predicate.name) : `(${symbolText(a.predicate.name)} ${a.args.map((x) => valueText(evaluate(x, step.values))).join(' ')})`);
    const body = clause.body.map(app);
    const head = clause.head ? app(clause.head) : 'false';
    return `${k + 1}. clause ${step.clause + 1} (line ${clause.pos.line}): ${body.length > 0 ? `${body.join(' ')} -> ` : ''}${head}`;
  }).join('\n');
}

export function derivationJson(derivation: Derivation): unknown[] {
  return derivation.steps.map((s) => ({ clause: s.clause + 1, values: Object.fromEntries([...s.values].map(([v, x]) => [v, typeof x === 'bigint' ? x.toString() : x])) }));
}
