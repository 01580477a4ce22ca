// The exact failing condition of a loop-free function (`cex` when no sampled input fails): every path
// from the entry to a failing assertion, executed symbolically over the parameters, gives one cube
// (its guards, its premises of no signed overflow, and the negated assertion, with every assignment
// substituted); their disjunction holds exactly on the inputs whose run fails. f1's
// `if (x > 0 && x < 100000) assert(3 * x != 1227)` gives `x == 409`. Calls of recursive procedures
// follow guessed summaries (guessed-summaries.ts): the condition is then a guess, each cube kept only
// when a run from an input inside it fails on the original program, and never called certified.
// A path through a value the parameters do not determine (a ghost quotient, a read inside the
// function that stayed a havoc) has no condition over the parameters: then there is none at all.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { Edge, Procedure } from '../ir/cfg.js';
import { cubesOf, normalizeCube, type Atom } from '../rational/constraints.js';
import { impliedOverRationals } from '../certify/rational-implication.js';
import { isSatisfiable } from '../certify/lia.js';
import type { CallSummaries } from '../certify/region-encoding.js';
import type { Problem } from '../problem/prepare.js';
import { POINT_QUERY_WORK, type Deadline } from '../limits.js';

/** Paths (with the branches of guards' and summaries' cases) explored at most. */
const MAX_PATHS = 512;

export interface ExactFailingCondition {
  readonly formula: Formula;
  /** One cube per failing path (at most one per distinct cube), each satisfiable over the integers,
   * with an input inside it (parameter values). */
  readonly cubes: readonly { readonly formula: Formula; readonly input: ReadonlyMap<string, bigint> }[];
  /** True when no guessed summary was used: the condition is then exact by construction. */
  readonly exact: boolean;
}

/**
 * The failing condition over the parameters of a loop-free function, or null (a loop, a call without
 * a summary, a value the parameters do not determine, too many paths).
 */
export async function loopFreeFailingCondition(problem: Problem, deadline: Deadline, summaries: CallSummaries = new Map()): Promise<ExactFailingCondition | null> {
  const proc = problem.inlined.program.procedures.get(problem.function)!;
  if (proc.locations.some((l) => l.loopHeader)) return null;
  const cubes = failingCubes(problem, proc, summaries);
  if (cubes === null) return null;
  const found: { formula: Formula; input: ReadonlyMap<string, bigint> }[] = [];
  const seen = new Set<string>();
  for (const cube of cubes) {
    const formula = readableCube(cube);
    const key = F.toC(formula);
    if (seen.has(key)) continue;
    seen.add(key);
    if (deadline.passed || deadline.aborted) return null;
    const sat = await isSatisfiable(formula, { work: POINT_QUERY_WORK, ...deadline.timeLimit });
    if (sat.status === 'unknown') return null;
    if (sat.status === 'unsat') continue;
    found.push({ formula, input: new Map(proc.params.map((p) => [p, sat.model!.get(p) ?? 0n] as const)) });
  }
  if (found.length === 0) return null;
  return { formula: F.or(...found.map((c) => c.formula)), cubes: found, exact: summaries.size === 0 || !proc.edges.some((e) => e.stmt.kind === 'call') };
}

