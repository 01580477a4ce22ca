// Counter instrumentation for bounds (paper 004, Section 6.1, Claim 1), as a real IR rewrite that
// `farkas bounds --show-instrumented` prints: for each loop of the analysed function,
//   counter := 0 on every edge that enters the loop from outside,
//   counter := counter + 1; assert(counter <= bound) on every edge from the head into the body,
// so the assertion holds on every run iff the loop's body is entered at most `bound` times per entry
// into the loop. The bound is over the function's inputs: parameters the function assigns are read
// from ghost copies taken at the entry. Assertions of the original program become assumptions (a run
// that fails one stops; termination is about the runs that go on) — except for conditional bounds,
// whose preconditions must also keep the original assertions (paper's Fig. 9: x0 < y0 is part of it).
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { locationPos, type Edge, type Location, type Procedure, type Program, type SourcePos, type Stmt } from '../ir/cfg.js';
import { backEdges, bodyEntryEdges, loopsOf, naturalLoop } from '../vc/loops.js';

export interface CountedLoop {
  /** Head of the loop in the original procedure. */
  readonly header: number;
  readonly line: number;
  readonly col: number;
  readonly counter: string;
  /** Locations just after the increments in the instrumented procedure (where the bound is asserted):
   * one per edge from the head into the body, and a head may have several (a condition whose C
   * arithmetic wraps around splits into cases right at the head). */
  readonly afterIncrements: readonly number[];
}

export interface CounterInstrumentation {
  readonly program: Program;
  readonly function: string;
  readonly loops: readonly CountedLoop[];
  /** Parameter → the variable holding its value at the entry (itself when the function never assigns it). */
  readonly inputs: ReadonlyMap<string, string>;
}

/**
 * Counters on every loop of `fn`; `bounds` gives the asserted bound of a loop (by header), over the
 * parameters (they are renamed to the entry copies here). Loops without one are only counted.
 */
