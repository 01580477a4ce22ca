// Termination of a loop by a linear ranking function, for `verify --property termination` where no
// bound over the inputs was found (a loop that runs 2^28 times from a constant start: its runs are
// cut short before they can be counted, so no bound is fitted). The candidates are the loop's exit
// conditions read the other way: for an exit on `x >= N`, r = N - 1 - x, which is not negative while
// the loop goes on. A candidate r is proved the way a bound is: the loop is instrumented with a ghost
// `old` — `assert(r >= 0); old = r` where the body is entered, `assert(r <= old - 1)` on every back
// edge — and the constraint engine proves the assertions with invariants certified by z3. Then r, an
// integer that is never negative at the start of an iteration and falls by at least 1 in each, bounds
// the iterations. The function's non-recursive calls are inlined first, so the callees' loops are
// ranked too. Before it is returned, a ranking function is held to runs of the program (the claim
// guard): a run on which the instrumented program fails one of these assertions throws.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { Edge, Location, Procedure, Program } from '../ir/cfg.js';
import { Problem } from '../problem/prepare.js';
import { constraintEngine } from '../engines/index.js';
import { backEdges, bodyEntryEdges, loopsOf, naturalLoop } from '../vc/loops.js';
import { ClaimContradicted } from '../guard/claim.js';
import { firstContradiction, measured, nondetRead, runText } from '../guard/runs.js';
import { proofSearch, type ConditionOptions } from '../conditions/search.js';
import type { Settings } from '../settings.js';
import { PHASED_RANKING_CANDIDATES, RANKING_CANDIDATES, RANKING_FILTER_STEPS } from '../limits.js';

export interface RankedLoop {
  readonly line: number;
  readonly col: number;
  /** The ranking function, a C expression over the variables at the loop; for a multiphase one, its
   * phases in words (`y while y >= 0, then x - 1`)… */
  readonly ranking: string;
  /** …and each phase: the condition that holds in it (all but the last), and its function. */
  readonly phases?: readonly { readonly condition?: string; readonly ranking: string }[];
  readonly invariants: readonly { readonly line: number; readonly expression: string }[];
}

export interface LoopPosition {
  readonly line: number;
  readonly col: number;
}

export interface RankingResult {
  /** Every loop left to rank, ranked: the function terminates once the others are bounded. */
  readonly complete: boolean;
  readonly ranked: readonly RankedLoop[];
  readonly reason?: string;
}

/**
 * Ranks each loop of `fn` (its non-recursive calls inlined) except those at `skip` (bounded
 * otherwise). A recursive call stays a call (the engine proves the loop's checks with procedure
 * summaries): the loop is ranked on the runs where the call returns, and the recursion itself is
 * ranked apart (recursion-ranking.ts).
 */
export async function rankLoops(program: Program, fn: string, skip: readonly LoopPosition[], settings: Settings, options: ConditionOptions = {}): Promise<RankingResult> {
  const { deadline } = settings;
  const problem = Problem.of(program, fn);
  const inlined = problem.inlined.program;
  const proc = inlined.procedures.get(fn)!;
  const back = backEdges(proc);
  const ranked: RankedLoop[] = [];
  for (const header of loopsOf(proc)) {
    const pos = proc.locations[header]?.pos ?? proc.pos;
    if (skip.some((s) => s.line === pos.line && s.col === pos.col)) continue;
    const body = naturalLoop(proc, header, back);
    let found: RankedLoop | null = null;
    let proved = 0;
    for (const phases of phasedCandidates(proc, body).slice(0, PHASED_RANKING_CANDIDATES)) {
      if (deadline.passed || proved >= RANKING_CANDIDATES) break;
      const ghost = withRankingChecks(inlined, fn, header, body, back, phases);
      // A few runs rule out most candidates before the engine is asked (the guard runs in full after a proof).
      if (failsOnRuns(ghost, fn, RANKING_FILTER_STEPS)) continue;
      proved++;
      const result = await constraintEngine.run(Problem.of(ghost, fn), settings, {
        constraints: proofSearch(options, (event) => ({ kind: 'ranking-proof', line: pos.line, ranking: phasesText(phases), event })),
      });
      if (result.verdict !== 'safe' || !result.certified) continue;
      const text = phasesText(phases);
      guardRanking(ghost, fn, text, pos.line);
      found = {
        line: pos.line,
        col: pos.col,
        ranking: text,
        ...(phases.length > 1 ? { phases: phases.map((p, i) => ({ ...(i < phases.length - 1 ? { condition: F.toC(p.cond) } : {}), ranking: L.toC(p.r) })) } : {}),
        invariants: result.invariants.map((i) => ({ line: i.line, expression: i.expression })),
      };
      break;
    }
    if (!found) return { complete: false, ranked, reason: deadline.passed ? deadline.timeoutReason(`no ranking function for the loop at line ${pos.line}`) : `no ranking function among the loop's exit conditions and their phases for the loop at line ${pos.line}` };
    ranked.push(found);
  }
  return { complete: true, ranked };
}

