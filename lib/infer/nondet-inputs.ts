// Whole programs (SV-COMP style: `main` reads its inputs with __VERIFIER_nondet_*()): conditions are
// stated over the nondet values in order of appearance. Every havoc of the function that is not inside
// a loop (so it runs at most once per call) becomes an assignment from a new parameter `nondet_K`, K in
// source order; the other havocs stay nondeterministic. A run of the new program maps back to a run of
// the original: the nondet stream is the values its steps take, in execution order. A recursive
// function is left as it is: its inner calls run the same procedure, whose reads only the outermost
// call could take as parameters (the calls pass none).
import * as L from '../ir/linear.js';
import type { Edge, Procedure, Program } from '../ir/cfg.js';
import type { RunResult } from '../interpreter/types.js';
import { backEdges, naturalLoop, loopsOf } from './counters.js';
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
  const taken = new Set([...program.globals.map((g) => g.name), ...proc.params, ...proc.locals]);
  const byEdge = new Map<number, string>();
  const inputs: NondetInput[] = [];
  for (const e of havocs) {
    let name = `nondet_${inputs.length + 1}`;
    for (let k = 1; taken.has(name); k++) name = `nondet_${inputs.length + 1}_${k}`;
    taken.add(name);
    byEdge.set(e.id, name);
    inputs.push({ parameter: name, line: e.pos.line, target: (e.stmt as { target: string }).target });
  }
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