export function withIterationCounters(
  program: Program,
  fn: string,
  bounds: ReadonlyMap<number, Linear> = new Map(),
  options: { keepAssertions?: boolean; assumeAtEntry?: F.Formula } = {},
): CounterInstrumentation {
  const proc = program.procedures.get(fn)!;
  const taken = new Set([...program.globals.map((g) => g.name), ...proc.params, ...proc.locals]);
  const fresh = (base: string): string => {
    let name = base;
    for (let k = 1; taken.has(name); k++) name = `${base}${k}`;
    taken.add(name);
    return name;
  };
  const assigned = new Set(proc.edges.flatMap((e) => (e.stmt.kind === 'assign' || e.stmt.kind === 'havoc' || (e.stmt.kind === 'call' && e.stmt.target) ? [(e.stmt as { target: string }).target] : [])));
  const inputs = new Map(proc.params.map((p) => [p, assigned.has(p) ? fresh(`${p}_in`) : p] as const));
  const toInputs = new Map([...inputs].filter(([p, g]) => p !== g).map(([p, g]) => [p, L.variable(g)] as const));

  const locations: Location[] = proc.locations.map((l) => ({ ...l }));
  const edges: Edge[] = [];
  const newLocation = (): number => {
    locations.push({ id: locations.length, loopHeader: false });
    return locations.length - 1;
  };
  const push = (from: number, to: number, stmt: Stmt, pos: SourcePos): void => {
    edges.push({ id: edges.length, from, to, stmt, pos });
  };
  /** from --stmts[0]--> … --stmts[n-1]--> to, through fresh locations; returns the n + 1 locations in order. */
  const chain = (from: number, to: number, stmts: readonly Stmt[], pos: SourcePos): number[] => {
    const points = [from];
    for (let i = 0; i < stmts.length - 1; i++) points.push(newLocation());
    points.push(to);
    stmts.forEach((s, i) => push(points[i]!, points[i + 1]!, s, pos));
    return points;
  };

  const headers = loopsOf(proc);
  const back = backEdges(proc);
  const loops: CountedLoop[] = [];
  const entering = new Map<number, { header: number; counter: string }>(); // edge id → loop it enters
  const intoBody = new Map<number, { header: number; counter: string }>();
  for (const h of headers) {
    const counter = fresh(`iterations_${posOf(proc, h).line}`);
    const body = naturalLoop(proc, h, back);
    for (const e of proc.edges) if (e.to === h && !back.has(e.id)) entering.set(e.id, { header: h, counter });
    for (const e of bodyEntryEdges(proc, h, body)) intoBody.set(e.id, { header: h, counter });
    loops.push({ header: h, line: posOf(proc, h).line, col: posOf(proc, h).col, counter, afterIncrements: [] });
  }
  const afterIncrements = new Map<number, number[]>();
  const newEntry = newLocation();
  const ghostCopies: Stmt[] = [...inputs].filter(([p, g]) => p !== g).map(([p, g]) => ({ kind: 'assign', target: g, expr: L.variable(p) }));
  // A case of a case-split bound: the runs whose inputs satisfy the case (over the parameters, read
  // before anything assigns them).
  const assumed: Stmt[] = options.assumeAtEntry ? [{ kind: 'assume', cond: options.assumeAtEntry }] : [];
  const atEntry = [...assumed, ...ghostCopies];
  chain(newEntry, proc.entry, atEntry.length > 0 ? atEntry : [{ kind: 'skip' }], proc.pos);
  for (const e of proc.edges) {
    const stmt: Stmt = e.stmt.kind === 'assert' && !options.keepAssertions ? { kind: 'assume', cond: e.stmt.cond } : e.stmt;
    // One edge may do both: from an outer loop's head straight into an inner loop's head it enters
    // the outer body (an iteration of the outer loop) and the inner loop (a fresh count there).
    const enters = entering.get(e.id);
    const increments = enters && program.faultForTests === 'outer-increment-dropped' ? undefined : intoBody.get(e.id);
    if (!enters && !increments) {
      push(e.from, e.to, stmt, e.pos);
      continue;
    }
    const counting: Stmt[] = [];
    if (increments) {
      const c = L.variable(increments.counter);
      const bound = bounds.get(increments.header);
      counting.push({ kind: 'assign', target: increments.counter, expr: L.addConstant(c, 1n) });
      if (bound) counting.push({ kind: 'assert', cond: F.compare(c, '<=', L.substitute(bound, toInputs)) });
    }
    if (enters) counting.push({ kind: 'assign', target: enters.counter, expr: L.constant(0n) });
    // A havoc goes last: the assumption after it may pin its value (the front end's quotients and
    // wrap-around counts), which concrete runs take only from a havoc followed directly by that
    // assumption (lib/interpreter/compile.ts); a run would take a stream value there instead and block.
    // The counting reads only counters and the inputs' entry copies, so it may come first.
    const havocLast = stmt.kind === 'havoc';
    const stmts: Stmt[] = havocLast ? [...counting, stmt] : [stmt, ...counting];
    // A skip at the end keeps a location after the increment even when nothing else follows it.
    if (increments && stmts.length === 2 && !havocLast) stmts.push({ kind: 'skip' });
    const points = chain(e.from, e.to, stmts, e.pos);
    if (increments) afterIncrements.set(increments.header, [...(afterIncrements.get(increments.header) ?? []), points[havocLast ? 1 : 2]!]);
  }
  const counters = loops.map((l) => l.counter);
  const ghosts = [...inputs.values()].filter((g) => !proc.params.includes(g));
  const instrumented: Procedure = { ...proc, locals: [...proc.locals, ...ghosts, ...counters], locations, edges, entry: newEntry };
  const relabelled: Location[] = locations.map((l) => (l.id === proc.entry ? { ...l, label: undefined } as Location : l.id === newEntry ? { ...l, label: 'entry' } : l));
  const procedures = new Map(program.procedures);
  procedures.set(fn, { ...instrumented, locations: relabelled });
  return {
    program: { ...program, procedures },
    function: fn,
    loops: loops.map((l) => ({ ...l, afterIncrements: afterIncrements.get(l.header) ?? [] })),
    inputs,
  };
}

function posOf(proc: Procedure, loc: number): SourcePos {
  return locationPos(proc, loc);
}
