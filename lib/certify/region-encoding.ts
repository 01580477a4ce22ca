// Large-block encoding of one cut-point region into z3 (linear integer arithmetic).
// Rather than enumerating the paths of the region (exponential in a chain of if/else), every node
// gets a boolean "reached", every edge a boolean "taken", and variables get SSA versions: an edge's
// assignment or havoc defines a fresh version, and where edges merge, a variable whose versions
// differ gets a fresh phi version equal to the taken edge's. Any model therefore contains a real
// path from the cut-point (follow taken edges backwards from a reached node: each taken edge's
// statement holds on the path's values), and every real path gives a model (take exactly its
// edges). The encoding is linear in the size of the region.
import type { Edge } from '../ir/cfg.js';
import type { Formula } from '../ir/formula.js';
import type { Region } from './cut-regions.js';
import { formulaToSmt, linearToSmt, lookup, numeral, symbolsFor } from './lia.js';
import type { LiaModel, LiaSolver } from './lia-solver.js';

/** Per summarised callee: its parameters, the name of its return value, and its pre/post pairs. */
export type CallSummaries = ReadonlyMap<string, {
  readonly params: readonly string[];
  readonly returnName: string;
  readonly pairs: readonly { readonly pre: Formula; readonly post: Formula }[];
}>;

/** A region node: the starting cut-point, an interior location, or a cut-point reached as a target. */
export type NodeKey = 'start' | `inner:${number}` | `target:${number}`;

/** Program variable → SMT symbol of its SSA version at a node. */
export type VersionEnv = ReadonlyMap<string, string>;

export interface NodeEncoding {
  /** SMT boolean term: the node is on the path. */
  readonly reached: string;
  readonly env: VersionEnv;
}

export interface RegionEncoding {
  readonly region: Region;
  readonly nodes: ReadonlyMap<NodeKey, NodeEncoding>;
  /** Edge id → SMT boolean symbol: the edge is on the path. */
  readonly taken: ReadonlyMap<number, string>;
  readonly sourceOf: (edge: Edge) => NodeKey;
  readonly targetOf: (edge: Edge) => NodeKey;
}

/** How encodeRegion reads the region, for a caller other than the certificate check. */
export interface RegionEncodingOptions {
  /** The start node as another encoding left it (the bounded model checker's unrolling chains
   * region copies: lib/falsify). Default: fresh symbols, reached, under `startAssumption`. */
  readonly start?: NodeEncoding;
  /** Assume the absence of signed overflow too: real runs stop where it fails, so a search for
   * real runs (not a proof) keeps only those. */
  readonly premises?: boolean;
  /** 'assume-guarantee' (default): a call returns a value that meets every pair whose pre-condition
   * holds (what a proof may assume). 'under': only a value that meets one pair's pre- and
   * post-condition together, an under-approximation for a search for real runs. */
  readonly calls?: 'assume-guarantee' | 'under';
  /** Filled with the fresh symbol of each havoc edge's value, by edge id. */
  readonly havocs?: Map<number, string>;
}

/**
 * Assert the region's transitions in `solver`, assuming `startAssumption` at the start.
 * `variables` are all program variables the region may touch.
 */
