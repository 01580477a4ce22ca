// Program transformations of paper 004, Section 6, as real IR rewrites (printable with `farkas cfg`-style
// output via `--show-instrumented`):
// - Claim 3 (non-termination): `assert(false)` at the single exit, so a precondition of the new program
//   is a set of inputs from which the function never returns (and no assertion fails).
// - Claim 2, B1 (most-general counterexample): an error variable; each assertion `assert(p)` becomes
//   `if (!p) { err := 1; goto end; }`, and `end: assert(err == 1)`, so a precondition of the new
//   program is a set of inputs from which an assertion of the original fails or the function never
//   returns. (B2, the loop bounds that rule out the latter, is lib/infer/counters.ts; cex.ts adds it.)
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Edge, Location, Procedure, Program } from '../ir/cfg.js';

export function withFalseAtExit(program: Program, fn: string): Program {
  const proc = program.procedures.get(fn)!;
  const locations: Location[] = [...proc.locations];
  const edges: Edge[] = [...proc.edges];
  const newExit = locations.length;
  locations.push({ id: newExit, loopHeader: false, label: 'exit' });
  edges.push({ id: edges.length, from: proc.exit, to: newExit, stmt: { kind: 'assert', cond: F.FALSE }, pos: proc.locations[proc.exit]?.pos ?? proc.pos });
  return replace(program, { ...proc, locations: relabel(locations, proc.exit), edges, exit: newExit });
}

/** Claim 2 without B1: each `assert(p)` becomes `assert(!p)` (kept to show why B1 is needed). */
export function withNegatedAssertions(program: Program, fn: string): Program {
  const proc = program.procedures.get(fn)!;
  const edges = proc.edges.map((e) => (e.stmt.kind === 'assert' ? { ...e, stmt: { kind: 'assert' as const, cond: F.not(e.stmt.cond) } } : e));
  return replace(program, { ...proc, edges });
}

export const ERROR_VARIABLE = 'err';

export function withErrorVariable(program: Program, fn: string): Program {
  const proc = program.procedures.get(fn)!;
  const err = freshName(program, proc, ERROR_VARIABLE);
  const locations: Location[] = [...proc.locations];
  const edges: Edge[] = [];
  const newLocation = (label?: string): number => {
    const id = locations.length;
    locations.push({ id, loopHeader: false, ...(label ? { label } : {}) });
    return id;
  };
  const end = newLocation('end');
  const newExit = newLocation('exit');
  const newEntry = newLocation('entry');
  const push = (from: number, to: number, stmt: Edge['stmt'], pos: Edge['pos']): void => {
    edges.push({ id: edges.length, from, to, stmt, pos });
  };
  push(newEntry, proc.entry, { kind: 'assign', target: err, expr: L.constant(0n) }, proc.pos);
  for (const e of proc.edges) {
    if (e.stmt.kind !== 'assert') {
      push(e.from, e.to, e.stmt, e.pos);
      continue;
    }
    push(e.from, e.to, { kind: 'assume', cond: e.stmt.cond }, e.pos);
    const failed = newLocation();
    push(e.from, failed, { kind: 'assume', cond: F.not(e.stmt.cond) }, e.pos);
    push(failed, end, { kind: 'assign', target: err, expr: L.constant(1n) }, e.pos);
  }
  push(proc.exit, end, { kind: 'skip' }, proc.locations[proc.exit]?.pos ?? proc.pos);
  push(end, newExit, { kind: 'assert', cond: F.eqZero(L.sub(L.variable(err), L.constant(1n))) }, proc.locations[proc.exit]?.pos ?? proc.pos);
  const relabelled = relabel(relabel(locations, proc.exit), proc.entry);
  return replace(program, { ...proc, locals: [...proc.locals, err], locations: relabelled, edges, entry: newEntry, exit: newExit });
}

function relabel(locations: Location[], old: number): Location[] {
  return locations.map((l) => (l.id === old ? { ...l, label: l.label === 'entry' || l.label === 'exit' ? undefined : l.label } : l)) as Location[];
}

function replace(program: Program, proc: Procedure): Program {
  const procedures = new Map(program.procedures);
  procedures.set(proc.name, proc);
  return { ...program, procedures };
}

function freshName(program: Program, proc: Procedure, base: string): string {
  const taken = new Set([...program.globals.map((g) => g.name), ...proc.params, ...proc.locals]);
  let name = base;
  for (let k = 1; taken.has(name); k++) name = `${base}${k}`;
  return name;
}
