// Symbolic execution with interpolation (papers 001 and 003, TRACER), with the corrections of
// notes/003.md. Depth-first symbolic execution over states that are conjunctions over program
// variables (strongest post-conditions by Fourier–Motzkin, sound over the integers). Finished nodes
// leave annotations — interpolants that keep their subtree free of errors — in a subsumption
// table; a later state that implies an annotation at the same location is not explored again.
// Loops: at a loop header, the state's conjuncts (equalities split, notes P4) are the candidate
// invariant; the loop is explored from the abstraction itself (so a back edge that implies it is
// an inductiveness proof, fixing the paper's P3), and a back edge that does not imply it deletes
// the non-preserved conjuncts (the unique maximal entailed subset, P2) and restarts that loop.
// An error reached only through an abstraction is checked on the exact path (P6): if infeasible,
// the path's interpolants are pinned at the abstracted headers as candidates, and a header whose
// pins did not help is unrolled once more (selective unrolling); then the search restarts.
import * as F from '../../ir/formula.js';
import type { Formula } from '../../ir/formula.js';
import { atomKey, atomsOfConjunction, cubeToFormula, negateAtom, renameAtom, substituteAtom, normalizeCube, type Atom } from '../../rational/constraints.js';
import { binaryInterpolant, sequenceInterpolants } from '../../rational/interpolate.js';
import type { Problem } from '../../problem/prepare.js';
import type { Settings } from '../../settings.js';
import type { Counterexample } from '../../result.js';
import { realEntails, SearchStopped, type EngineContext } from './context.js';
import { ERROR, type EngineModel, type Transition } from './model.js';
import { post, splitEqualities, type State } from './projection.js';
import { safeResult, unsafeResult } from './result.js';
import { runEngine } from './run.js';
import { concretize, fromSsa, traceFormula } from './trace.js';
import type { EngineOptions, EngineResult } from '../types.js';
import { MAX_SYMBOLIC_PATH } from '../../limits.js';

export function symbolic(problem: Problem, settings: Settings, options: EngineOptions = {}): Promise<EngineResult> {
  return runEngine('symbolic', search, problem, settings, options);
}

const MAX_RESTARTS = 40;

interface HeaderFrame {
  readonly loc: number;
  readonly abstraction: readonly Atom[] | null; // null: an unrolled (concrete) visit
  /** Position in the path (number of transitions from the root). */
  readonly position: number;
}

class Weaken {
  constructor(readonly frame: HeaderFrame, readonly state: readonly Atom[]) {}
}
class Spurious {
  constructor(readonly path: readonly Transition[], readonly headers: readonly HeaderFrame[]) {}
}
class Found {
  constructor(readonly counterexample: Counterexample) {}
}

async function search(model: EngineModel, ctx: EngineContext): Promise<EngineResult> {
  const pinned = new Map<number, Atom[]>();
  const unroll = new Map<number, number>();
  const headers = new Set(model.loopHeaders);
  let globalRestarts = 0;
  for (;;) {
    const table: { loc: number; psi: State }[] = [];
    const explorer = new Explorer(model, ctx, table, pinned, unroll, headers);
    try {
      const root = normalizeCube(model.precondition);
      await explorer.explore(model.proc.entry, root === null ? 'false' : root, [], []);
      const invariants = new Map<number, Formula>();
      for (const h of model.loopHeaders) {
        invariants.set(h, F.or(...table.filter((e) => e.loc === h).map((e) => (e.psi === 'false' ? F.FALSE : cubeToFormula(e.psi)))));
      }
      return await safeResult(ctx, model, invariants);
    } catch (e) {
      if (e instanceof Found) return unsafeResult(ctx, model.function, e.counterexample);
      if (!(e instanceof Spurious)) throw e;
      ctx.stats.restarts++;
      if (++globalRestarts > MAX_RESTARTS) throw new SearchStopped(`no proof after ${MAX_RESTARTS} restarts`);
      refineAbstraction(model, e, pinned, unroll);
      ctx.stats.refinements++;
    }
  }
}

/** Pins the exact path's interpolants at the abstracted headers; a header that learns nothing new is unrolled once more. */
function refineAbstraction(model: EngineModel, spurious: Spurious, pinned: Map<number, Atom[]>, unroll: Map<number, number>): void {
  const { groups } = traceFormula(model, spurious.path);
  const result = sequenceInterpolants(groups);
  if (result.status === 'no-certificate') throw new SearchStopped('an error path is infeasible over the integers only (no linear interpolant)');
  for (const frame of spurious.headers) {
    if (frame.abstraction === null) continue;
    const itp = fromSsa(result.interpolants[frame.position]!);
    const atoms = itp.kind === 'false' ? null : atomsOfConjunction(itp) ?? [];
    const have = pinned.get(frame.loc) ?? [];
    const fresh = (atoms ?? []).flatMap((a) => splitEqualities([a])).filter((a) => !have.some((b) => atomKey(b) === atomKey(a)));
    if (fresh.length > 0) pinned.set(frame.loc, [...have, ...fresh]);
    else unroll.set(frame.loc, (unroll.get(frame.loc) ?? 0) + 1);
  }
}