export function encodeRegion(
  solver: LiaSolver,
  region: Region,
  cutPoints: ReadonlySet<number>,
  variables: readonly string[],
  startAssumption: Formula,
  calls: CallSummaries = new Map(),
  options: RegionEncodingOptions = {},
): RegionEncoding {
  const sourceOf = (edge: Edge): NodeKey => (edge.from === region.start ? 'start' : `inner:${edge.from}`);
  const targetOf = (edge: Edge): NodeKey => (cutPoints.has(edge.to) ? `target:${edge.to}` : `inner:${edge.to}`);

  const start = options.start ?? { reached: 'true', env: symbolsFor(solver, variables) };
  if (!options.start) solver.assert(formulaToSmt(startAssumption, lookup(start.env)));
  const nodes = new Map<NodeKey, NodeEncoding>([['start', start]]);
  const taken = new Map<number, string>();
  const arriving = new Map<NodeKey, { taken: string; env: VersionEnv }[]>();

  const merge = (key: NodeKey): void => {
    const incoming = arriving.get(key) ?? [];
    const reached = solver.boolSymbol();
    const anyTaken = incoming.length === 0 ? 'false' : incoming.length === 1 ? incoming[0]!.taken : `(or ${incoming.map((i) => i.taken).join(' ')})`;
    solver.assert(`(= ${reached} ${anyTaken})`);
    const env = new Map<string, string>();
    for (const v of variables) {
      const versions = incoming.map((i) => i.env.get(v)!);
      const first = versions[0];
      if (first !== undefined && versions.every((s) => s === first)) {
        env.set(v, first);
        continue;
      }
      const phi = solver.intSymbol();
      for (const i of incoming) solver.assert(`(=> ${i.taken} (= ${phi} ${i.env.get(v)!}))`);
      env.set(v, phi);
    }
    nodes.set(key, { reached, env });
  };

  const encodeStatement = (edge: Edge, env: VersionEnv, takenEdge: string): VersionEnv => {
    const stmt = edge.stmt;
    switch (stmt.kind) {
      case 'skip':
        return env;
      case 'assign': {
        // A fresh version defined unconditionally: it is only observed through merges guarded by this edge.
        const next = solver.intSymbol();
        solver.assert(`(= ${next} ${linearToSmt(stmt.expr, lookup(env))})`);
        return new Map(env).set(stmt.target, next);
      }
      case 'havoc': {
        const next = solver.intSymbol();
        // The C type's range is what real runs produce, so assuming it is exact, not an over-approximation.
        if (stmt.range) solver.assert(`(and (>= ${next} ${numeral(stmt.range.lo)}) (<= ${next} ${numeral(stmt.range.hi)}))`);
        options.havocs?.set(edge.id, next);
        return new Map(env).set(stmt.target, next);
      }
      case 'assume':
      case 'assert':
        // The absence of signed overflow is a premise no certificate depends on.
        if (stmt.kind === 'assume' && stmt.premise && !options.premises) return env;
        // Execution continues past an assert only where it holds; whether it always holds is a
        // separate 'safety' obligation.
        solver.assert(`(=> ${takenEdge} ${formulaToSmt(stmt.cond, lookup(env))})`);
        return env;
      case 'call': {
        // v := P(u) is v := ?; assume(⋀_i (A_i[u/x] ⇒ B_i[u/x, v/ret])); globals keep their values
        // (summarised procedures write none, checked by the caller).
        const summary = calls.get(stmt.callee);
        if (summary === undefined) throw new Error(`region encoding: call of '${stmt.callee}' has no summary`);
        const before = lookup(env);
        const args = new Map(summary.params.map((p, k) => [p, linearToSmt(stmt.args[k]!, before)] as const));
        const result = solver.intSymbol();
        const symbolOf = (v: string): string => (v === summary.returnName ? result : args.get(v) ?? before(v));
        if (options.calls === 'under') {
          const cases = summary.pairs.map((p) => `(and ${formulaToSmt(p.pre, symbolOf)} ${formulaToSmt(p.post, symbolOf)})`);
          solver.assert(`(=> ${takenEdge} ${cases.length === 0 ? 'false' : cases.length === 1 ? cases[0]! : `(or ${cases.join(' ')})`})`);
        } else {
          const pairs = summary.pairs.map((p) => `(=> ${formulaToSmt(p.pre, symbolOf)} ${formulaToSmt(p.post, symbolOf)})`);
          if (pairs.length > 0) solver.assert(`(=> ${takenEdge} (and ${pairs.join(' ')}))`);
        }
        return stmt.target === null ? env : new Map(env).set(stmt.target, result);
      }
    }
  };

  // region.edges come grouped by source in topological order, so every edge into a node is
  // encoded before the node is merged and its own edges are encoded; targets are merged last.
  for (const edge of region.edges) {
    const source = sourceOf(edge);
    if (!nodes.has(source)) merge(source);
    const from = nodes.get(source)!;
    const takenEdge = solver.boolSymbol();
    taken.set(edge.id, takenEdge);
    solver.assert(`(=> ${takenEdge} ${from.reached})`);
    const env = encodeStatement(edge, from.env, takenEdge);
    const dest = targetOf(edge);
    const list = arriving.get(dest) ?? [];
    list.push({ taken: takenEdge, env });
    arriving.set(dest, list);
  }
  for (const loc of region.interior) if (!nodes.has(`inner:${loc}`)) merge(`inner:${loc}`);
  for (const loc of region.targets) merge(`target:${loc}`);

  return { region, nodes, taken, sourceOf, targetOf };
}

/** "The node is reached and the formula is false there": satisfiable exactly when the obligation fails. */
export function violationAt(node: NodeEncoding, formula: Formula): string {
  return `(and ${node.reached} (not ${formulaToSmt(formula, lookup(node.env))}))`;
}

export function envValues(model: LiaModel, env: VersionEnv): Map<string, bigint> {
  return new Map([...env.keys()].sort().map((v) => [v, model.int(env.get(v)!)] as const));
}

/** The edges of a path the model takes from the start to `key` (IR edge ids, in execution order). */
export function pathTo(model: LiaModel, encoding: RegionEncoding, key: NodeKey): number[] {
  const into = new Map<NodeKey, Edge[]>();
  for (const edge of encoding.region.edges) {
    const dest = encoding.targetOf(edge);
    const list = into.get(dest) ?? [];
    list.push(edge);
    into.set(dest, list);
  }
  const path: number[] = [];
  // The region is acyclic and a reached node has a taken incoming edge, so walking back ends at the start.
  for (let current = key; current !== 'start'; ) {
    const edge = (into.get(current) ?? []).find((e) => model.bool(encoding.taken.get(e.id)!));
    if (edge === undefined) break;
    path.push(edge.id);
    current = encoding.sourceOf(edge);
  }
  return path.reverse();
}
