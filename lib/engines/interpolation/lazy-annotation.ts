// Lazy annotation (paper 000, McMillan CAV 2010; notes/000.md). Depth-first symbolic execution
// with exact symbolic states (the path's trace formula in SSA form: no projection, so a state is
// exactly the set of values reaching it). Learned labels are conjunctions over program variables,
// attached to transitions (edges) and locations; no label means false, and a state is blocked by a
// label it implies. When every way forward from a state is blocked, the state is popped and the
// conjunction of the blocking edge labels becomes a location label (CONJOIN); an edge whose single
// successor is blocked learns a Craig interpolant between the state and the edge's semantics
// followed by the negation of the blocking label (LEARN) — an interpolant, not a weakest
// precondition, so it generalises and needs no quantifier elimination.
//
// Loops: a time-to-live τ (the variable `#ttl`, not a C name) starts at τ0 and is decremented on
// every retreating edge; every location carries the axiom label τ < 0, so each run of the search is
// finite (a bounded proof for τ0). Then τ := 0 in the cut-point labels (the axioms become false)
// and the greatest subset that is inductive over the loop-free segments between cut-points is kept
// (checked per segment, not per edge: the notes' granularity trap, pitfall 8). If the entry's
// segments are then proved, that subset is the invariant, which the independent checker must still
// prove; otherwise the inductive subset is kept as labels and τ0 is doubled.
//
// Calls of non-recursive procedures are inlined by the model; programs with recursive procedures are
// handled by the interprocedural version with negative summaries (inter-annotation.ts).
import * as F from '../../ir/formula.js';
import * as L from '../../ir/linear.js';
import { atomKey, atomsOfConjunction, cubeToFormula, negateAtom, normalizeCube, renameAtom, substituteAtom, type Atom } from '../../rational/constraints.js';
import { binaryInterpolant } from '../../rational/interpolate.js';
import { realEntails, SearchStopped, type EngineContext } from './context.js';
import { ERROR, type EngineModel, type Transition } from './model.js';
import { post } from './projection.js';
import { safeResult, unsafeResult } from './result.js';
import { runEngine } from './run.js';
import { concretize, fromSsa, ssaName } from './trace.js';
import type { EngineOptions, EngineResult } from '../types.js';
import type { Problem } from '../../problem/prepare.js';
import type { Settings } from '../../settings.js';
import { interproceduralLazyAnnotation } from './inter-annotation.js';

export function lazyAnnotation(problem: Problem, settings: Settings, options: EngineOptions = {}): Promise<EngineResult> {
  // Calls that survive inlining are recursive: they get negative summaries (inter-annotation.ts).
  if (problem.needsSummaries) return interproceduralLazyAnnotation(problem, settings, options);
  return runEngine('lazy-annotation', search, problem, settings, options);
}

/** The time-to-live counter; '#' cannot occur in a C name. */
export const TTL = '#ttl';
/** τ0 is doubled up to this bound before the search gives up. */
const MAX_TTL = 64;
/** Loop-free segments per cut-point enumerated for the strengthening before giving up. */
const MAX_SEGMENTS = 4_000;

export type Cube = readonly Atom[];

/** The axiom label τ < 0 (as τ ≤ -1) of every location. */
export const AXIOM: Cube = [{ rel: '>=', expr: L.addConstant(L.variable(TTL, -1n), -1n) }];

/** A disjunction of cubes with subsumption: a cube implied by another one adds nothing. */
export class Labels {
  private readonly cubes = new Map<number, Cube[]>();

  get(key: number): readonly Cube[] {
    return this.cubes.get(key) ?? [];
  }

  add(key: number, cube: Cube): void {
    const have = this.get(key);
    if (have.some((c) => realEntails(cube, c))) return;
    this.cubes.set(key, [...have.filter((c) => !realEntails(c, cube)), cube]);
  }

  keys(): number[] {
    return [...this.cubes.keys()];
  }
}

/**
 * A symbolic state: a conjunction over the program variables (and τ) of the states reaching the
 * location along the path. Successors are strongest post-conditions by Fourier–Motzkin, exact over
 * the reals, which is what every blocking test and interpolant here reasons over (the paper's exact
 * symbolic interpreter, with old values projected away so the tests stay small); integer rounding
 * only adds cuts the integer states satisfy. The path itself is kept: an error is reported only
 * after the exact path has been solved over the integers and replayed.
 */
