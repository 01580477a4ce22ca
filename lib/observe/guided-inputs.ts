// Input values taken from the program itself, for the concrete runs that look for failures. The
// pseudo-random streams (samples.ts) stay near zero and the boundary streams at the C types'
// extremes, so a bug that needs one specific input (`3 * x != 1227` fails only at x == 409) is
// missed by both. Three kinds of values, most telling first:
// 1. solved from the program's conditions, a cheap concolic step: for an atom `a*v + b (rel) 0` of a
//    branch, assumption or assertion whose one variable v is an input (a havoc's target or a
//    parameter), reached from it through the program's linear assignments (`d := c + 57` and its
//    wrap-around case `d := c - 199` for an unsigned char), the point where the atom changes truth:
//    ⌊-b/a⌋, ⌈-b/a⌉ and their neighbours (bigint arithmetic, exact);
// 2. the type limits of the havocs' and parameters' ranges, and their neighbours inside them;
// 3. the program's constants c (constants.ts), c - 1 and c + 1.
// Everything here is a function of the program's text: the same values on every run.
import type { Procedure, Program } from '../ir/cfg.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { constantsOf } from '../ir/constants.js';

/** Most candidate values of one program. */
export const MAX_GUIDED_VALUES = 64;
/** Read positions of a stream that each value is tried at alone (guidedStreams). */
export const MAX_GUIDED_POSITIONS = 8;
/** Length of a stream that repeats one value at every read. */
export const GUIDED_STREAM_LENGTH = 64;
/** Substitutions of a variable by one of its assigned expressions, along one chain from an atom … */
const MAX_SUBSTITUTIONS = 4;
/** … and expressions one atom is expanded into, over all chains. */
const MAX_EXPANSIONS = 16;

/**
 * Candidate input values of `program`, in the order above, without repeats, at most `max`. Every
 * procedure counts (an entry whose calls are not inlined reads its callees' conditions too).
 */
export function guidedValues(program: Program, max = MAX_GUIDED_VALUES): bigint[] {
  const out = new Set<bigint>();
  const add = (v: bigint): void => {
    if (out.size < max) out.add(v);
  };
  const procs = [...program.procedures.values()];
  for (const proc of procs) for (const v of solvedValues(proc)) add(v);
  for (const proc of procs) {
    for (const r of inputRanges(proc)) {
      for (const v of [r.lo, r.hi, r.lo + 1n, r.hi - 1n]) if (v >= r.lo && v <= r.hi) add(v);
    }
  }
  const constants = new Set<bigint>();
  for (const proc of procs) for (const c of constantsOf(proc)) constants.add(c);
  for (const c of [...constants].sort(compare)) for (const v of [c, c - 1n, c + 1n]) add(v);
  return [...out];
}

/**
 * Values of the inputs of `proc` (its non-ghost havocs' targets and its parameters) at which an atom
 * of one of its branch, assumption or assertion conditions changes truth, where the atom depends on
 * one input alone through linear assignments. The assertions' first, then the branches' and
 * assumptions', each in the order of the edges; each atom gives ⌊-b/a⌋ - 1,
 * ⌊-b/a⌋, ⌈-b/a⌉ and ⌈-b/a⌉ + 1 for `a*v + b`.
 */
