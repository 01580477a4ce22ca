// Whole programs (SV-COMP style: `main` reads its inputs with __VERIFIER_nondet_*()): conditions are
// stated over the nondet values in order of appearance. Every havoc of the function that is not inside
// a loop (so it runs at most once per call) becomes an assignment from a new parameter `nondet_K`, K in
// source order; the other havocs stay nondeterministic. A run of the new program maps back to a run of
// the original: the nondet stream is the values its steps take, in execution order. A recursive
// function is left as it is: its inner calls run the same procedure, whose reads only the outermost
// call could take as parameters (the calls pass none).
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Edge, Location, Procedure, Program } from '../ir/cfg.js';
import type { RunResult } from '../interpreter/types.js';
import { backEdges, naturalLoop, loopsOf } from '../vc/loops.js';
import { recursiveProcedures } from '../ir/inline.js';

export interface NondetInput {
  readonly parameter: string;
  readonly line: number;
  /** The variable the nondet value is assigned to. */
  readonly target: string;
}

export interface NondetParameters {
  readonly program: Program;
  readonly inputs: readonly NondetInput[];
  /** Edge id (unchanged by the rewrite) → the parameter it now reads. */
  readonly byEdge: ReadonlyMap<number, string>;
}

export function nondetAsParameters(program: Program, fn: string): NondetParameters {
  const proc = program.procedures.get(fn)!;
  if (recursiveProcedures(program).has(fn)) return { program, inputs: [], byEdge: new Map() };
  const back = backEdges(proc);
  const inLoop = new Set(loopsOf(proc).flatMap((h) => [...naturalLoop(proc, h, back)]));
  const havocs = proc.edges
    // A ghost (a quotient, a wrap-around count) is computed from the state, not an input.
    .filter((e) => e.stmt.kind === 'havoc' && !e.stmt.ghost && !inLoop.has(e.from))
    .sort((a, b) => a.pos.line - b.pos.line || a.pos.col - b.pos.col || a.id - b.id);
  const { byEdge, inputs } = parametersFor(program, proc, havocs.map((e) => ({ edges: [e], pos: e.pos, target: (e.stmt as { target: string }).target })));
  const edges: Edge[] = proc.edges.map((e) => {
    const p = byEdge.get(e.id);
    return p && e.stmt.kind === 'havoc' ? { ...e, stmt: { kind: 'assign', target: e.stmt.target, expr: L.variable(p) } } : e;
  });
  const rewritten: Procedure = { ...proc, params: [...proc.params, ...inputs.map((i) => i.parameter)], edges };
  const procedures = new Map(program.procedures);
  procedures.set(fn, rewritten);
  return { program: { ...program, procedures }, inputs, byEdge };
}

/** The original program's nondet stream for a run of the rewritten one (its trace must be recorded). */
export function nondetStreamOf(rewritten: NondetParameters, fn: string, run: RunResult): bigint[] {
  const stream: bigint[] = [];
  for (const step of run.trace ?? []) {
    const param = step.depth === 0 && step.procedure === fn && step.kind === 'edge' ? rewritten.byEdge.get(step.edge) : undefined;
    if (param !== undefined) stream.push(run.inputs.get(param) ?? 0n);
    else stream.push(...(step.nondet ?? []));
  }
  return stream;
}

/**
 * Non-termination of a whole program: every nondet choice of `fn` fixed by a parameter. A read outside
 * loops becomes `nondet_K` as above; a read or a `*` choice inside a loop becomes one value that every
 * visit takes. That is one resolution of the non-determinism, so each run of the new program whose
 * parameters lie in the reads' C ranges is a run of the original (the front end's assume of the range
 * after a read is dropped: no read leaves it, and conditions stay free of its constants): an input
 * from which the new program never ends gives a run of the original that never ends
 * (`nondetStreamOf` replays it). Callees keep their reads: a recurrent set must hold for all their
 * values. A recursive function is left as it is, as above.
 */