/** The loop's exit conditions read as "not negative while the loop goes on", both ways for each atom
 * (a `break` counts with the test before it). */
export function rankingCandidates(proc: Procedure, body: ReadonlySet<number>): Linear[] {
  const out: Linear[] = [];
  const seen = new Set<string>();
  const add = (r: Linear): void => {
    if (L.isConstant(r) || seen.has(L.key(r))) return;
    seen.add(L.key(r));
    out.push(r);
  };
  const tests = (e: Edge): Formula[] => (e.stmt.kind === 'assume' && !e.stmt.premise ? [e.stmt.cond] : []);
  for (const e of proc.edges) {
    if (!body.has(e.from) || body.has(e.to)) continue;
    // A jump out (`if (c) break;`) is preceded by the test that leads to it.
    const conds = e.stmt.kind === 'assume' ? tests(e) : proc.edges.filter((p) => p.to === e.from && body.has(p.from)).flatMap(tests);
    for (const atom of conds.flatMap(atomsOf)) {
      // Leaving on `e >= 0` stays while -e - 1 >= 0; leaving on `e == 0` stays while e != 0 (either sign).
      add(atom.rel === '>=' ? L.addConstant(L.negate(atom.expr), -1n) : L.negate(atom.expr));
      add(atom.expr);
    }
  }
  return out;
}

/**
 * One phase of a ranking argument: while `cond` holds (and no earlier phase's), r is not negative at
 * each iteration's start and falls by at least 1 in each that stays in the phase; a run never returns
 * to an earlier phase. The last phase's condition is true. One phase is a plain ranking function.
 */
export interface Phase {
  readonly cond: Formula;
  readonly r: Linear;
}

/**
 * Candidates in order: the exit conditions alone, then one or two earlier phases in which a variable
 * the body assigns is not negative (r = v) or not positive (r = -v) — a counter that has to run out
 * before the exit condition's function starts to fall (`x = x + y; y = y - 1`: y while y >= 0, then x).
 */
export function phasedCandidates(proc: Procedure, body: ReadonlySet<number>): Phase[][] {
  const finals = rankingCandidates(proc, body);
  const assigned = [...new Set(proc.edges.flatMap((e) => (body.has(e.from) && (e.stmt.kind === 'assign' || e.stmt.kind === 'havoc') && !e.stmt.target.startsWith('__') ? [e.stmt.target] : [])))].sort();
  const earlier = assigned.flatMap((v) => [
    { v, cond: F.geqZero(L.variable(v)), r: L.variable(v) },
    { v, cond: F.geqZero(L.variable(v, -1n)), r: L.variable(v, -1n) },
  ]);
  const last = (r: Linear): Phase => ({ cond: F.TRUE, r });
  const out: Phase[][] = finals.map((r) => [last(r)]);
  for (const a of earlier) for (const r of finals) out.push([a, last(r)]);
  for (const a of earlier) for (const b of earlier) if (a.v !== b.v) for (const r of finals) out.push([a, b, last(r)]);
  return out;
}

