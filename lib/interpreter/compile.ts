// Turns a procedure into a form the interpreter can run fast: variables resolved to slots (a frame
// array for parameters and locals, one shared array for globals), expressions to closures, and the
// outgoing edges of every location precomputed in id order.
import type { Edge, Procedure, Program } from '../ir/cfg.js';
import type { Formula } from '../ir/formula.js';
import type { Linear } from '../ir/linear.js';
import { pinnedValueSolver, type PinSolver } from './pinned.js';
import type { ValueRange } from './types.js';

export type Frame = bigint[];
export type Globals = bigint[];
export type Reader = (frame: Frame, globals: Globals) => bigint;
export type Test = (frame: Frame, globals: Globals) => boolean;

export interface VarRef {
  readonly name: string;
  readonly global: boolean;
  readonly index: number;
}

export type CompiledStmt =
  | { readonly kind: 'assign'; readonly target: VarRef; readonly value: Reader }
  | {
      readonly kind: 'havoc';
      readonly target: VarRef;
      readonly range: ValueRange | null;
      /** A ghost (IR havoc.ghost): its value is computed by `pinned`, never taken from the stream. */
      readonly ghost: boolean;
      /** When the next edge is the only one and an assume that leaves exactly one value for the target
       * (the front end's division/modulo quotient): computes that value, used once the stream is exhausted. */
      pinned: PinSolver | null;
    }
  /** `premise`: the absence of signed overflow (a failure stops the run with an 'overflow' outcome). */
  | { readonly kind: 'assume'; readonly test: Test; readonly premise: boolean }
  | { readonly kind: 'assert'; readonly test: Test }
  | { readonly kind: 'call'; readonly target: VarRef | null; readonly callee: string; readonly args: readonly Reader[] }
  | { readonly kind: 'skip' };

export interface CompiledEdge {
  readonly edge: Edge;
  readonly stmt: CompiledStmt;
}

export interface CompiledProc {
  readonly proc: Procedure;
  /** Frame layout: parameters, then locals, then the return variable when it is not a local. */
  readonly frameVars: readonly string[];
  readonly returnSlot: number | null;
  /** out[loc]: outgoing edges of loc in id order. */
  readonly out: readonly (readonly CompiledEdge[])[];
}

export function globalIndex(program: Program): Map<string, number> {
  return new Map(program.globals.map((g, i) => [g.name, i]));
}

export function compileProcedure(program: Program, proc: Procedure, globals: ReadonlyMap<string, number>): CompiledProc {
  const frameVars = [...proc.params, ...proc.locals];
  if (proc.returnVar !== null && !frameVars.includes(proc.returnVar)) frameVars.push(proc.returnVar);
  const slots = new Map(frameVars.map((v, i) => [v, i]));

  const resolve = (name: string): VarRef => {
    const local = slots.get(name);
    if (local !== undefined) return { name, global: false, index: local };
    const g = globals.get(name);
    if (g !== undefined) return { name, global: true, index: g };
    throw new Error(`internal IR error: variable '${name}' is not in scope in procedure ${proc.name}`);
  };

  const linear = (e: Linear): Reader => {
    const c = e.constant;
    const terms = [...e.coeffs].map(([v, k]) => ({ ref: resolve(v), k }));
    if (terms.length === 0) return () => c;
    if (terms.length === 1) {
      const { ref, k } = terms[0]!;
      const i = ref.index;
      return ref.global ? (_f, g) => c + k * g[i]! : (f) => c + k * f[i]!;
    }
    return (f, g) => {
      let sum = c;
      for (const { ref, k } of terms) sum += k * (ref.global ? g[ref.index]! : f[ref.index]!);
      return sum;
    };
  };

  const formula = (phi: Formula): Test => {
    switch (phi.kind) {
      case 'true': return () => true;
      case 'false': return () => false;
      case 'atom': {
        const value = linear(phi.expr);
        return phi.rel === '>=' ? (f, g) => value(f, g) >= 0n : (f, g) => value(f, g) === 0n;
      }
      case 'not': {
        const arg = formula(phi.arg);
        return (f, g) => !arg(f, g);
      }
      case 'and': {
        const args = phi.args.map(formula);
        return (f, g) => args.every((a) => a(f, g));
      }
      case 'or': {
        const args = phi.args.map(formula);
        return (f, g) => args.some((a) => a(f, g));
      }
    }
  };

  const compileEdge = (edge: Edge): CompiledEdge => {
    const s = edge.stmt;
    switch (s.kind) {
      case 'assign': return { edge, stmt: { kind: 'assign', target: resolve(s.target), value: linear(s.expr) } };
      case 'havoc': return { edge, stmt: { kind: 'havoc', target: resolve(s.target), range: s.range ?? null, ghost: s.ghost === true, pinned: null } };
      case 'assume': return { edge, stmt: { kind: 'assume', test: formula(s.cond), premise: s.premise === true } };
      case 'assert': return { edge, stmt: { kind: 'assert', test: formula(s.cond) } };
      case 'call': {
        const callee = program.procedures.get(s.callee);
        if (!callee) throw new Error(`internal IR error: ${proc.name} calls undefined procedure ${s.callee}`);
        if (callee.params.length !== s.args.length) {
          throw new Error(`internal IR error: ${proc.name} calls ${s.callee} with ${s.args.length} arguments, it has ${callee.params.length} parameters`);
        }
        if (s.target !== null && callee.returnVar === null) {
          throw new Error(`internal IR error: ${proc.name} uses the result of ${s.callee}, which returns no value`);
        }
        const target = s.target === null ? null : resolve(s.target);
        return { edge, stmt: { kind: 'call', target, callee: s.callee, args: s.args.map(linear) } };
      }
      case 'skip': return { edge, stmt: { kind: 'skip' } };
    }
  };

  const out: CompiledEdge[][] = proc.locations.map(() => []);
  for (const edge of [...proc.edges].sort((a, b) => a.id - b.id)) {
    const list = out[edge.from];
    if (!list) throw new Error(`internal IR error: edge ${edge.id} of ${proc.name} leaves unknown location ${edge.from}`);
    list.push(compileEdge(edge));
  }
  for (const list of out) {
    for (const { edge, stmt } of list) {
      if (stmt.kind !== 'havoc') continue;
      const next = out[edge.to];
      const guard = next?.length === 1 && !proc.locations[edge.to]?.choice ? next[0]!.edge.stmt : null;
      if (guard?.kind === 'assume') stmt.pinned = pinnedValueSolver(guard.cond, stmt.target.name, linear, formula);
    }
  }
  const returnSlot = proc.returnVar === null ? null : slots.get(proc.returnVar)!;
  return { proc, frameVars, returnSlot, out };
}
