// Cut-sets (paper 004, Section 2.3). A cut-set is a set of locations that every CFG cycle passes
// through; entry and exit always belong to it.
//  - 'headers': the loop headers (targets of back edges). Simple, but may force disjunctive invariants.
//  - 'paths' (Theorem 1): expand each loop body into its acyclic paths and put one cut-point on each
//    path. Locations are shared between paths in the CFG, so the region after every header is unfolded
//    into a trie of paths (copies of locations, identical edge labels: a faithful unfolding), and the
//    cut-point of a cyclic path is the trie node just after the edge where it parts from the other
//    cyclic paths (for Fig. 2 this gives the paper's π4 and π6).
// The prepared procedure (possibly expanded) is what both the VC generator and the certificate
// checker work on, so cut-points are plain location ids.
import type { Edge, Location, Procedure } from '../ir/cfg.js';

export type CutsetStrategy = 'headers' | 'paths';

export interface PreparedCutset {
  readonly strategy: CutsetStrategy;
  readonly proc: Procedure;
  /** Sorted location ids of `proc`; includes entry and exit. */
  readonly cutpoints: readonly number[];
  /** For each location of `proc`, the location of the original procedure it copies. */
  readonly original: readonly number[];
}

export class PathExplosionError extends Error {
  constructor(readonly limit: number, what: string) {
    super(`${what} exceeds the limit of ${limit}; try --cutset headers or a smaller program`);
    this.name = 'PathExplosionError';
  }
}

export interface CutsetLimits {
  /** Maximum number of locations after path expansion. */
  readonly maxLocations?: number;
}

/** Loop headers: locations marked by the front end plus every target of a DFS back edge. */
export function loopHeaders(proc: Procedure): Set<number> {
  const headers = new Set<number>(proc.locations.filter((l) => l.loopHeader).map((l) => l.id));
  const succ = successors(proc);
  const state = new Uint8Array(proc.locations.length); // 0 new, 1 on stack, 2 done
  const stack: Array<{ loc: number; next: number }> = [{ loc: proc.entry, next: 0 }];
  state[proc.entry] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const out = succ[top.loc]!;
    if (top.next < out.length) {
      const to = out[top.next++]!.to;
      if (state[to] === 1) headers.add(to);
      else if (state[to] === 0) {
        state[to] = 1;
        stack.push({ loc: to, next: 0 });
      }
    } else {
      state[top.loc] = 2;
      stack.pop();
    }
  }
  return headers;
}

export function successors(proc: Procedure): Edge[][] {
  const succ: Edge[][] = proc.locations.map(() => []);
  for (const e of proc.edges) succ[e.from]!.push(e);
  return succ;
}

export function prepareCutset(proc: Procedure, strategy: CutsetStrategy, limits: CutsetLimits = {}): PreparedCutset {
  const headers = loopHeaders(proc);
  if (strategy === 'headers') {
    const cut = new Set([proc.entry, proc.exit, ...headers]);
    return { strategy, proc, cutpoints: [...cut].sort((a, b) => a - b), original: proc.locations.map((l) => l.id) };
  }
  return expandPaths(proc, headers, limits.maxLocations ?? 20000);
}

function expandPaths(proc: Procedure, headers: Set<number>, maxLocations: number): PreparedCutset {
  const succ = successors(proc);
  const kept = new Set<number>([proc.entry, proc.exit, ...headers]);
  const locations: Location[] = [];
  const original: number[] = [];
  const edges: Edge[] = [];
  const newId = new Map<number, number>(); // kept original location -> new id
  const addLocation = (orig: number): number => {
    if (locations.length >= maxLocations) throw new PathExplosionError(maxLocations, 'the number of loop-body paths');
    const id = locations.length;
    const o = proc.locations[orig]!;
    locations.push({ ...o, id, loopHeader: kept.has(orig) ? o.loopHeader || headers.has(orig) : false });
    original.push(orig);
    return id;
  };
  for (const k of [...kept].sort((a, b) => a - b)) newId.set(k, addLocation(k));

  // Trie node bookkeeping, to place cut-points afterwards.
  interface TrieNode { id: number; children: TrieNode[]; headerLeaves: number; leafIsHeader: boolean }
  const cutpoints = new Set<number>([newId.get(proc.entry)!, newId.get(proc.exit)!]);

  for (const root of [...kept].sort((a, b) => a - b)) {
    // Unfold the acyclic region after `root` until the next kept location.
    const rootNode: TrieNode = { id: newId.get(root)!, children: [], headerLeaves: 0, leafIsHeader: false };
    // Depth-first, with an explicit stack (a straight-line region is as deep as it is long): each
    // successor's copy is made before its subtree and its edge added after it, as a recursion would.
    interface Frame { readonly orig: number; readonly node: TrieNode; next: number; pending: { readonly edge: Edge; readonly child: TrieNode } | null }
    const onPath = new Set<number>();
    const stack: Frame[] = [{ orig: root, node: rootNode, next: 0, pending: null }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (frame.pending) {
        const { edge: e, child } = frame.pending;
        frame.pending = null;
        onPath.delete(e.to);
        child.headerLeaves = child.children.reduce((s, c) => s + c.headerLeaves, 0);
        edges.push({ ...e, id: edges.length, from: frame.node.id, to: child.id });
        frame.node.children.push(child);
        continue;
      }
      const out = succ[frame.orig]!;
      if (frame.next >= out.length) {
        stack.pop();
        continue;
      }
      const e = out[frame.next++]!;
      if (kept.has(e.to)) {
        const child = { id: newId.get(e.to)!, children: [], headerLeaves: headers.has(e.to) ? 1 : 0, leafIsHeader: headers.has(e.to) };
        edges.push({ ...e, id: edges.length, from: frame.node.id, to: child.id });
        frame.node.children.push(child);
        continue;
      }
      if (onPath.has(e.to)) throw new Error(`internal: cycle through ${e.to} avoids every loop header`);
      const child: TrieNode = { id: addLocation(e.to), children: [], headerLeaves: 0, leafIsHeader: false };
      onPath.add(e.to);
      frame.pending = { edge: e, child };
      stack.push({ orig: e.to, node: child, next: 0, pending: null });
    }
    // One cut-point per cyclic path: the first node below the root whose subtree holds exactly one
    // path that returns to a header.
    if (root !== proc.entry || headers.has(root)) {
      const open = [rootNode];
      while (open.length > 0) {
        for (const c of open.pop()!.children) {
          if (c.headerLeaves === 0) continue;
          if (c.headerLeaves === 1) cutpoints.add(c.id);
          else open.push(c);
        }
      }
    }
  }
  const expanded: Procedure = {
    ...proc,
    entry: newId.get(proc.entry)!,
    exit: newId.get(proc.exit)!,
    locations,
    edges,
  };
  return { strategy: 'paths', proc: expanded, cutpoints: [...cutpoints].sort((a, b) => a - b), original };
}
