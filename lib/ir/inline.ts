// Call inlining for the intraprocedural engine: every call (transitively) from the entry procedure to a
// procedure that is not (mutually) recursive is replaced by a fresh copy of the callee's CFG.
//
// A call edge `A --[t := g(a1..an)]--> B` becomes
//   A --[g__k__p1 := a1]--> … --[g__k__pn := an]--> … (locals the callee reads before writing := 0)
//     --> copy of g's CFG (variables renamed g__k__v, globals shared) --> copy of g's exit
//     --[t := g__k__ret]--> B
// which is exactly what the interpreter does with a fresh frame (parameters bound by value, other
// frame slots 0). The first new edge keeps the call edge's id, and the rest are appended in the callee's
// edge order, so the relative order of edges leaving a choice location — which decides a choice — is
// unchanged. New edges carry the call's source position; copied edges keep theirs.
import type { Edge, Location, Procedure, Program, Stmt } from './cfg.js';
import * as F from './formula.js';
import * as L from './linear.js';
import { liveVariables } from './liveness.js';
import { faultyForTests } from './faults.js';

export interface RemainingCall {
  /** The call edge in the inlined entry procedure. */
  readonly edge: Edge;
  readonly callee: string;
}

export interface InlineResult {
  /** Same globals and procedures, with `entry` as the entry procedure and its inlinable calls inlined. */
  readonly program: Program;
  /** Calls that stay because the callee is (mutually) recursive. */
  readonly recursiveCalls: readonly RemainingCall[];
}

/** Procedures on a cycle of the call graph (including direct self-recursion). */
export function recursiveProcedures(program: Program): Set<string> {
  const callees = new Map<string, Set<string>>();
  for (const [name, proc] of program.procedures) {
    callees.set(name, new Set(proc.edges.flatMap((e) => (e.stmt.kind === 'call' ? [e.stmt.callee] : []))));
  }
  const recursive = new Set<string>();
  for (const start of program.procedures.keys()) {
    // start is recursive iff it reaches itself.
    const seen = new Set<string>();
    const stack = [...(callees.get(start) ?? [])];
    while (stack.length > 0) {
      const p = stack.pop()!;
      if (p === start) {
        recursive.add(start);
        break;
      }
      if (seen.has(p)) continue;
      seen.add(p);
      stack.push(...(callees.get(p) ?? []));
    }
  }
  return recursive;
}

function renameFormula(f: F.Formula, r: (v: string) => string): F.Formula {
  return F.mapAtoms(f, (rel, e) => (rel === '>=' ? F.geqZero(L.rename(e, r)) : F.eqZero(L.rename(e, r))));
}

function renameStmt(s: Stmt, r: (v: string) => string): Stmt {
  switch (s.kind) {
    case 'assign': return { kind: 'assign', target: r(s.target), expr: L.rename(s.expr, r) };
    case 'havoc': return { ...s, target: r(s.target) };
    case 'assume':
    case 'assert': return { ...s, cond: renameFormula(s.cond, r) };
    case 'call': return { kind: 'call', target: s.target === null ? null : r(s.target), callee: s.callee, args: s.args.map((a) => L.rename(a, r)) };
    case 'skip': return s;
  }
}