/** The cubes of the failing paths, over the parameters; null when one mentions anything else. */
function failingCubes(problem: Problem, proc: Procedure, summaries: CallSummaries): Atom[][] | null {
  const params = new Set(proc.params);
  const globals = problem.inlined.program.globals;
  const initial = new Map<string, Linear>(globals.map((g) => [g.name, L.constant(g.init)] as const));
  // Parameter ranges are where runs start (the front end assumes them at the entry as well).
  const start: Atom[] = [...(proc.paramRanges ?? new Map())].flatMap(([p, r]) => [
    { rel: '>=' as const, expr: L.sub(L.variable(p), L.constant(r.lo)) },
    { rel: '>=' as const, expr: L.sub(L.constant(r.hi), L.variable(p)) },
  ]);
  const outgoing = new Map<number, Edge[]>();
  for (const e of proc.edges) if (e.from !== proc.exit) outgoing.set(e.from, [...(outgoing.get(e.from) ?? []), e]);
  const failing: Atom[][] = [];
  let paths = 0;
  let fresh = 0;
  const valueOf = (state: ReadonlyMap<string, Linear>) => (v: string): Linear => state.get(v) ?? (params.has(v) ? L.variable(v) : L.constant(0n));
  const under = (f: Formula, state: ReadonlyMap<string, Linear>): Formula => F.mapAtoms(f, (rel, e) => {
    const s = L.substitute(e, new Map(L.variablesOf(e).map((v) => [v, valueOf(state)(v)] as const)));
    return rel === '>=' ? F.geqZero(s) : F.eqZero(s);
  });
  // Depth-first over the edges; a guard with several cubes branches.
  const work: { loc: number; state: Map<string, Linear>; cube: Atom[] }[] = [{ loc: proc.entry, state: initial, cube: start }];
  while (work.length > 0) {
    if (++paths > MAX_PATHS) return null;
    const { loc, state, cube } = work.pop()!;
    for (const edge of [...(outgoing.get(loc) ?? [])].reverse()) {
      const s = edge.stmt;
      const go = (next: Map<string, Linear>, atoms: readonly Atom[]): void => {
        const joined = normalizeCube([...cube, ...atoms]);
        if (joined !== null) work.push({ loc: edge.to, state: next, cube: joined });
      };
      switch (s.kind) {
        case 'skip': go(state, []); break;
        case 'assign': go(new Map(state).set(s.target, L.substitute(s.expr, new Map(L.variablesOf(s.expr).map((v) => [v, valueOf(state)(v)] as const)))), []); break;
        case 'havoc': {
          // A value the parameters do not determine: a fresh unknown, fatal only if a failing cube needs it.
          const unknown = `?${fresh++}`;
          const atoms: Atom[] = s.range ? [{ rel: '>=', expr: L.sub(L.variable(unknown), L.constant(s.range.lo)) }, { rel: '>=', expr: L.sub(L.constant(s.range.hi), L.variable(unknown)) }] : [];
          go(new Map(state).set(s.target, L.variable(unknown)), atoms);
          break;
        }
        case 'assume':
          for (const c of cubesOf(under(s.cond, state))) go(state, c);
          break;
        case 'assert': {
          for (const c of cubesOf(under(F.not(s.cond), state))) {
            const joined = normalizeCube([...cube, ...c]);
            if (joined !== null) failing.push(joined);
          }
          for (const c of cubesOf(under(s.cond, state))) go(state, c);
          break;
        }
        case 'call': {
          const summary = summaries.get(s.callee);
          if (!summary) return null;
          const args = new Map(summary.params.map((p, k) => [p, L.substitute(s.args[k]!, new Map(L.variablesOf(s.args[k]!).map((v) => [v, valueOf(state)(v)] as const)))] as const));
          for (const pair of summary.pairs) {
            // A pair's law gives the result when it is solved for it with a coefficient of ±1.
            const result = resultOf(pair.post, summary.returnName, args);
            if (result === null) continue;
            for (const c of cubesOf(F.substitute(pair.pre, args))) go(s.target === null ? state : new Map(state).set(s.target, result), c);
          }
          break;
        }
      }
    }
  }
  // An unknown that only its own range bounds is eliminated with them (the range is not empty).
  const projected = failing.map((cube) => cube.filter((a) => {
    const vars = L.variablesOf(a.expr);
    return !(vars.length === 1 && vars[0]!.startsWith('?') && cube.every((b) => b === a || !L.variablesOf(b.expr).includes(vars[0]!) || L.variablesOf(b.expr).length === 1));
  }));
  const determined = projected.filter((cube) => cube.every((a) => L.variablesOf(a.expr).every((v) => params.has(v))));
  return determined.length < projected.length ? null : determined;
}

/** The result a summary's post-condition fixes: `m·result = e` with m = ±1, e over the arguments. */
function resultOf(post: Formula, result: string, args: ReadonlyMap<string, Linear>): Linear | null {
  const atoms = F.dnf(post);
  if (atoms.length !== 1) return null;
  for (const a of atoms[0]!) {
    if (a.kind !== 'atom') continue;
    const m = L.coefficientOf(a.expr, result);
    const opposite = atoms[0]!.some((b) => b.kind === 'atom' && b !== a && L.equals(L.negate(b.expr), a.expr));
    if ((m !== 1n && m !== -1n) || (a.rel !== '==' && !opposite)) continue;
    // m·result + rest == 0  ⇒  result = -rest / m
    const rest = L.sub(a.expr, L.variable(result, m));
    return L.substitute(m === 1n ? L.negate(rest) : rest, args);
  }
  return null;
}

/** A cube as a formula, without atoms the others imply over the rationals. */
function readableCube(cube: readonly Atom[]): Formula {
  const atoms = cube.map((a) => (a.rel === '>=' ? F.geqZero(a.expr) : F.eqZero(a.expr)));
  const kept: Formula[] = [...atoms];
  for (let i = kept.length - 1; i >= 0; i--) {
    const others = kept.filter((_, j) => j !== i);
    if (others.length > 0 && impliedOverRationals(others, kept[i]!)) kept.splice(i, 1);
  }
  return F.and(...kept);
}