export interface SymbolicState {
  readonly loc: number;
  readonly atoms: readonly Atom[];
  readonly path: readonly Transition[];
}

export const currentName = (version: ReadonlyMap<string, number>) => (v: string): string => ssaName(v, version.get(v) ?? 0);

/** The transition's constraint over the SSA names of `version`, and the versions after it. */
export function stepOf(version0: ReadonlyMap<string, number>, t: Transition, retreating: boolean): { group: Atom[]; version: Map<string, number> } {
  const version = new Map(version0);
  const group = t.guard.map((a) => renameAtom(a, currentName(version)));
  const bump = (v: string): { before: string; after: string } => {
    const before = currentName(version)(v);
    version.set(v, (version.get(v) ?? 0) + 1);
    return { before, after: currentName(version)(v) };
  };
  if (t.update) {
    const expr = t.update.kind === 'assign' ? L.rename(t.update.expr, currentName(version)) : null;
    const { after } = bump(t.update.target);
    if (expr) group.push({ rel: '==', expr: L.sub(L.variable(after), expr) });
  }
  if (retreating) {
    const { before, after } = bump(TTL);
    group.push({ rel: '==', expr: L.addConstant(L.sub(L.variable(after), L.variable(before)), 1n) });
  }
  return { group, version };
}

/** The state after t (false when infeasible over the reals). */
export function successor(atoms: readonly Atom[], t: Transition, retreating: boolean): readonly Atom[] | 'false' {
  let next = post(atoms, t);
  if (next !== 'false' && retreating) next = post(next, decrementTtl(t));
  if (next === 'false' || (t.guard.length > 0 && realEntails(next, 'false'))) return 'false';
  return next;
}

const decrementTtl = (t: Transition): Transition => ({
  ...t, guard: [], update: { kind: 'assign', target: TTL, expr: L.addConstant(L.variable(TTL), -1n) },
});

/** Transitions closing a cycle in a depth-first search from the entry: every cycle contains one. */
export function retreatingTransitions(model: Pick<EngineModel, 'proc' | 'outgoing'>): Set<number> {
  const retreating = new Set<number>();
  const state = new Map<number, 'active' | 'done'>();
  const stack: { loc: number; next: number }[] = [{ loc: model.proc.entry, next: 0 }];
  state.set(model.proc.entry, 'active');
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const out = model.outgoing.get(top.loc) ?? [];
    if (top.next >= out.length) {
      state.set(top.loc, 'done');
      stack.pop();
      continue;
    }
    const t = out[top.next++]!;
    if (t.to === ERROR) continue;
    const s = state.get(t.to);
    if (s === 'active') retreating.add(t.id);
    else if (s === undefined) {
      state.set(t.to, 'active');
      stack.push({ loc: t.to, next: 0 });
    }
  }
  return retreating;
}

async function search(model: EngineModel, ctx: EngineContext): Promise<EngineResult> {
  const retreating = retreatingTransitions(model);
  const cutpoints = [...new Set(model.transitions.filter((t) => retreating.has(t.id)).map((t) => t.to))].sort((a, b) => a - b);
  const annotation = { locations: new Labels(), edges: new Labels() };
  const segments = new SegmentChecker(model, ctx, cutpoints);
  for (let ttl = 0; ; ttl = ttl === 0 ? 1 : ttl * 2) {
    if (ttl > MAX_TTL) throw new SearchStopped(`no inductive annotation up to time-to-live ${MAX_TTL}`);
    if (ttl > 0) ctx.stats.restarts++;
    const found = await boundedSearch(model, ctx, annotation, retreating, BigInt(ttl));
    if (found) return found;
    if (cutpoints.length === 0) {
      // Loop-free: the bounded proof is a proof; the checker sees the program without invariants.
      return safeResult(ctx, model, new Map());
    }
    const invariant = await segments.strengthen(cutpoints.map((h) => [h, annotation.locations.get(h)] as const));
    if (invariant.proved) {
      return safeResult(ctx, model, new Map([...invariant.kept].map(([h, cubes]) => [h, F.or(...cubes.map(cubeToFormula))] as const)));
    }
    // Justified τ-free labels stay: they prune the next, deeper search.
    for (const [h, cubes] of invariant.kept) for (const c of cubes) annotation.locations.add(h, c);
  }
}

/**
 * IntraLA with the time-to-live bound τ0 (the DFS rendering of Fig. 2 in the notes). Returns a
 * result when an error is reached (a replayed counterexample) and null when the entry is blocked.
 */
