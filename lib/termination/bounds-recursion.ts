// Bounds for recursive procedures (paper 004, Section 6.1): a global counter per recursive procedure P,
// incremented on every entry into P. A wrapper procedure resets the counters, sets a ghost global
// `calls_limit_P` to the bound, and calls the analysed function once; each entry into P asserts
// `calls_P <= calls_limit_P`: the bound is on the number of calls to P during one call of the
// function, over the function's parameters, and holds on runs that never return too. Proved by `verify` with
// procedure summaries (the counter is a global the recursion writes), certified like any proof.
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { Edge, Location, Procedure, Program, Stmt } from '../ir/cfg.js';

export interface CallCounters {
  readonly program: Program;
  /** The wrapper procedure to analyse. */
  readonly wrapper: string;
  /** Recursive procedure → its global counter and the wrapper's local copy of it after the call. */
  readonly counters: ReadonlyMap<string, { readonly global: string; readonly observed: string }>;
}

export function withCallCounters(program: Program, fn: string, recursive: readonly string[], bounds: ReadonlyMap<string, Linear> = new Map(), precondition: F.Formula = F.TRUE): CallCounters {
  const target = program.procedures.get(fn)!;
  const taken = new Set([...program.globals.map((g) => g.name), ...[...program.procedures.values()].flatMap((p) => [...p.params, ...p.locals]), ...program.procedures.keys()]);
  const fresh = (base: string): string => {
    let name = base;
    for (let k = 1; taken.has(name); k++) name = `${base}${k}`;
    taken.add(name);
    return name;
  };
  const counters = new Map(recursive.map((p) => [p, { global: fresh(`calls_${p}`), observed: fresh(`observed_calls_${p}`) }] as const));
  const limits = new Map([...bounds.keys()].map((p) => [p, fresh(`calls_limit_${p}`)] as const));
  const procedures = new Map(program.procedures);
  for (const [p, { global }] of counters) {
    const proc = program.procedures.get(p)!;
    const entry = proc.locations.length;
    const limit = limits.get(p);
    const locations: Location[] = [...proc.locations.map((l) => (l.id === proc.entry ? { ...l, label: undefined } as Location : l)), { id: entry, loopHeader: false, label: 'entry' }];
    const edges: Edge[] = [...proc.edges];
    const count: Stmt = { kind: 'assign', target: global, expr: L.addConstant(L.variable(global), 1n) };
    if (limit === undefined) {
      edges.push({ id: edges.length, from: entry, to: proc.entry, stmt: count, pos: proc.pos });
    } else {
      // Checked on every entry, not after the call returns: a recursion that never returns makes
      // more calls than any bound, and must fail here rather than pass vacuously.
      const counted = locations.length;
      locations.push({ id: counted, loopHeader: false });
      edges.push({ id: edges.length, from: entry, to: counted, stmt: count, pos: proc.pos });
      edges.push({ id: edges.length, from: counted, to: proc.entry, stmt: { kind: 'assert', cond: F.compare(L.variable(global), '<=', L.variable(limit)) }, pos: proc.pos });
    }
    procedures.set(p, { ...proc, locations, edges, entry });
  }
  const wrapper = fresh(`bounds_${fn}`);
  const result = target.returnVar !== null ? fresh('result') : null;
  const stmts: Stmt[] = [
    ...(precondition === F.TRUE ? [] : [{ kind: 'assume', cond: precondition } as Stmt]),
    ...[...counters.values()].map(({ global }): Stmt => ({ kind: 'assign', target: global, expr: L.constant(0n) })),
    ...[...limits].map(([p, limit]): Stmt => ({ kind: 'assign', target: limit, expr: bounds.get(p)! })),
    { kind: 'call', target: result, callee: fn, args: target.params.map((p) => L.variable(p)) },
    ...[...counters.values()].map(({ global, observed }): Stmt => ({ kind: 'assign', target: observed, expr: L.variable(global) })),
  ];
  const locations: Location[] = stmts.map((_, i) => ({ id: i, loopHeader: false, ...(i === 0 ? { label: 'entry' } : {}) }));
  locations.push({ id: stmts.length, loopHeader: false, label: 'exit' });
  const edges: Edge[] = stmts.map((stmt, i) => ({ id: i, from: i, to: i + 1, stmt, pos: target.pos }));
  const proc: Procedure = {
    name: wrapper,
    params: [...target.params],
    locals: [...(result ? [result] : []), ...[...counters.values()].map((c) => c.observed)],
    returnVar: null,
    entry: 0,
    exit: stmts.length,
    locations,
    edges,
    pos: target.pos,
  };
  procedures.set(wrapper, proc);
  const globals = [...program.globals, ...[...counters.values()].map((c) => ({ name: c.global, init: 0n })), ...[...limits.values()].map((name) => ({ name, init: 0n }))];
  // The wrapper stands for the analysed function: when that was the program's entry, globals start at
  // their initial values in it.
  return { program: { ...program, globals, procedures, entry: program.entry === fn ? wrapper : program.entry }, wrapper, counters };
}
