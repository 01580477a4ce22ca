// Termination of recursion by a linear ranking function over the parameters, for `verify --property
// termination`. A recursion (a cycle of the call graph: one procedure calling itself, or several
// calling each other) ends on every call chain when some r over each procedure's parameters is not
// negative at a recursive call and the callee's r, on the call's arguments, is at least 1 smaller: an
// endless chain of calls would be an endless descent of non-negative integers. The candidates come
// from the tests of the recursive procedures over their own parameters, read as "not negative while
// the recursion goes on" (`n < 1` ends it: n - 1), and the sums of two of them (gcd's y1 + y2 - 2);
// they are stated over parameter positions, so one candidate serves procedures that call each other.
// A candidate is proved the way a loop's is (ranking.ts): each procedure of the cycle gets a ghost
// `old = r(params)` at its entry and `assert(old >= 0); assert(r_callee(args) <= old - 1)` before each
// call inside the cycle; the constraint engine proves the assertions for every call reachable from the
// function's entry (with procedure summaries), certified by z3. Candidates are first run on the guard's
// inputs, so only those no run contradicts reach the engine; the runs are the claim guard as well.
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { Formula } from '../ir/formula.js';
import type { Edge, Procedure, Program } from '../ir/cfg.js';
import { recursiveProcedures } from '../ir/inline.js';
import { Problem } from '../problem/prepare.js';
import { constraintEngine } from '../engines/index.js';
import { assertionsAssumed, atomsOf, editing, failsOnRuns, ghostName } from './ranking.js';
import type { Settings } from '../settings.js';
import { RANKING_CANDIDATES, RECURSION_RANKING_CANDIDATES } from '../limits.js';

export interface RankedProcedure {
  readonly procedure: string;
  readonly line: number;
  /** The ranking function, a C expression over the procedure's parameters. */
  readonly ranking: string;
}

export interface RecursionRanking {
  /** Every recursion reachable from the function ranked. */
  readonly complete: boolean;
  readonly ranked: readonly RankedProcedure[];
  readonly reason?: string;
}

/** A parameter position as a variable of a candidate: `#0`, `#1`, … */
const position = (k: number): string => `#${k}`;

export async function rankRecursion(program: Program, fn: string, settings: Settings): Promise<RecursionRanking> {
  const { deadline } = settings;
  const inlined = Problem.of(program, fn).inlined.program;
  const ranked: RankedProcedure[] = [];
  for (const cycle of recursiveCycles(inlined, fn)) {
    const procs = cycle.map((name) => inlined.procedures.get(name)!);
    // Most recursions are ranked by what the path to each call says about the parameters: each
    // procedure is checked alone from any parameters, a call inside the cycle returning any value
    // (cheap). Where the callers matter (Addition's n < 0 branch, never taken), r >= 0 may be
    // assumed at each entry of the cycle once every call into it is checked to pass r >= 0. Last, the
    // engine with procedure summaries gets the whole program.
    const candidates = positionCandidates(procs).slice(0, RECURSION_RANKING_CANDIDATES);
    // Only when the function analysed is outside the cycle: its own entry is a call into the cycle
    // whose argument no caller checks.
    const entered = !cycle.includes(fn) && callersOf(inlined, fn, cycle).every((caller) => caller === fn);
    const survivors = candidates.filter((r) => !failsOnRuns(withRecursionChecks(inlined, cycle, r), fn));
    let found: Linear | null = null;
    for (const mode of entered ? (['any', 'entered'] as const) : (['any'] as const)) {
      for (const r of survivors) {
        if (found || deadline.passed) break;
        const ghost = withRecursionChecks(inlined, cycle, r, mode === 'entered' ? fn : undefined);
        if (mode === 'entered' && failsOnRuns(ghost, fn)) continue;
        const checked = mode === 'entered' ? [fn, ...cycle.filter((p) => p !== fn)] : cycle;
        if (await everyProcedureChecked(contextFree(ghost, checked, recursiveProcedures(inlined)), checked, settings)) found = r;
      }
    }
    for (const r of survivors.slice(0, found ? 0 : RANKING_CANDIDATES)) {
      if (deadline.passed) break;
      const result = await constraintEngine.run(Problem.of(withRecursionChecks(inlined, cycle, r), fn), settings, { constraints: { observedBounds: 'second' } });
      if (result.verdict === 'safe' && result.certified) {
        found = r;
        break;
      }
    }
    const names = cycle.join(', ');
    if (!found) {
      return {
        complete: false,
        ranked,
        reason: deadline.passed ? deadline.timeoutReason(`no ranking function for the recursion of ${names}`) : `no ranking function among the tests of ${names} for its recursion`,
      };
    }
    for (const p of procs) ranked.push({ procedure: p.name, line: p.pos.line, ranking: L.toC(overParameters(found, p)) });
  }
  return { complete: true, ranked };
}