/** Replaces call edge `callId` of `caller` by an inlined copy of `callee`. */
function inlineOne(program: Program, caller: Procedure, callId: number, callee: Procedure, taken: Set<string>, instance: number): Procedure {
  const call = caller.edges[callId]!;
  if (call.stmt.kind !== 'call') throw new Error(`internal: edge ${callId} of ${caller.name} is not a call`);
  const { target, args } = call.stmt;
  if (args.length !== callee.params.length) {
    throw new Error(`internal IR error: ${caller.name} calls ${callee.name} with ${args.length} arguments, it has ${callee.params.length} parameters`);
  }
  if (target !== null && callee.returnVar === null) {
    throw new Error(`internal IR error: ${caller.name} uses the result of ${callee.name}, which returns no value`);
  }

  const globals = new Set(program.globals.map((g) => g.name));
  const frameVars = [...callee.params, ...callee.locals];
  if (callee.returnVar !== null && !frameVars.includes(callee.returnVar)) frameVars.push(callee.returnVar);
  const renaming = new Map<string, string>();
  for (const v of frameVars) {
    let fresh = `${callee.name}__${instance}__${v}`;
    for (let k = 1; taken.has(fresh); k++) fresh = `${callee.name}__${instance}_${k}__${v}`;
    taken.add(fresh);
    renaming.set(v, fresh);
  }
  const r = (v: string): string => renaming.get(v) ?? (globals.has(v) ? v : unknownVariable(v, callee));

  const locations: Location[] = [...caller.locations];
  const edges: Edge[] = [...caller.edges];
  const newLocation = (loc: Omit<Location, 'id'>): number => {
    const id = locations.length;
    locations.push({ ...loc, id });
    return id;
  };
  // Copies of the callee's locations, flags (loop header, choice) preserved.
  const offset = locations.length;
  for (const loc of callee.locations) {
    const copy: Location = { ...loc, id: offset + loc.id, label: `${callee.name}:${loc.label ?? loc.id}` };
    locations.push(copy);
  }
  const copyOf = (id: number): number => offset + id;

  // Prologue: bind parameters, reset the locals the callee may read before writing.
  const liveAtEntry = liveVariables(program, callee).get(callee.entry)!;
  const prologue: Stmt[] = callee.params.map((p, i) => ({ kind: 'assign', target: r(p), expr: args[i]! }));
  for (const v of frameVars) {
    if (!callee.params.includes(v) && liveAtEntry.has(v)) prologue.push({ kind: 'assign', target: r(v), expr: L.constant(0n) });
  }
  if (prologue.length === 0) prologue.push({ kind: 'skip' });
  let from = call.from;
  for (const [i, s] of prologue.entries()) {
    const to = i === prologue.length - 1 ? copyOf(callee.entry) : newLocation({ loopHeader: false, label: `call ${callee.name}`, pos: call.pos });
    const id = i === 0 ? call.id : edges.length;
    edges[id] = { id, from, to, stmt: s, pos: call.pos };
    from = to;
  }
  for (const e of callee.edges) {
    const id = edges.length;
    edges.push({ id, from: copyOf(e.from), to: copyOf(e.to), stmt: renameStmt(e.stmt, r), pos: e.pos });
  }
  const epilogue: Stmt = target !== null ? { kind: 'assign', target, expr: L.variable(r(callee.returnVar!)) } : { kind: 'skip' };
  edges.push({ id: edges.length, from: copyOf(callee.exit), to: call.to, stmt: epilogue, pos: call.pos });

  return {
    ...caller,
    locals: [...caller.locals, ...frameVars.map(r)],
    locations,
    edges,
  };
}

function unknownVariable(v: string, proc: Procedure): never {
  throw new Error(`internal IR error: variable '${v}' is not in scope in procedure ${proc.name}`);
}

/** Inlines every call to a non-recursive procedure into `entry` (transitively). */
export function inlineCalls(program: Program, entry: string = program.entry): InlineResult {
  const root = program.procedures.get(entry);
  if (!root) throw new Error(`inlineCalls: no procedure named ${entry}`);
  const recursive = recursiveProcedures(program);
  const taken = new Set<string>([...program.globals.map((g) => g.name), ...root.params, ...root.locals]);
  if (root.returnVar !== null) taken.add(root.returnVar);
  let proc = root;
  let instance = 0;
  // Each round inlines the lowest-id remaining inlinable call; copied callee bodies are appended,
  // so their own calls are found in later rounds. Terminates: only non-recursive callees are expanded.
  for (;;) {
    const next = proc.edges.find((e) => e.stmt.kind === 'call' && !recursive.has(e.stmt.callee));
    if (!next || next.stmt.kind !== 'call') break;
    const callee = program.procedures.get(next.stmt.callee);
    if (!callee) throw new Error(`internal IR error: ${entry} calls undefined procedure ${next.stmt.callee}`);
    proc = inlineOne(program, proc, next.id, callee, taken, ++instance);
  }
  proc = faultyForTests(program, proc);
  const procedures = new Map(program.procedures);
  procedures.set(entry, proc);
  const recursiveCalls = proc.edges.flatMap((e) => (e.stmt.kind === 'call' ? [{ edge: e, callee: e.stmt.callee }] : []));
  return { program: { ...program, procedures, entry }, recursiveCalls };
}
