// Lazy abstraction with interpolants (paper 002; McMillan's IMPACT scheme): an abstract reachability
// tree (ART) unwinds the CFG; every node carries a label, a conjunction over program variables, that
// over-approximates the states reaching it along its tree path. An unwound error node triggers
// refinement: the path's trace formula is either feasible (a counterexample, replayed) or refuted by
// a Farkas certificate whose partial sums strengthen the labels along the path (sequence
// interpolants), making the error node false. A node whose label implies an earlier uncovered node's
// label at the same location is covered and not expanded. When no uncovered node is left to expand,
// the disjunction of the uncovered labels at each loop header is an inductive invariant, which the
// independent checker must still prove.
import * as F from '../../ir/formula.js';
import type { Formula } from '../../ir/formula.js';
import { atomsOfConjunction, atomKey, cubeToFormula, type Atom } from '../../rational/constraints.js';
import { sequenceInterpolants } from '../../rational/interpolate.js';
import type { Problem } from '../../problem/prepare.js';
import type { Settings } from '../../settings.js';
import type { EngineContext } from './context.js';
import { ERROR, type EngineModel, type Transition } from './model.js';
import { safeResult, unknownResult, unsafeResult } from './result.js';
import { runEngine } from './run.js';
import { concretize, fromSsa, traceFormula } from './trace.js';
import type { EngineOptions, EngineResult } from '../types.js';

interface ArtNode {
  readonly id: number;
  readonly loc: number;
  readonly parent: ArtNode | null;
  /** The transition from the parent. */
  readonly via: Transition | null;
  readonly children: ArtNode[];
  label: Atom[] | 'false';
  coveredBy: ArtNode | null;
  expanded: boolean;
}

export function lazyAbstraction(problem: Problem, settings: Settings, options: EngineOptions = {}): Promise<EngineResult> {
  return runEngine('lazy-abstraction', search, problem, settings, options);
}

async function search(model: EngineModel, ctx: EngineContext): Promise<EngineResult> {
  const nodes: ArtNode[] = [];
  const byLocation = new Map<number, ArtNode[]>();
  const make = (loc: number, parent: ArtNode | null, via: Transition | null): ArtNode => {
    const node: ArtNode = { id: nodes.length, loc, parent, via, children: [], label: [], coveredBy: null, expanded: false };
    nodes.push(node);
    byLocation.set(loc, [...(byLocation.get(loc) ?? []), node]);
    parent?.children.push(node);
    ctx.stats.nodes++;
    return node;
  };
  const root = make(model.proc.entry, null, null);
  const worklist: ArtNode[] = [root];

  const isCovered = (v: ArtNode): boolean => {
    for (let u: ArtNode | null = v; u; u = u.parent) if (u.coveredBy) return true;
    return false;
  };
  const isDescendant = (d: ArtNode, v: ArtNode): boolean => {
    for (let u: ArtNode | null = d; u; u = u.parent) if (u === v) return true;
    return false;
  };
  /** Unexpanded nodes of a subtree go back on the worklist (they were skipped while covered). */
  const reschedule = (v: ArtNode): void => {
    const stack = [v];
    while (stack.length > 0) {
      const u = stack.pop()!;
      if (!u.expanded) worklist.push(u);
      stack.push(...u.children);
    }
  };
  const uncover = (coverer: (w: ArtNode) => boolean): void => {
    for (const x of nodes) {
      if (x.coveredBy && coverer(x.coveredBy)) {
        x.coveredBy = null;
        reschedule(x);
      }
    }
  };

  /** Covers v by an earlier uncovered node at its location whose label v's label implies. */
  const close = (v: ArtNode): boolean => {
    if (v.label === 'false') return true;
    for (const w of byLocation.get(v.loc) ?? []) {
      if (w.id >= v.id) break;
      if (w.label === 'false' || isCovered(w)) continue;
      if (ctx.entails(v.label, w.label)) {
        v.coveredBy = w;
        ctx.stats.covered++;
        // Nodes covered by v's descendants lose their cover: those are covered now themselves.
        uncover((c) => isDescendant(c, v));
        return true;
      }
    }
    return false;
  };

  const refine = async (v: ArtNode): Promise<EngineResult | null> => {
    const pathNodes: ArtNode[] = [];
    for (let u: ArtNode | null = v; u; u = u.parent) pathNodes.unshift(u);
    const path = pathNodes.slice(1).map((u) => u.via!);
    const { groups } = traceFormula(model, path);
    const result = sequenceInterpolants(groups);
    if (result.status === 'no-certificate') {
      // Feasible over the reals: either a real counterexample or infeasible over the integers only.
      const concrete = await concretize(model, path, ctx.queryLimits());
      if (concrete.kind === 'counterexample') return unsafeResult(ctx, model.function, concrete.counterexample);
      const reason = concrete.kind === 'infeasible'
        ? 'an error path is infeasible over the integers only (no linear interpolant over the reals)'
        : concrete.reason;
      return unknownResult(ctx, model.function, reason);
    }
    ctx.stats.refinements++;
    // interpolants[k] holds after group k, i.e. at pathNodes[k]; the error node becomes false.
    const labels: (Formula)[] = [...result.interpolants, F.FALSE];
    for (const [k, u] of pathNodes.entries()) {
      const itp = fromSsa(labels[k]!);
      if (itp.kind === 'true' || u.label === 'false') continue;
      if (itp.kind === 'false') {
        u.label = 'false';
      } else {
        const atoms = atomsOfConjunction(itp)!;
        const have = new Set(u.label.map(atomKey));
        const fresh = atoms.filter((a) => !have.has(atomKey(a)));
        if (fresh.length === 0) continue;
        u.label = [...u.label, ...fresh];
      }
      // Covers by u relied on its weaker label.
      uncover((c) => c === u);
    }
    // Strengthened nodes may now be covered themselves.
    for (const u of pathNodes) if (!isCovered(u)) close(u);
    return null;
  };

  while (worklist.length > 0) {
    ctx.checkBudget();
    const v = worklist.pop()!;
    if (v.expanded || v.label === 'false' || isCovered(v)) continue;
    if (close(v)) continue;
    if (v.loc === ERROR) {
      const answer = await refine(v);
      if (answer) return answer;
      continue;
    }
    v.expanded = true;
    const children = (model.outgoing.get(v.loc) ?? []).map((t) => make(t.to, v, t));
    // Depth first, in transition order.
    for (let i = children.length - 1; i >= 0; i--) worklist.push(children[i]!);
  }

  const invariants = new Map<number, Formula>();
  for (const h of model.loopHeaders) {
    const labels = (byLocation.get(h) ?? []).filter((u) => u.label !== 'false' && !isCovered(u)).map((u) => cubeToFormula(u.label as Atom[]));
    invariants.set(h, F.or(...labels));
  }
  return safeResult(ctx, model, invariants);
}