/** The cycles of the call graph reachable from `fn`, each as its procedures in name order. */
export function recursiveCycles(program: Program, fn: string): string[][] {
  const recursive = recursiveProcedures(program);
  const callees = (name: string): string[] => program.procedures.get(name)!.edges.flatMap((e) => (e.stmt.kind === 'call' ? [e.stmt.callee] : []));
  const reach = (from: string): Set<string> => {
    const seen = new Set<string>();
    const stack = callees(from);
    while (stack.length > 0) {
      const p = stack.pop()!;
      if (seen.has(p)) continue;
      seen.add(p);
      stack.push(...callees(p));
    }
    return seen;
  };
  const reachable = reach(fn);
  const cycles: string[][] = [];
  const placed = new Set<string>();
  for (const p of [...reachable].filter((q) => recursive.has(q)).sort()) {
    if (placed.has(p)) continue;
    const fromP = reach(p);
    const cycle = [...fromP].filter((q) => recursive.has(q) && reach(q).has(p)).sort();
    for (const q of cycle) placed.add(q);
    cycles.push(cycle);
  }
  return cycles;
}

/** Candidates over parameter positions: the cycle's tests over its parameters both ways, then sums of two. */
export function positionCandidates(procs: readonly Procedure[]): Linear[] {
  const arity = Math.min(...procs.map((p) => p.params.length));
  const singles: Linear[] = [];
  const seen = new Set<string>();
  const add = (into: Linear[], r: Linear): void => {
    if (L.isConstant(r) || seen.has(L.key(r))) return;
    if (L.variablesOf(r).some((v) => Number(v.slice(1)) >= arity)) return;
    seen.add(L.key(r));
    into.push(r);
  };
  for (const p of procs) {
    const at = new Map(p.params.map((name, k) => [name, position(k)] as const));
    for (const e of p.edges) {
      if (e.stmt.kind !== 'assume' || e.stmt.premise) continue;
      for (const atom of atomsOf(e.stmt.cond)) {
        if (!L.variablesOf(atom.expr).every((v) => at.has(v))) continue;
        const expr = L.rename(atom.expr, (v) => at.get(v)!);
        add(singles, atom.rel === '>=' ? L.addConstant(L.negate(expr), -1n) : L.negate(expr));
        add(singles, expr);
      }
    }
  }
  const sums: Linear[] = [];
  for (let i = 0; i < singles.length; i++) for (let j = i + 1; j < singles.length; j++) add(sums, L.add(singles[i]!, singles[j]!));
  return [...singles, ...sums];
}

function overParameters(r: Linear, p: Procedure): Linear {
  return L.rename(r, (v) => p.params[Number(v.slice(1))]!);
}

/**
 * The program whose assertions say that r ranks the cycle: the program's own assertions become
 * assumptions (under the termination property a failing one ends the run), each procedure of the
 * cycle sets a ghost `old = r(params)` at its entry and asserts `old >= 0` and `r(args) <= old - 1`
 * before each call of a procedure of the cycle. With `entry` (the function the runs start from, the
 * only caller outside the cycle), r >= 0 is assumed at each entry of the cycle instead, and asserted
 * of the arguments of every call into the cycle, from `entry` and from inside it.
 */