function phasesText(phases: readonly Phase[]): string {
  return phases.map((p, i) => (i < phases.length - 1 ? `${L.toC(p.r)} while ${F.toC(p.cond)}` : `${phases.length > 1 ? 'then ' : ''}${L.toC(p.r)}`)).join(', ');
}

/** The atoms of a formula (negations dropped: a ranking candidate is read both ways). */
export function atomsOf(f: Formula): { rel: F.Relation; expr: Linear }[] {
  switch (f.kind) {
    case 'atom':
      return [{ rel: f.rel, expr: f.expr }];
    case 'not':
      return atomsOf(f.arg);
    case 'and':
    case 'or':
      return f.args.flatMap(atomsOf);
    default:
      return [];
  }
}

/**
 * The program whose assertions say that the phases rank the loop at `header`: the program's own
 * assertions become assumptions, and with one phase, `assert(r >= 0); old = r` on each edge into the
 * body and `assert(r <= old - 1)` on each back edge. With several, the edge into the body branches on
 * the phase the state is in (the first whose condition holds): `assert(r_i >= 0); phase = i; old =
 * r_i`; the back edge branches on the phase the iteration began in: the state reached is in no earlier
 * phase, and if it is still in phase i, `r_i <= old - 1`.
 */
export function withRankingChecks(program: Program, fn: string, header: number, body: ReadonlySet<number>, back: ReadonlySet<number>, phases: readonly Phase[]): Program {
  const procedures = assertionsAssumed(program);
  const proc = procedures.get(fn)!;
  const old = ghostName(program, proc);
  const phase = ghostName(program, proc, '__rank_phase');
  const { locations, edges, fresh } = editing(proc);
  type Stmt = Edge['stmt'];
  const assume = (cond: Formula): Stmt => ({ kind: 'assume', cond });
  const check = (cond: Formula): Stmt => ({ kind: 'assert', cond });
  // Splits edge e into e's own statement followed by stages, each a choice of branches (statement
  // chains whose first assumptions exclude each other; one branch is a plain chain).
  const append = (e: Edge, stages: readonly (readonly (readonly Stmt[])[])[]): void => {
    let at = fresh();
    edges[e.id] = { ...e, to: at };
    stages.forEach((branches, k) => {
      const join = k === stages.length - 1 ? e.to : fresh();
      for (const chain of branches) {
        let from = at;
        chain.forEach((stmt, i) => {
          const to = i === chain.length - 1 ? join : fresh();
          edges.push({ id: edges.length, from, to, stmt, pos: e.pos });
          from = to;
        });
        if (chain.length === 0) edges.push({ id: edges.length, from, to: join, stmt: { kind: 'skip' }, pos: e.pos });
      }
      at = join;
    });
  };
  const falls = (r: Linear): Formula => F.geqZero(L.addConstant(L.sub(L.variable(old), r), -1n));
  // In phase i: no earlier phase's condition holds, and (but in the last) its own does.
  const notEarlier = (i: number): Formula => F.and(...phases.slice(0, i).map((p) => F.not(p.cond)));
  const inPhase = (i: number): Formula => F.and(notEarlier(i), phases[i]!.cond);
  const single = phases.length === 1;
  const enter: Stmt[][] = single
    ? [[check(F.geqZero(phases[0]!.r)), { kind: 'assign', target: old, expr: phases[0]!.r }]]
    : phases.map((p, i) => [assume(inPhase(i)), check(F.geqZero(p.r)), { kind: 'assign', target: phase, expr: L.constant(i) }, { kind: 'assign', target: old, expr: p.r }]);
  const began = (i: number): Formula => F.eqZero(L.addConstant(L.variable(phase), BigInt(-i)));
  const fall: Stmt[][] = single
    ? [[check(falls(phases[0]!.r))]]
    : phases.flatMap((p, i) => {
        const stays = [assume(F.and(began(i), p.cond)), ...(i > 0 ? [check(notEarlier(i))] : []), check(falls(p.r))];
        const leaves = [assume(F.and(began(i), F.not(p.cond))), ...(i > 0 ? [check(notEarlier(i))] : [])];
        return i < phases.length - 1 ? [stays, leaves] : [stays];
      });
  // Stages before e's own statement: e keeps its id on a skip into them (the order of the edges
  // leaving a location decides a choice), and its statement comes after them.
  const prepend = (e: Edge, stages: readonly (readonly (readonly Stmt[])[])[]): void => {
    const start = fresh();
    const last = fresh();
    edges[e.id] = { ...e, to: start, stmt: { kind: 'skip' } };
    append({ ...e, id: edges.length, from: start, to: last, stmt: { kind: 'skip' } }, stages);
    edges.push({ ...e, id: edges.length, from: last });
  };
  // r is measured where the back edge leaves it, at the head: an edge into the body whose statement
  // changes the state (a do-while's or while (1)'s first statement) is measured before it, or a run
  // whose first statement raises r by what the rest lowers it would pass (x += 2; ...; x -= 2).
  const changesState = (e: Edge): boolean => e.stmt.kind !== 'assume' && e.stmt.kind !== 'skip';
  const entries = new Set(bodyEntryEdges(proc, header, body).map((e) => e.id));
  for (const e of proc.edges) {
    const closes = back.has(e.id) && e.to === header;
    // An edge that enters the body and closes the loop (an empty body) gets both.
    if (entries.has(e.id) && changesState(e)) {
      if (closes) append(e, [fall]);
      prepend(closes ? edges[e.id]! : e, [enter]);
    } else if (entries.has(e.id)) append(e, closes ? [enter, fall] : [enter]);
    else if (closes) append(e, [fall]);
  }
  procedures.set(fn, { ...proc, locals: [...proc.locals, old, ...(single ? [] : [phase])], locations, edges });
  return { ...program, procedures };
}