export function nondetFixedByParameters(program: Program, fn: string): NondetParameters {
  const proc = program.procedures.get(fn)!;
  if (recursiveProcedures(program).has(fn)) return { program, inputs: [], byEdge: new Map() };
  const choices = proc.locations.filter((l) => l.choice).map((l) => proc.edges.filter((e) => e.from === l.id).sort((a, b) => a.id - b.id));
  const reads: NondetRead[] = [
    ...proc.edges.filter((e) => e.stmt.kind === 'havoc' && !e.stmt.ghost).map((e) => ({ edges: [e], pos: e.pos, target: (e.stmt as { target: string }).target })),
    ...choices.map((edges) => ({ edges, pos: edges[0]!.pos, target: '*' })),
  ].sort((a, b) => a.pos.line - b.pos.line || a.pos.col - b.pos.col || a.edges[0]!.id - b.edges[0]!.id);
  const { byEdge, inputs } = parametersFor(program, proc, reads);
  const locations: Location[] = proc.locations.map(({ choice: _, ...l }) => l);
  const edges: Edge[] = [...proc.edges];
  for (const [id, p] of byEdge) {
    const e = proc.edges[id]!;
    const value = L.variable(p);
    if (e.stmt.kind !== 'havoc') {
      // The two unguarded edges of a choice: non-zero takes the one with the smaller id, as in a run.
      const first = Math.min(...proc.edges.filter((o) => o.from === e.from).map((o) => o.id));
      edges[id] = { ...e, stmt: { kind: 'assume', cond: id === first ? F.not(F.eqZero(value)) : F.eqZero(value) } };
      continue;
    }
    const { target } = e.stmt;
    edges[id] = { ...e, stmt: { kind: 'assign', target, expr: value } };
    // The assume of the read's C range goes: a read never gives a value outside it, so the program
    // need not block there (and a recurrent set need not state the range's large constants). Only
    // that assume: one of the program's own would change its runs.
    const range = rangeAssumeAfter(proc, e);
    if (range) edges[range.id] = { ...range, stmt: { kind: 'skip' } };
  }
  const rewritten: Procedure = { ...proc, params: [...proc.params, ...inputs.map((i) => i.parameter)], locations, edges };
  const procedures = new Map(program.procedures);
  procedures.set(fn, rewritten);
  return { program: { ...program, procedures }, inputs, byEdge };
}

/** A nondet read: its edges (one havoc, or the two edges of a choice), where it is, what it sets. */
interface NondetRead {
  readonly edges: readonly Edge[];
  readonly pos: Edge['pos'];
  readonly target: string;
}

/** `nondet_K` for the K-th read, in the given order, renamed past the names the program uses. */
function parametersFor(program: Program, proc: Procedure, reads: readonly NondetRead[]): Pick<NondetParameters, 'byEdge' | 'inputs'> {
  const taken = new Set([...program.globals.map((g) => g.name), ...proc.params, ...proc.locals]);
  const byEdge = new Map<number, string>();
  const inputs: NondetInput[] = [];
  for (const read of reads) {
    let name = `nondet_${inputs.length + 1}`;
    for (let k = 1; taken.has(name); k++) name = `nondet_${inputs.length + 1}_${k}`;
    taken.add(name);
    for (const e of read.edges) byEdge.set(e.id, name);
    inputs.push({ parameter: name, line: read.pos.line, target: read.target });
  }
  return { byEdge, inputs };
}

/** The front end's assume of a havoc's C range, when it is the only edge after the havoc (it states
 * exactly `lo <= target <= hi`); null otherwise. Real runs never block there. */
export function rangeAssumeAfter(proc: Procedure, havoc: Edge): Edge | null {
  if (havoc.stmt.kind !== 'havoc' || !havoc.stmt.range) return null;
  const next = proc.edges.filter((o) => o.from === havoc.to);
  const only = next.length === 1 ? next[0]! : null;
  if (!only || only.stmt.kind !== 'assume') return null;
  return F.toC(only.stmt.cond) === F.toC(F.inRange(L.variable(havoc.stmt.target), havoc.stmt.range)) ? only : null;
}
