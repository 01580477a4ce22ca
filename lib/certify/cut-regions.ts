// The graph side of certification, independent of any solver: which locations are reachable, whether
// a set of cut-points cuts every cycle, and the acyclic region each cut-point is responsible for
// (everything reachable from it without passing through another cut-point).
// The exit is terminal: control that reaches it has left the procedure, so edges out of the exit
// (the IR normally has none) are never followed.
import type { Edge, Procedure } from '../ir/cfg.js';

/** Outgoing edges per location, with the exit's suppressed (see above). */
export function successorEdges(proc: Procedure): ReadonlyMap<number, readonly Edge[]> {
  const out = new Map<number, Edge[]>();
  for (const loc of proc.locations) out.set(loc.id, []);
  for (const edge of proc.edges) if (edge.from !== proc.exit) out.get(edge.from)?.push(edge);
  return out;
}

export function reachableFrom(successors: ReadonlyMap<number, readonly Edge[]>, start: number): Set<number> {
  const seen = new Set<number>([start]);
  const work = [start];
  while (work.length > 0) {
    const loc = work.pop()!;
    for (const edge of successors.get(loc) ?? []) {
      if (!seen.has(edge.to)) {
        seen.add(edge.to);
        work.push(edge.to);
      }
    }
  }
  return seen;
}

/**
 * A cycle among `within` that avoids every cut-point, as the list of its locations in order
 * (first location not repeated), or null when the cut-points cut every such cycle.
 */
export function findUncutCycle(
  successors: ReadonlyMap<number, readonly Edge[]>,
  within: ReadonlySet<number>,
  cutPoints: ReadonlySet<number>,
): number[] | null {
  const candidates = [...within].filter((loc) => !cutPoints.has(loc)).sort((a, b) => a - b);
  const state = new Map<number, 'open' | 'done'>();
  for (const root of candidates) {
    if (state.has(root)) continue;
    // Iterative depth-first search; `stack` is the current path, so a successor that is still
    // open closes a cycle consisting of the path from that successor to here.
    const stack: { loc: number; next: number }[] = [{ loc: root, next: 0 }];
    state.set(root, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const edges = (successors.get(top.loc) ?? []).filter((e) => within.has(e.to) && !cutPoints.has(e.to));
      if (top.next >= edges.length) {
        state.set(top.loc, 'done');
        stack.pop();
        continue;
      }
      const succ = edges[top.next++]!.to;
      const succState = state.get(succ);
      if (succState === 'open') {
        const from = stack.findIndex((frame) => frame.loc === succ);
        return stack.slice(from).map((frame) => frame.loc);
      }
      if (succState === undefined) {
        state.set(succ, 'open');
        stack.push({ loc: succ, next: 0 });
      }
    }
  }
  return null;
}

/** The part of the CFG one cut-point's verification conditions cover. */
export interface Region {
  readonly start: number;
  /** Non-cut-point locations reachable from start without passing through a cut-point,
   * in topological order (every edge goes forward in this order). */
  readonly interior: readonly number[];
  /** Cut-points reached (start itself when a cycle returns to it), ascending. */
  readonly targets: readonly number[];
  /** The edges of the region: their sources are start or interior locations, sources in topological order. */
  readonly edges: readonly Edge[];
}

/** Requires that the cut-points cut every cycle reachable from start (findUncutCycle gave null). */
export function regionOf(
  successors: ReadonlyMap<number, readonly Edge[]>,
  start: number,
  cutPoints: ReadonlySet<number>,
): Region {
  const interiorSet = new Set<number>();
  const targets = new Set<number>();
  const work = [start];
  while (work.length > 0) {
    const loc = work.pop()!;
    for (const edge of successors.get(loc) ?? []) {
      if (cutPoints.has(edge.to)) targets.add(edge.to);
      else if (!interiorSet.has(edge.to)) {
        interiorSet.add(edge.to);
        work.push(edge.to);
      }
    }
  }
  const interior = topologicalOrder(successors, interiorSet);
  const edges = [start, ...interior].flatMap((loc) => successors.get(loc) ?? []);
  return { start, interior, targets: [...targets].sort((a, b) => a - b), edges };
}

/** Kahn's algorithm on the subgraph induced by `nodes` (which must be acyclic). */
function topologicalOrder(successors: ReadonlyMap<number, readonly Edge[]>, nodes: ReadonlySet<number>): number[] {
  const indegree = new Map<number, number>([...nodes].map((n) => [n, 0]));
  for (const n of nodes) for (const e of successors.get(n) ?? []) if (nodes.has(e.to)) indegree.set(e.to, indegree.get(e.to)! + 1);
  const ready = [...nodes].filter((n) => indegree.get(n) === 0).sort((a, b) => b - a);
  const order: number[] = [];
  while (ready.length > 0) {
    const n = ready.pop()!;
    order.push(n);
    for (const e of successors.get(n) ?? []) {
      if (!nodes.has(e.to)) continue;
      const d = indegree.get(e.to)! - 1;
      indegree.set(e.to, d);
      if (d === 0) ready.push(e.to);
    }
  }
  if (order.length !== nodes.size) throw new Error('regionOf: the region is cyclic (check findUncutCycle first)');
  return order;
}
