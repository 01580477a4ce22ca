// Builds one procedure's control-flow graph. The lowering creates locations and edges freely
// (correctness first: a fresh location per step, skip edges for joins and jumps); `finish` then removes
// pass-through skip edges, drops code unreachable from the entry and numbers locations and edges
// densely (locations[i].id === i), keeping the creation order so a choice location's then-edge keeps
// the smaller id.
import type { Edge, Location, SourcePos, Stmt } from '../ir/cfg.js';

interface MutableLocation {
  pos?: SourcePos;
  loopHeader: boolean;
  label?: string;
  choice?: boolean;
  scope?: Readonly<Record<string, string>>;
  alive: boolean;
}

interface MutableEdge {
  from: number;
  to: number;
  readonly stmt: Stmt;
  readonly pos: SourcePos;
  alive: boolean;
}

export interface LocationOptions {
  readonly pos?: SourcePos;
  readonly label?: string;
  readonly loopHeader?: boolean;
  readonly scope?: Readonly<Record<string, string>>;
}

export interface BuiltGraph {
  readonly locations: Location[];
  readonly edges: Edge[];
  readonly entry: number;
  readonly exit: number;
}

export class CfgBuilder {
  private readonly locations: MutableLocation[] = [];
  private readonly edges: MutableEdge[] = [];

  newLocation(options: LocationOptions = {}): number {
    const loc: MutableLocation = { loopHeader: options.loopHeader ?? false, alive: true };
    if (options.pos) loc.pos = options.pos;
    if (options.label) loc.label = options.label;
    if (options.scope) loc.scope = options.scope;
    this.locations.push(loc);
    return this.locations.length - 1;
  }

  addEdge(from: number, to: number, stmt: Stmt, pos: SourcePos): void {
    this.edges.push({ from, to, stmt, pos, alive: true });
  }

  /** Marks `loc` as a non-deterministic choice: its two outgoing edges are unguarded skips, then-edge first. */
  markChoice(loc: number): void {
    this.locations[loc]!.choice = true;
  }

  outgoingCount(loc: number): number {
    return this.edges.filter((e) => e.alive && e.from === loc).length;
  }

  finish(entry: number, exit: number): BuiltGraph {
    this.removePassThroughSkips(entry, exit);
    this.removeUnreachable(entry, exit);
    return this.renumber(entry, exit);
  }

  /**
   * A skip edge A→B is dropped when it adds nothing: either A only passes control on (its single
   * outgoing edge; A's incoming edges are redirected to B), or B is only reached from A (B's outgoing
   * edges move to A). Entry, exit, loop headers and choice locations are never dissolved, and a
   * choice location's edges are never touched.
   */
  private removePassThroughSkips(entry: number, exit: number): void {
    const out = new Map<number, Set<number>>();
    const inc = new Map<number, Set<number>>();
    const setOf = (m: Map<number, Set<number>>, k: number) => {
      let s = m.get(k);
      if (!s) m.set(k, (s = new Set()));
      return s;
    };
    this.edges.forEach((e, id) => {
      setOf(out, e.from).add(id);
      setOf(inc, e.to).add(id);
    });
    let changed = true;
    while (changed) {
      changed = false;
      for (let id = 0; id < this.edges.length; id++) {
        const e = this.edges[id]!;
        if (!e.alive || e.stmt.kind !== 'skip' || e.from === e.to) continue;
        const a = e.from;
        const b = e.to;
        const locA = this.locations[a]!;
        const locB = this.locations[b]!;
        if (locA.choice) continue;
        const outA = setOf(out, a);
        if (outA.size !== 1) continue;
        if (a !== entry && !locA.loopHeader) {
          // Dissolve A: everything that entered A now enters B.
          for (const inId of [...setOf(inc, a)]) {
            this.edges[inId]!.to = b;
            setOf(inc, a).delete(inId);
            setOf(inc, b).add(inId);
          }
          locA.alive = false;
        } else if (b !== exit && b !== entry && !locB.loopHeader && !locB.choice && setOf(inc, b).size === 1) {
          // Dissolve B: A takes over B's outgoing edges.
          for (const outId of [...setOf(out, b)]) {
            this.edges[outId]!.from = a;
            setOf(out, b).delete(outId);
            setOf(out, a).add(outId);
          }
          locB.alive = false;
          if (locA.pos === undefined && locB.pos !== undefined) locA.pos = locB.pos;
        } else continue;
        e.alive = false;
        setOf(out, a).delete(id);
        setOf(inc, b).delete(id);
        changed = true;
      }
    }
  }

  private removeUnreachable(entry: number, exit: number): void {
    const reached = new Set<number>([entry]);
    const work = [entry];
    const byFrom = new Map<number, MutableEdge[]>();
    for (const e of this.edges) {
      if (!e.alive) continue;
      const list = byFrom.get(e.from);
      if (list) list.push(e);
      else byFrom.set(e.from, [e]);
    }
    while (work.length > 0) {
      const l = work.pop()!;
      for (const e of byFrom.get(l) ?? []) {
        if (!reached.has(e.to)) {
          reached.add(e.to);
          work.push(e.to);
        }
      }
    }
    this.locations.forEach((loc, id) => {
      if (!reached.has(id) && id !== exit) loc.alive = false;
    });
    for (const e of this.edges) if (!reached.has(e.from)) e.alive = false;
  }

  private renumber(entry: number, exit: number): BuiltGraph {
    // Entry first, exit last, everything else in depth-first order from the entry (following edges
    // in creation order), so a listing reads roughly like the source.
    const byFrom = new Map<number, number[]>();
    for (const e of this.edges) {
      if (!e.alive) continue;
      const list = byFrom.get(e.from);
      if (list) list.push(e.to);
      else byFrom.set(e.from, [e.to]);
    }
    const ids: number[] = [];
    const seen = new Set<number>([exit]);
    const stack = [entry];
    while (stack.length > 0) {
      const l = stack.pop()!;
      if (seen.has(l)) continue;
      seen.add(l);
      ids.push(l);
      const succ = byFrom.get(l) ?? [];
      for (let k = succ.length - 1; k >= 0; k--) if (!seen.has(succ[k]!)) stack.push(succ[k]!);
    }
    ids.push(exit);
    const newId = new Map(ids.map((old, i) => [old, i]));
    const locations: Location[] = ids.map((old, i) => {
      const l = this.locations[old]!;
      return {
        id: i,
        ...(l.pos ? { pos: l.pos } : {}),
        loopHeader: l.loopHeader,
        ...(l.label ? { label: l.label } : {}),
        ...(l.choice ? { choice: true } : {}),
        ...(l.scope ? { scope: l.scope } : {}),
      };
    });
    const edges: Edge[] = this.edges
      .filter((e) => e.alive)
      .map((e, i) => ({ id: i, from: newId.get(e.from)!, to: newId.get(e.to)!, stmt: e.stmt, pos: e.pos }));
    return { locations, edges, entry: 0, exit: ids.length - 1 };
  }
}
