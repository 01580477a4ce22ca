// The loops of a procedure's control-flow graph, as structured C makes them: their heads in source
// order, the back edges that close them, the natural loop of each head, and the edges that enter its
// body. Shared by the counter instrumentation (bounds, cex), the ranking functions and the claim
// guard of loop bounds.
import { locationPos, type Edge, type Procedure } from '../ir/cfg.js';
import { loopHeaders, successors } from './cutset.js';

/** The loop heads of `proc` in source order. */
export function loopsOf(proc: Procedure): number[] {
  return [...loopHeaders(proc)].sort((a, b) => posKey(proc, a) - posKey(proc, b));
}

/**
 * The edges that enter the loop's body: from the location where the loop's condition is decided into
 * the body. That location is the head, or past the head's straight-line prefix of overflow premises
 * and skips (`while (x + y > 0)` checks that x + y does not overflow before it tests it): an
 * increment on the premise would count an iteration on the run that then leaves the loop.
 */
export function bodyEntryEdges(proc: Procedure, header: number, body: ReadonlySet<number>): Edge[] {
  const out = (loc: number): Edge[] => proc.edges.filter((e) => e.from === loc);
  let decision = header;
  const seen = new Set([header]);
  for (;;) {
    const edges = out(decision);
    const only = edges.length === 1 ? edges[0]! : undefined;
    const passes = only && ((only.stmt.kind === 'assume' && only.stmt.premise) || only.stmt.kind === 'skip');
    if (!only || !passes || !body.has(only.to) || seen.has(only.to)) break;
    decision = only.to;
    seen.add(decision);
  }
  return out(decision).filter((e) => body.has(e.to));
}

/** Edges u → h found closing a cycle by a depth-first search from the entry (structured C: the back edges). */
export function backEdges(proc: Procedure): Set<number> {
  const succ = successors(proc);
  const state = new Uint8Array(proc.locations.length);
  const out = new Set<number>();
  const stack: { loc: number; next: number }[] = [{ loc: proc.entry, next: 0 }];
  state[proc.entry] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const edge = succ[top.loc]![top.next++];
    if (!edge) {
      state[top.loc] = 2;
      stack.pop();
      continue;
    }
    if (state[edge.to] === 1) out.add(edge.id);
    else if (state[edge.to] === 0) {
      state[edge.to] = 1;
      stack.push({ loc: edge.to, next: 0 });
    }
  }
  return out;
}

/** The head plus every location that reaches one of its back edges without passing the head. */
export function naturalLoop(proc: Procedure, header: number, back: ReadonlySet<number>): Set<number> {
  const body = new Set([header]);
  const work = proc.edges.filter((e) => back.has(e.id) && e.to === header).map((e) => e.from);
  while (work.length > 0) {
    const loc = work.pop()!;
    if (body.has(loc)) continue;
    body.add(loc);
    for (const e of proc.edges) if (e.to === loc) work.push(e.from);
  }
  return body;
}

function posKey(proc: Procedure, loc: number): number {
  const p = locationPos(proc, loc);
  return p.line * 10_000 + p.col;
}
