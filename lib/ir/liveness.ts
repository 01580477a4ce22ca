// Live variables per location (classic backward may-dataflow). A variable is live at a location when
// some path from there reads it before writing it. Engines use it to keep invariant templates small
// (only live variables at a cut-point); the inliner uses it to know which callee locals need their
// frame's initial value.
import type { Procedure, Program, Stmt } from './cfg.js';
import * as F from './formula.js';
import * as L from './linear.js';

export interface EdgeEffect {
  readonly uses: readonly string[];
  readonly defs: readonly string[];
}

/** What an edge reads and (certainly) overwrites. A call reads its arguments and, because the callee
 * may read any global, every global; it overwrites only its target (the callee may or may not write a
 * global, so globals are not killed). */
export function edgeEffect(stmt: Stmt, globals: readonly string[]): EdgeEffect {
  switch (stmt.kind) {
    case 'assign': return { uses: L.variablesOf(stmt.expr), defs: [stmt.target] };
    case 'havoc': return { uses: [], defs: [stmt.target] };
    case 'assume':
      // An overflow premise is checked by concrete runs only: it makes nothing live for the analyses.
      return { uses: stmt.premise ? [] : [...F.variablesOf(stmt.cond)], defs: [] };
    case 'assert': return { uses: [...F.variablesOf(stmt.cond)], defs: [] };
    case 'call': return { uses: [...stmt.args.flatMap(L.variablesOf), ...globals], defs: stmt.target === null ? [] : [stmt.target] };
    case 'skip': return { uses: [], defs: [] };
  }
}

/** Live-in set of every location of `proc` (keyed by location id). At the exit the return variable
 * and every global are live (the caller sees them). `strong`: an assignment reads its expression
 * only when its target is live after it, so variables that are only copied into variables nothing
 * reads (faint ones) are not live. */
export function liveVariables(program: Program, proc: Procedure, options: { readonly strong?: boolean } = {}): Map<number, Set<string>> {
  const globals = program.globals.map((g) => g.name);
  const live = new Map<number, Set<string>>(proc.locations.map((l) => [l.id, new Set<string>()]));
  const atExit = live.get(proc.exit)!;
  for (const g of globals) atExit.add(g);
  if (proc.returnVar !== null) atExit.add(proc.returnVar);

  const effects = proc.edges.map((e) => edgeEffect(e.stmt, globals));
  const incomingOf = new Map<number, number[]>(proc.locations.map((l) => [l.id, []]));
  for (const e of proc.edges) incomingOf.get(e.to)!.push(e.id);

  // Worklist over locations whose live set grew; a predecessor is revisited when its successor grows.
  const worklist = [...proc.locations.map((l) => l.id)].reverse();
  const queued = new Set(worklist);
  while (worklist.length > 0) {
    const loc = worklist.pop()!;
    queued.delete(loc);
    const liveHere = live.get(loc)!;
    for (const edgeId of incomingOf.get(loc)!) {
      const edge = proc.edges[edgeId]!;
      const { uses, defs } = effects[edgeId]!;
      const before = live.get(edge.from)!;
      const size = before.size;
      for (const v of liveHere) if (!defs.includes(v)) before.add(v);
      if (!(options.strong && edge.stmt.kind === 'assign' && !liveHere.has(edge.stmt.target))) for (const v of uses) before.add(v);
      if (before.size > size && !queued.has(edge.from)) {
        queued.add(edge.from);
        worklist.push(edge.from);
      }
    }
  }
  return live;
}