class Explorer {
  constructor(
    private readonly model: EngineModel,
    private readonly ctx: EngineContext,
    private readonly table: { loc: number; psi: State }[],
    private readonly pinned: ReadonlyMap<number, readonly Atom[]>,
    private readonly unroll: ReadonlyMap<number, number>,
    private readonly headers: ReadonlySet<number>,
  ) {}

  /** Explores from `state` at `loc`; returns an annotation implied by the state that keeps the subtree safe. */
  async explore(loc: number, state: State, path: readonly Transition[], frames: readonly HeaderFrame[]): Promise<State> {
    this.ctx.checkBudget();
    // The exploration recurses along the path: a straight line of thousands of statements is as deep.
    if (path.length > MAX_SYMBOLIC_PATH) throw new SearchStopped(`a path of more than ${MAX_SYMBOLIC_PATH} transitions (the symbolic search recurses along paths)`);
    this.ctx.stats.nodes++;
    if (state === 'false' || realEntails(state, 'false')) return 'false';
    if (loc === ERROR) {
      const concrete = await concretize(this.model, path, this.ctx.queryLimits());
      if (concrete.kind === 'counterexample') throw new Found(concrete.counterexample);
      if (concrete.kind === 'unknown') throw new SearchStopped(concrete.reason);
      if (!frames.some((f) => f.abstraction !== null)) throw new SearchStopped('an error path is infeasible over the integers only (no linear interpolant)');
      throw new Spurious(path, frames);
    }
    for (const entry of this.table) {
      if (entry.loc === loc && this.ctx.entails(state, entry.psi)) {
        this.ctx.stats.covered++;
        return entry.psi;
      }
    }
    if (!this.headers.has(loc)) return this.finish(loc, await this.expand(loc, state, path, frames));
    const visits = frames.filter((f) => f.loc === loc);
    const enclosing = [...visits].reverse().find((f) => f.abstraction !== null);
    if (enclosing) {
      // A back edge: covered by the loop's abstraction, or the abstraction must be weakened.
      if (this.ctx.entails(state, enclosing.abstraction!)) {
        this.ctx.stats.covered++;
        return enclosing.abstraction!;
      }
      throw new Weaken(enclosing, state);
    }
    if (visits.length < (this.unroll.get(loc) ?? 0)) {
      const frame: HeaderFrame = { loc, abstraction: null, position: path.length };
      return this.finish(loc, await this.expand(loc, state, path, [...frames, frame]));
    }
    // Abstract this header: the maximal subset of candidates that the loop preserves.
    const candidates = [...splitEqualities(state), ...(this.pinned.get(loc) ?? [])];
    let kept = dedupe(candidates.filter((c) => this.ctx.entails(state, [c])));
    for (;;) {
      const frame: HeaderFrame = { loc, abstraction: kept, position: path.length };
      const mark = this.table.length;
      try {
        await this.expand(loc, kept, path, [...frames, frame]);
        return this.finish(loc, kept);
      } catch (e) {
        if (!(e instanceof Weaken) || e.frame !== frame) throw e;
        this.table.length = mark; // entries that relied on the stronger abstraction
        this.ctx.stats.restarts++;
        kept = kept.filter((c) => this.ctx.entails(e.state, [c]));
      }
    }
  }

  private finish(loc: number, psi: State): State {
    this.table.push({ loc, psi });
    return psi;
  }

  private async expand(loc: number, state: readonly Atom[], path: readonly Transition[], frames: readonly HeaderFrame[]): Promise<State> {
    let annotation: Atom[] = [];
    for (const t of this.model.outgoing.get(loc) ?? []) {
      const child = await this.explore(t.to, post(state, t), [...path, t], frames);
      const a = annotateThrough(state, t, child);
      if (a === 'false') return 'false';
      annotation = dedupe([...annotation, ...a]);
    }
    return annotation;
  }
}

function dedupe(atoms: readonly Atom[]): Atom[] {
  const seen = new Map<string, Atom>();
  for (const a of atoms) seen.set(atomKey(a), a);
  return [...seen.values()];
}

/**
 * An annotation Φ with state ⇒ Φ and Φ ∧ t ⇒ child' (notes P7/P8: conjunctive, false for an
 * infeasible child), by interpolating the state against t ∧ ¬a' for each conjunct a of the child's
 * annotation. When no certificate exists (integer-only reasoning), the state itself is the annotation.
 */
function annotateThrough(state: readonly Atom[], t: Transition, child: State): State {
  const u = t.update;
  const pre = (a: Atom): Atom => {
    if (!u) return a;
    if (u.kind === 'assign') return substituteAtom(a, new Map([[u.target, u.expr]]));
    return renameAtom(a, (x) => (x === u.target ? `${u.target}#any` : x));
  };
  const obligations: Atom[][] = child === 'false' ? [[...t.guard]] : child.flatMap((a) => negateAtom(pre(a)).map((cube) => [...t.guard, ...cube]));
  const out: Atom[] = [];
  for (const b of obligations) {
    const itp = binaryInterpolant(state, b);
    if (itp === null) return [...state];
    if (itp.kind === 'false') return 'false';
    out.push(...(atomsOfConjunction(itp) ?? []));
  }
  return dedupe(out);
}
