// The program as interprocedural lazy annotation sees it (paper 000, Section 2.3): the analysed
// function and every (mutually) recursive procedure it reaches, each with its non-recursive calls
// inlined, as transitions like model.ts builds, plus call transitions `v := Q(args)` that stay calls.
//
// What the engine supports (else Unsupported, i.e. "unknown" with the reason): a summarised
// procedure must not contain assertions or write globals (its summary then relates its inputs —
// parameters and the globals it reads — to its return value only, which is exactly what the
// certificate checker's summary pairs can express), and must be loop-free (its body is checked
// without invariants).
import type { Procedure, Program } from '../../ir/cfg.js';
import * as L from '../../ir/linear.js';
import type { Linear } from '../../ir/linear.js';
import { recursiveProcedures } from '../../ir/inline.js';
import { returnName } from '../../ir/summary-names.js';
import { Problem } from '../../problem/prepare.js';
import type { Atom } from '../../rational/constraints.js';
import { edgeTransitions, Unsupported, type Transition } from './model.js';

export interface CallInfo {
  readonly callee: string;
  readonly args: readonly Linear[];
  readonly target: string | null;
}

export interface InterTransition extends Transition {
  /** Present for a call transition (its guard is empty and its update null). */
  readonly call?: CallInfo;
}

export interface ProcModel {
  readonly name: string;
  readonly proc: Procedure;
  readonly transitions: readonly InterTransition[];
  readonly outgoing: ReadonlyMap<number, readonly InterTransition[]>;
  /** False for the analysed function (its goal is the error); true for a recursive procedure (its goal is an exit). */
  readonly summarised: boolean;
  /** The exit value a negative summary speaks of (`Q!ret`), null for the analysed function or a void procedure. */
  readonly result: string | null;
  /** Every variable of the procedure (globals, parameters, locals, return variable). */
  readonly variables: readonly string[];
}

export interface InterModel {
  readonly original: Program;
  /** The original program with every modelled procedure replaced by its inlined body (what the checker sees). */
  readonly program: Program;
  readonly function: string;
  readonly entry: ProcModel;
  readonly procedures: ReadonlyMap<string, ProcModel>;
  readonly globals: ReadonlySet<string>;
  readonly precondition: readonly Atom[];
}

export function buildInterModel(problem: Problem): InterModel {
  const { program: original, function: fn } = problem;
  const recursive = recursiveProcedures(original);
  if (recursive.has(fn)) throw new Unsupported(`the analysed function '${fn}' is itself recursive; analyse a caller of it`);
  const globals = new Set(original.globals.map((g) => g.name));
  const bodies = new Map<string, Procedure>();
  const pending = [fn];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (bodies.has(name)) continue;
    const body = Problem.of(original, name).inlined.program.procedures.get(name)!;
    bodies.set(name, body);
    for (const e of body.edges) if (e.stmt.kind === 'call') pending.push(e.stmt.callee);
  }
  const procedures = new Map<string, ProcModel>();
  for (const [name, body] of bodies) {
    const summarised = name !== fn;
    if (summarised && !recursive.has(name)) throw new Error(`internal: call of non-recursive '${name}' survived inlining`);
    procedures.set(name, procModel(original, body, summarised, globals));
  }
  const program: Program = { ...original, procedures: new Map([...original.procedures, ...bodies]), entry: original.entry };
  const precondition: Atom[] = fn === original.entry
    ? original.globals.map((g) => ({ rel: '==' as const, expr: L.sub(L.variable(g.name), L.constant(g.init)) }))
    : [];
  return { original, program, function: fn, entry: procedures.get(fn)!, procedures, globals, precondition };
}

function procModel(program: Program, proc: Procedure, summarised: boolean, globals: ReadonlySet<string>): ProcModel {
  if (summarised) {
    for (const e of proc.edges) {
      const s = e.stmt;
      if (s.kind === 'assert') throw new Unsupported(`recursive procedure '${proc.name}' contains an assertion (line ${e.pos.line}); its negative summary would need an error output`);
      const target = s.kind === 'assign' || s.kind === 'havoc' || s.kind === 'call' ? s.target : null;
      if (target !== null && globals.has(target)) throw new Unsupported(`recursive procedure '${proc.name}' writes global '${target}' (line ${e.pos.line}); summaries relate inputs to the return value only`);
    }
    if (proc.locations.some((l) => l.loopHeader)) throw new Unsupported(`recursive procedure '${proc.name}' contains a loop; summaries are checked on loop-free bodies only`);
  }
  const transitions: InterTransition[] = [];
  for (const edge of proc.edges) {
    const s = edge.stmt;
    const call = s.kind === 'call' ? { call: { callee: s.callee, args: s.args, target: s.target } } : {};
    for (const { to, guard, update } of edgeTransitions(edge)) transitions.push({ id: transitions.length, from: edge.from, to, edge, guard, update, ...call });
  }
  const outgoing = new Map<number, InterTransition[]>();
  for (const t of transitions) outgoing.set(t.from, [...(outgoing.get(t.from) ?? []), t]);
  const variables = [...new Set([...program.globals.map((g) => g.name), ...proc.params, ...proc.locals, ...(proc.returnVar ? [proc.returnVar] : [])])];
  const result = summarised && proc.returnVar !== null ? returnName(proc.name) : null;
  return { name: proc.name, proc, transitions, outgoing, summarised, result, variables };
}