async function boundedSearch(
  model: EngineModel,
  ctx: EngineContext,
  annotation: { locations: Labels; edges: Labels },
  retreating: ReadonlySet<number>,
  ttl: bigint,
): Promise<EngineResult | null> {
  const root: SymbolicState = {
    loc: model.proc.entry,
    atoms: [...model.precondition, { rel: '==', expr: L.sub(L.variable(TTL), L.constant(ttl)) }],
    path: [],
  };
  const stack: SymbolicState[] = [root];
  const blockingLabel = (s: SymbolicState, cubes: readonly Cube[]): Cube | null => {
    ctx.checkBudget();
    return cubes.find((c) => realEntails(s.atoms, c)) ?? null;
  };
  const locationLabels = (loc: number): readonly Cube[] => (loc === ERROR ? [] : [AXIOM, ...annotation.locations.get(loc)]);

  while (stack.length > 0) {
    const s = stack[stack.length - 1]!;
    if (blockingLabel(s, locationLabels(s.loc))) {
      ctx.stats.covered++;
      stack.pop(); // a label learned deeper may block an ancestor: backjump
      continue;
    }
    let moved = false;
    const conjunction: Atom[] = [];
    for (const t of model.outgoing.get(s.loc) ?? []) {
      const edgeLabel = blockingLabel(s, annotation.edges.get(t.id));
      if (edgeLabel) {
        conjunction.push(...edgeLabel);
        continue;
      }
      const atoms = successor(s.atoms, t, retreating.has(t.id));
      const next: SymbolicState = { loc: t.to, atoms: atoms === 'false' ? [] : atoms, path: [...s.path, t] };
      const blocker: Cube | 'infeasible' | null = atoms === 'false' ? 'infeasible' : blockingLabel(next, locationLabels(t.to));
      if (blocker === null) {
        if (t.to === ERROR) return reachedError(model, ctx, next);
        ctx.stats.nodes++;
        stack.push(next);
        moved = true;
        break;
      }
      const learned = learn(s, t, retreating.has(t.id), blocker);
      ctx.stats.refinements++;
      annotation.edges.add(t.id, learned);
      conjunction.push(...learned);
    }
    if (!moved) {
      const label = normalizeCube(conjunction);
      if (label === null) throw new Error('lazy annotation: a location label is false although its state is feasible');
      annotation.locations.add(s.loc, dedupe(label));
      stack.pop();
    }
  }
  return null;
}

/**
 * LEARN: an interpolant between the state χ(s) and the edge's semantics followed by the negation
 * of the label blocking its successor (one interpolant per cube of that negation, conjoined).
 * The result holds in s, and from it the edge leads into the blocking label (or nowhere).
 */
export function learn(s: SymbolicState, t: Transition, retreating: boolean, blocker: Cube | 'infeasible'): Cube {
  const before = new Map<string, number>();
  const { group, version: after } = stepOf(before, t, retreating);
  const state = s.atoms.map((a) => renameAtom(a, currentName(before)));
  const obligations: Atom[][] = blocker === 'infeasible'
    ? [[...group]]
    : blocker.flatMap((a) => negateAtom(renameAtom(a, currentName(after))).map((cube) => [...group, ...cube]));
  const out: Atom[] = [];
  for (const b of obligations) {
    const itp = binaryInterpolant(state, b, { inequalitiesOnly: true });
    // Blocked only thanks to integer rounding (no certificate over the reals): the state itself is
    // a label that holds in s and is justified over the integers, just less general.
    if (itp === null) return [...s.atoms];
    if (itp.kind === 'false') throw new Error('lazy annotation: interpolant false for a feasible state');
    const atoms = atomsOfConjunction(fromSsa(itp));
    if (atoms === null) throw new Error('lazy annotation: interpolant is not a conjunction');
    out.push(...atoms);
  }
  return dedupe(out);
}

async function reachedError(model: EngineModel, ctx: EngineContext, s: SymbolicState): Promise<EngineResult> {
  const concrete = await concretize(model, s.path, ctx.queryLimits());
  if (concrete.kind === 'counterexample') return unsafeResult(ctx, model.function, concrete.counterexample);
  throw new SearchStopped(concrete.kind === 'infeasible'
    ? 'an error path is infeasible over the integers only (no linear interpolant over the reals)'
    : concrete.reason);
}

export function dedupe(atoms: readonly Atom[]): Atom[] {
  const seen = new Map<string, Atom>();
  for (const a of atoms) seen.set(atomKey(a), a);
  return [...seen.values()];
}

