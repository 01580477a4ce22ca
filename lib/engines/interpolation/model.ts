// The program as the interpolation engines see it: the analysed function with non-recursive calls
// inlined, and each edge turned into transitions whose guards are conjunctions of atoms (a
// disjunctive guard is case-split into one transition per cube of its DNF). An assert edge gives
// "pass" transitions (its condition) to its target and "fail" transitions (the negation) to ERROR.
import type { Edge, Procedure, Program } from '../../ir/cfg.js';
import * as F from '../../ir/formula.js';
import * as L from '../../ir/linear.js';
import type { Linear } from '../../ir/linear.js';
import type { Problem } from '../../problem/prepare.js';
import { cubesOf, normalizeCube, type Atom } from '../../rational/constraints.js';

/** The error location: not a location of the procedure. */
export const ERROR = -1;

export type Update =
  | { readonly kind: 'assign'; readonly target: string; readonly expr: Linear }
  | { readonly kind: 'havoc'; readonly target: string };

export interface Transition {
  readonly id: number;
  readonly from: number;
  /** A location of the procedure, or ERROR. */
  readonly to: number;
  readonly edge: Edge;
  /** Conjunction that must hold before the update. */
  readonly guard: readonly Atom[];
  readonly update: Update | null;
}

export interface EngineModel {
  /** The program with the analysed function's calls inlined (what the certificate checker sees). */
  readonly program: Program;
  readonly original: Program;
  readonly function: string;
  readonly proc: Procedure;
  readonly transitions: readonly Transition[];
  readonly outgoing: ReadonlyMap<number, readonly Transition[]>;
  /** Holds at the entry (globals' static initial values when the function is the program's entry). */
  readonly precondition: readonly Atom[];
  readonly loopHeaders: readonly number[];
  /** Every variable of the procedure (globals, parameters, locals). */
  readonly variables: readonly string[];
}

export class Unsupported extends Error {}

/**
 * What an edge does, as guarded updates: one per DNF cube of an assume's or assert's condition (cubes
 * false over the integers dropped), an assert's negated cubes going to ERROR. A call is a plain
 * step here; engines that keep calls attach what they need to it.
 */
export function edgeTransitions(edge: Edge): { to: number; guard: Atom[]; update: Update | null }[] {
  const out: { to: number; guard: Atom[]; update: Update | null }[] = [];
  const add = (to: number, guard: Atom[] | null, update: Update | null): void => {
    if (guard !== null) out.push({ to, guard, update });
  };
  const s = edge.stmt;
  switch (s.kind) {
    case 'assign': add(edge.to, [], { kind: 'assign', target: s.target, expr: s.expr }); break;
    case 'havoc': add(edge.to, [], { kind: 'havoc', target: s.target }); break;
    case 'skip':
    case 'call': add(edge.to, [], null); break;
    case 'assume':
      // The absence of signed overflow is a premise the engines do not use (an over-approximation).
      if (s.premise) add(edge.to, [], null);
      else for (const cube of cubesOf(s.cond)) add(edge.to, normalizeCube(cube), null);
      break;
    case 'assert':
      for (const cube of cubesOf(s.cond)) add(edge.to, normalizeCube(cube), null);
      for (const cube of cubesOf(F.not(s.cond))) add(ERROR, normalizeCube(cube), null);
      break;
  }
  return out;
}

export function buildModel(problem: Problem): EngineModel {
  const { program: original, function: fn } = problem;
  const { program } = problem.inlined;
  const proc = program.procedures.get(fn)!;
  const calls = [...new Set(proc.edges.flatMap((e) => (e.stmt.kind === 'call' ? [e.stmt.callee] : [])))];
  if (calls.length > 0) throw new Unsupported(`recursive procedure(s) ${calls.join(', ')}: this engine inlines calls and has no procedure summaries`);
  const transitions: Transition[] = [];
  for (const edge of proc.edges) {
    if (edge.stmt.kind === 'call') throw new Unsupported('call left after inlining');
    for (const { to, guard, update } of edgeTransitions(edge)) transitions.push({ id: transitions.length, from: edge.from, to, edge, guard, update });
  }
  const outgoing = new Map<number, Transition[]>();
  for (const t of transitions) outgoing.set(t.from, [...(outgoing.get(t.from) ?? []), t]);
  const precondition: Atom[] = fn === original.entry
    ? program.globals.map((g) => ({ rel: '==' as const, expr: L.sub(L.variable(g.name), L.constant(g.init)) }))
    : [];
  const loopHeaders = proc.locations.filter((l) => l.loopHeader).map((l) => l.id);
  const variables = [...new Set([...program.globals.map((g) => g.name), ...proc.params, ...proc.locals, ...(proc.returnVar ? [proc.returnVar] : [])])];
  return { program, original, function: fn, proc, transitions, outgoing, precondition, loopHeaders, variables };
}