/** The program's procedures with each assertion an assumption: under the termination property a
 * failing one ends the run, which is all it does for a ranking argument. */
export function assertionsAssumed(program: Program): Map<string, Procedure> {
  return new Map([...program.procedures].map(([name, p]) => [name, { ...p, edges: p.edges.map((e) => (e.stmt.kind === 'assert' ? { ...e, stmt: { kind: 'assume' as const, cond: e.stmt.cond } } : e)) }] as const));
}

/** Copies of a procedure's locations and edges to add to, and a maker of new locations. */
export function editing(proc: Procedure): { locations: Location[]; edges: Edge[]; fresh: () => number } {
  const locations: Location[] = [...proc.locations];
  const edges: Edge[] = [...proc.edges];
  const fresh = (): number => {
    locations.push({ id: locations.length, loopHeader: false });
    return locations.length - 1;
  };
  return { locations, edges, fresh };
}

/** A name for a ghost (`old`) that no variable of `proc` or global takes. */
export function ghostName(program: Program, proc: Procedure, base = '__rank_old'): string {
  const taken = new Set([...program.globals.map((g) => g.name), ...proc.params, ...proc.locals]);
  let name = base;
  for (let k = 1; taken.has(name); k++) name = `${base}${k}`;
  return name;
}

/** Whether a run of an instrumented program (ranking checks as assertions) fails one of its checks,
 * within `stepBudget` interpreter steps in all (the guard's budget by default). */
export function failsOnRuns(ghost: Program, fn: string, stepBudget?: number): boolean {
  return measured(() => firstContradiction(ghost, fn, stepBudget !== undefined ? { stepBudget } : {}, (run) => (run.outcome.kind === 'assertion-failed' ? true : null)) ?? false);
}

/** The ranking function is held to runs: none may fail the instrumented program's assertions. */
function guardRanking(ghost: Program, fn: string, ranking: string, line: number): void {
  measured(() => {
    const found = firstContradiction(ghost, fn, {}, (run) =>
      run.outcome.kind === 'assertion-failed'
        ? new ClaimContradicted('ranking function', runText(run.inputs, nondetRead(run)), `${ranking} is negative or does not fall on an iteration of the loop (line ${run.outcome.pos.line})`, line)
        : null);
    if (found) throw found;
  });
}