/** A loop-free path from a cut-point (or the entry) to the next cut-point, the error, or a dead end. */
interface Segment {
  readonly path: readonly Transition[];
  /** A cut-point, ERROR, or null (the path ends where the procedure does). */
  readonly target: number | null;
}

/**
 * The strengthening of Fig. 3 at cut-point granularity: τ := 0 in every cut-point label, then drop
 * labels until every remaining one leads, along every loop-free segment, into the remaining labels of
 * the segment's target and never into the error; finally check the entry the same way.
 */
class SegmentChecker {
  private readonly segments = new Map<number, Segment[]>();
  private readonly cuts: ReadonlySet<number>;

  constructor(private readonly model: EngineModel, private readonly ctx: EngineContext, cutpoints: readonly number[]) {
    this.cuts = new Set(cutpoints);
  }

  async strengthen(labels: readonly (readonly [number, readonly Cube[]])[]): Promise<{ proved: boolean; kept: Map<number, Cube[]> }> {
    const zero = new Map([[TTL, L.constant(0)]]);
    const kept = new Map<number, Cube[]>();
    for (const [h, cubes] of labels) {
      const candidates: Cube[] = [];
      for (const c of cubes) {
        const cube = normalizeCube(c.map((a) => substituteAtom(a, zero)));
        if (cube !== null && !candidates.some((d) => cubeKey(d) === cubeKey(cube))) candidates.push(cube);
      }
      kept.set(h, candidates);
    }
    for (let changed = true; changed;) {
      changed = false;
      for (const [h, cubes] of kept) {
        for (const cube of [...cubes]) {
          if (await this.leadsInto(h, cube, kept)) continue;
          kept.set(h, kept.get(h)!.filter((c) => c !== cube));
          changed = true;
        }
      }
    }
    const entry = this.model.proc.entry;
    const initial = this.model.precondition;
    const proved = this.cuts.has(entry)
      ? await this.implies(initial, new Map(), kept.get(entry) ?? [])
      : await this.leadsInto(entry, initial, kept);
    return { proved, kept };
  }

  /** Every segment from `from`, started in `cube`, ends in the kept labels of its target (never in the error). */
  private async leadsInto(from: number, cube: Cube, kept: ReadonlyMap<number, Cube[]>): Promise<boolean> {
    for (const segment of this.segmentsFrom(from)) {
      if (segment.target === null) continue;
      let version = new Map<string, number>();
      const atoms: Atom[] = cube.map((a) => renameAtom(a, currentName(version)));
      for (const t of segment.path) {
        const step = stepOf(version, t, false);
        atoms.push(...step.group);
        version = step.version;
      }
      const goal = segment.target === ERROR ? [] : kept.get(segment.target) ?? [];
      if (!(await this.implies(atoms, version, goal))) return false;
    }
    return true;
  }

  /** atoms ⇒ ⋁ goal (over the current versions): a single cube by Farkas, else z3 over the integers. */
  private async implies(atoms: readonly Atom[], version: ReadonlyMap<string, number>, goal: readonly Cube[]): Promise<boolean> {
    this.ctx.checkBudget();
    const renamed = goal.map((c) => c.map((a) => renameAtom(a, currentName(version))));
    if (realEntails(atoms, 'false') || renamed.some((c) => realEntails(atoms, c))) return true;
    const status = await this.ctx.satisfiable(F.and(cubeToFormula(atoms), F.not(F.or(...renamed.map(cubeToFormula)))));
    return status === 'unsat';
  }

  private segmentsFrom(from: number): Segment[] {
    const known = this.segments.get(from);
    if (known) return known;
    const out: Segment[] = [];
    const walk = (loc: number, path: Transition[]): void => {
      const ts = this.model.outgoing.get(loc) ?? [];
      if (ts.length === 0) out.push({ path, target: null });
      for (const t of ts) {
        if (out.length > MAX_SEGMENTS) throw new SearchStopped(`more than ${MAX_SEGMENTS} loop-free paths from one cut-point`);
        const next = [...path, t];
        if (t.to === ERROR || this.cuts.has(t.to)) out.push({ path: next, target: t.to });
        else walk(t.to, next);
      }
    };
    walk(from, []);
    this.segments.set(from, out);
    return out;
  }
}

const cubeKey = (c: Cube): string => c.map(atomKey).sort().join(' & ');