export function withRecursionChecks(program: Program, cycle: readonly string[], r: Linear, entry?: string): Program {
  const procedures = assertionsAssumed(program);
  const inCycle = new Set(cycle);
  for (const name of new Set([...cycle, ...(entry !== undefined ? [entry] : [])])) {
    const proc = procedures.get(name)!;
    const ranked = inCycle.has(name);
    const old = ghostName(program, proc);
    const { locations, edges, fresh } = editing(proc);
    for (const e of proc.edges) {
      if (e.stmt.kind !== 'call' || !inCycle.has(e.stmt.callee)) continue;
      const callee = procedures.get(e.stmt.callee)!;
      const args = new Map(callee.params.map((q, k) => [position(k), e.stmt.kind === 'call' ? e.stmt.args[k]! : L.constant(0)] as const));
      const next = L.substitute(r, args);
      const checks: Formula[] = [
        ...(ranked ? [F.geqZero(L.variable(old)), F.geqZero(L.addConstant(L.sub(L.variable(old), next), -1n))] : []),
        ...(entry !== undefined ? [F.geqZero(next)] : []),
      ];
      // The first check keeps the call edge's id (the order of the edges leaving a location decides a choice).
      let from = e.from;
      checks.forEach((cond, k) => {
        const to = fresh();
        const id = k === 0 ? e.id : edges.length;
        edges[id] = { id, from, to, stmt: { kind: 'assert', cond }, pos: e.pos };
        from = to;
      });
      edges.push({ ...e, id: edges.length, from });
    }
    if (!ranked) {
      procedures.set(name, { ...proc, locations, edges });
      continue;
    }
    const start = fresh();
    const set: Edge['stmt'] = { kind: 'assign', target: old, expr: overParameters(r, proc) };
    if (entry === undefined) {
      edges.push({ id: edges.length, from: start, to: proc.entry, stmt: set, pos: proc.pos });
    } else {
      const assumed = fresh();
      edges.push({ id: edges.length, from: start, to: assumed, stmt: set, pos: proc.pos });
      edges.push({ id: edges.length, from: assumed, to: proc.entry, stmt: { kind: 'assume', cond: F.geqZero(L.variable(old)) }, pos: proc.pos });
    }
    procedures.set(name, { ...proc, locals: [...proc.locals, old], locations, edges, entry: start });
  }
  return { ...program, procedures };
}

/** The procedures other than the cycle's own that call into it, among those reachable from `fn` (and `fn`). */
function callersOf(program: Program, fn: string, cycle: readonly string[]): string[] {
  const inCycle = new Set(cycle);
  const seen = new Set([fn]);
  const stack = [fn];
  const callers = new Set<string>();
  while (stack.length > 0) {
    const p = stack.pop()!;
    for (const e of program.procedures.get(p)!.edges) {
      if (e.stmt.kind !== 'call') continue;
      if (inCycle.has(e.stmt.callee) && !inCycle.has(p)) callers.add(p);
      if (!seen.has(e.stmt.callee)) {
        seen.add(e.stmt.callee);
        stack.push(e.stmt.callee);
      }
    }
  }
  return [...callers];
}

/** Whether each of `procs`, run alone from any parameters, passes its checks (contextFree: calls of
 * recursive procedures return any value). */
async function everyProcedureChecked(free: Program, procs: readonly string[], settings: Settings): Promise<boolean> {
  for (const name of procs) {
    const result = await constraintEngine.run(Problem.of(free, name), settings, { constraints: { observedBounds: 'second' } });
    if (result.verdict !== 'safe' || !result.certified) return false;
  }
  return true;
}

/** In `procs`, each call of a procedure of `replaced` becomes havoc of its result and of every global. */
function contextFree(program: Program, procs: readonly string[], replaced: ReadonlySet<string>): Program {
  const procedures = new Map(program.procedures);
  for (const name of procs) {
    const proc = procedures.get(name)!;
    const { locations, edges, fresh } = editing(proc);
    for (const e of proc.edges) {
      if (e.stmt.kind !== 'call' || !replaced.has(e.stmt.callee)) continue;
      const targets = [...(e.stmt.target !== null ? [e.stmt.target] : []), ...program.globals.map((g) => g.name)];
      if (targets.length === 0) {
        edges[e.id] = { ...e, stmt: { kind: 'skip' } };
        continue;
      }
      let from = e.from;
      targets.forEach((target, k) => {
        const to = k === targets.length - 1 ? e.to : fresh();
        const id = k === 0 ? e.id : edges.length;
        edges[id] = { id, from, to, stmt: { kind: 'havoc', target }, pos: e.pos };
        from = to;
      });
    }
    procedures.set(name, { ...proc, locations, edges });
  }
  return { ...program, procedures };
}
