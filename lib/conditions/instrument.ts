// Program transformations of paper 004, Section 6, as real IR rewrites (printable with `farkas cfg`-style
// output via `--show-instrumented`):
// - Claim 3 (non-termination): `assert(false)` at the single exit, so a precondition of the new program
//   is a set of inputs from which the function never returns (and no assertion fails).
// - Claim 2, B1 (most-general counterexample): an error variable; each assertion `assert(p)` becomes
//   `if (!p) { err := 1; goto end; }`, and `end: assert(err == 1)`, so a precondition of the new
//   program is a set of inputs from which an assertion of the original fails or the function never
//   returns. (B2, the loop bounds that rule out the latter, is lib/conditions/counters.ts; cex.ts adds it.)
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Edge, Location, Procedure, Program } from '../ir/cfg.js';
import { negate } from '../frontend/pure.js';
import { rangeAssumeAfter } from './nondet-inputs.js';

export function withFalseAtExit(program: Program, fn: string): Program {
  const proc = program.procedures.get(fn)!;
  const locations: Location[] = [...proc.locations];
  const edges: Edge[] = [...proc.edges];
  const newExit = locations.length;
  locations.push({ id: newExit, loopHeader: false, label: 'exit' });
  edges.push({ id: edges.length, from: proc.exit, to: newExit, stmt: { kind: 'assert', cond: F.FALSE }, pos: proc.locations[proc.exit]?.pos ?? proc.pos });
  return replace(program, { ...proc, locations: relabel(locations, proc.exit), edges, exit: newExit });
}

/**
 * Claim 3 for the termination property: a run also ends where it blocks — abort(), a failing assume(),
 * a failing assertion (an assume under that property), a signed overflow (undefined behaviour: no
 * endless run is claimed through one) or a location with no way on. Each such place gets one more edge,
 * guarded by "no other edge is enabled", to `assert(false)`; with `assert(false)` at the exit too, a
 * precondition of the new program is a set of inputs from which no run ends. Left out, as runs never
 * block there: the two complementary edges of a branch, and the assume that follows a havoc when it is
 * the value's C range or the equation that defines a ghost quotient (a program's own assume after a
 * read is kept). Every procedure is rewritten: the callees'
 * blocks end the run as well once they are inlined.
 */
export function withBlockingAsFailure(program: Program): Program {
  const procedures = new Map([...program.procedures].map(([name, proc]) => [name, blockingAsFailure(proc)] as const));
  return { ...program, procedures };
}

function blockingAsFailure(proc: Procedure): Procedure {
  const locations: Location[] = [...proc.locations];
  const edges: Edge[] = [...proc.edges];
  const fresh = (): number => {
    locations.push({ id: locations.length, loopHeader: false });
    return locations.length - 1;
  };
  const fail = (from: number, pos: Edge['pos']): void => {
    edges.push({ id: edges.length, from, to: fresh(), stmt: { kind: 'assert', cond: F.FALSE }, pos });
  };
  for (const loc of proc.locations) {
    if (loc.id === proc.exit || loc.choice) continue;
    const outs = proc.edges.filter((e) => e.from === loc.id);
    const ins = proc.edges.filter((e) => e.to === loc.id);
    const pos = outs[0]?.pos ?? ins[0]?.pos ?? loc.pos ?? proc.pos;
    if (outs.length === 0) {
      if (ins.length > 0) fail(loc.id, pos);
      continue;
    }
    const guards = outs.map((e) => (e.stmt.kind === 'assume' ? e.stmt.cond : null));
    if (guards.some((g) => g === null)) continue; // an edge that is always taken
    // After a ghost, its defining assume always has a solution; after a read, its range assume.
    if (ins.length > 0 && ins.every((e) => e.stmt.kind === 'havoc' && (e.stmt.ghost || rangeAssumeAfter(proc, e) !== null))) continue;
    if (guards.length === 2 && complementary(guards[0]!, guards[1]!)) continue;
    const none = F.not(F.or(...(guards as F.Formula[])));
    if (none.kind === 'false') continue;
    if (none.kind === 'true') {
      fail(loc.id, pos);
      continue;
    }
    const blocked = fresh();
    edges.push({ id: edges.length, from: loc.id, to: blocked, stmt: { kind: 'assume', cond: none }, pos });
    fail(blocked, pos);
  }
  return { ...proc, locations, edges };
}

/** The two guards of a branch as the front end writes them: one is the other negated. */
function complementary(a: F.Formula, b: F.Formula): boolean {
  return F.toC(negate(a)) === F.toC(b) || F.toC(negate(b)) === F.toC(a);
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