export function solvedValues(proc: Procedure): bigint[] {
  const inputs = new Set<string>(proc.params);
  const definitions = new Map<string, Linear[]>();
  for (const { stmt } of proc.edges) {
    if (stmt.kind === 'havoc' && !stmt.ghost) inputs.add(stmt.target);
    if (stmt.kind === 'assign') {
      // A variable's update from itself (`i := i + 1`) states no value of it in terms of others.
      if (L.coefficientOf(stmt.expr, stmt.target) !== 0n) continue;
      const list = definitions.get(stmt.target) ?? [];
      if (!list.some((e) => L.equals(e, stmt.expr))) list.push(stmt.expr);
      definitions.set(stmt.target, list);
    }
  }
  const out = new Set<bigint>();
  // The assertions first: their atoms are where a run fails. A premise (no signed overflow) is not
  // the program's condition; the type limits cover it.
  const conditions = [
    ...proc.edges.flatMap(({ stmt }) => (stmt.kind === 'assert' ? [stmt.cond] : [])),
    ...proc.edges.flatMap(({ stmt }) => (stmt.kind === 'assume' && !stmt.premise ? [stmt.cond] : [])),
  ];
  for (const cond of conditions) {
    for (const atom of atomsOf(cond)) {
      for (const e of expansions(atom, inputs, definitions)) {
        if (e.coeffs.size !== 1) continue;
        const [v, a] = [...e.coeffs][0]!;
        if (!inputs.has(v)) continue;
        const lo = L.floorDiv(-e.constant, a);
        const hi = L.ceilDiv(-e.constant, a);
        for (const x of [lo, hi, lo - 1n, hi + 1n]) out.add(x);
      }
    }
  }
  return [...out];
}

/** `e` and what it becomes when its non-input variables are replaced by the expressions assigned to
 * them (each chain at most MAX_SUBSTITUTIONS long, at most MAX_EXPANSIONS in all), first found first. */
function expansions(e: Linear, inputs: ReadonlySet<string>, definitions: ReadonlyMap<string, readonly Linear[]>): Linear[] {
  const out: Linear[] = [];
  const seen = new Set<string>();
  const go = (x: Linear, depth: number): void => {
    if (out.length >= MAX_EXPANSIONS || seen.has(L.key(x))) return;
    seen.add(L.key(x));
    out.push(x);
    if (depth === 0) return;
    const v = L.variablesOf(x).find((u) => !inputs.has(u) && definitions.has(u));
    if (v === undefined) return;
    for (const d of definitions.get(v)!) go(L.substitute(x, new Map([[v, d]])), depth - 1);
  };
  go(e, MAX_SUBSTITUTIONS);
  return out;
}

function atomsOf(f: Formula, into: Linear[] = []): Linear[] {
  switch (f.kind) {
    case 'atom': into.push(f.expr); break;
    case 'not': atomsOf(f.arg, into); break;
    case 'and':
    case 'or': for (const a of f.args) atomsOf(a, into); break;
    default: break;
  }
  return into;
}

/** The C type ranges of the values `proc` reads: its havocs' and its parameters'. */
function inputRanges(proc: Procedure): { lo: bigint; hi: bigint }[] {
  const out: { lo: bigint; hi: bigint }[] = [];
  const seen = new Set<string>();
  const add = (r: { readonly lo: bigint; readonly hi: bigint }): void => {
    const key = `${r.lo}:${r.hi}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ lo: r.lo, hi: r.hi });
    }
  };
  for (const p of proc.params) {
    const r = proc.paramRanges?.get(p);
    if (r) add(r);
  }
  for (const { stmt } of proc.edges) if (stmt.kind === 'havoc' && !stmt.ghost && stmt.range) add(stmt.range);
  return out;
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The nondet streams of the guided runs, in order: first each value at every read (a stream of
 * GUIDED_STREAM_LENGTH copies), then, when a run reads more than one value (`positions`, at most
 * MAX_GUIDED_POSITIONS), each value at each read position alone, the others 0 — each value at each
 * position in turn, never their combinations, so at most values × (1 + positions) runs.
 * `positions` is asked once the first streams have been handed out: the most values a run of them read.
 */
export function* guidedStreams(values: readonly bigint[], positions: () => number): Generator<bigint[]> {
  for (const v of values) yield new Array<bigint>(GUIDED_STREAM_LENGTH).fill(v);
  const reads = Math.min(MAX_GUIDED_POSITIONS, positions());
  if (reads <= 1) return;
  for (const v of values) {
    // A zero at a position is what the default gives there: that stream is the all-zero one.
    if (v === 0n) continue;
    for (let p = 0; p < reads; p++) {
      const stream = new Array<bigint>(p + 1).fill(0n);
      stream[p] = v;
      yield stream;
    }
  }
}
