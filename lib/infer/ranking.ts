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
import { backEdges, bodyEntryEdges, loopsOf, naturalLoop } from './counters.js';
import { ClaimContradicted } from '../guard/claim.js';
import { firstContradiction, measured, nondetRead, runText } from '../guard/runs.js';
import { constraintOptionsOf, type ConditionOptions } from './search.js';
import { Deadline, CONDITION_SEARCH_TIMEOUT_MS, RANKING_CANDIDATES } from '../limits.js';

export interface RankedLoop {
  readonly line: number;
  readonly col: number;
  /** The ranking function, a C expression over the variables at the loop. */
  readonly ranking: string;
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
export async function rankLoops(program: Program, fn: string, skip: readonly LoopPosition[], options: ConditionOptions): Promise<RankingResult> {
  const deadline = options.deadline ?? new Deadline(options.timeoutMs ?? CONDITION_SEARCH_TIMEOUT_MS);
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
    for (const r of rankingCandidates(proc, body).slice(0, RANKING_CANDIDATES)) {
      if (deadline.passed) break;
      const ghost = withRankingChecks(inlined, fn, header, body, back, r);
      const result = await constraintEngine.run(ghost, {
        function: fn,
        deadline,
        constraints: constraintOptionsOf(options),
      });
      if (result.verdict !== 'safe' || !result.certified) continue;
      guardRanking(ghost, fn, L.toC(r), pos.line);
      found = { line: pos.line, col: pos.col, ranking: L.toC(r), invariants: result.invariants.map((i) => ({ line: i.line, expression: i.expression })) };
      break;
    }
    if (!found) return { complete: false, ranked, reason: deadline.passed ? deadline.timeoutReason(`no ranking function for the loop at line ${pos.line}`) : `no ranking function among the loop's exit conditions for the loop at line ${pos.line}` };
    ranked.push(found);
  }
  return { complete: true, ranked };
}

/** The loop's exit conditions read as "not negative while the loop goes on", both ways for each atom. */
export function rankingCandidates(proc: Procedure, body: ReadonlySet<number>): Linear[] {
  const out: Linear[] = [];
  const seen = new Set<string>();
  const add = (r: Linear): void => {
    if (L.isConstant(r) || seen.has(L.key(r))) return;
    seen.add(L.key(r));
    out.push(r);
  };
  for (const e of proc.edges) {
    if (!body.has(e.from) || body.has(e.to) || e.stmt.kind !== 'assume' || e.stmt.premise) continue;
    for (const atom of atomsOf(e.stmt.cond)) {
      // Leaving on `e >= 0` stays while -e - 1 >= 0; leaving on `e == 0` stays while e != 0 (either sign).
      add(atom.rel === '>=' ? L.addConstant(L.negate(atom.expr), -1n) : L.negate(atom.expr));
      add(atom.expr);
    }
  }
  return out;
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
 * The program whose assertions say that r ranks the loop at `header`: the program's own assertions
 * become assumptions (under the termination property a failing one ends the run, which is all it
 * does here), `assert(r >= 0); old = r` on each edge into the body, `assert(r <= old - 1)` on each
 * back edge.
 */
export function withRankingChecks(program: Program, fn: string, header: number, body: ReadonlySet<number>, back: ReadonlySet<number>, r: Linear): Program {
  const procedures = assertionsAssumed(program);
  const proc = procedures.get(fn)!;
  const old = ghostName(program, proc);
  const { locations, edges, fresh } = editing(proc);
  // Splits edge e into e's own statement followed by `stmts`, each on an edge of its own.
  const append = (e: Edge, stmts: readonly Edge['stmt'][]): void => {
    let at = fresh();
    edges[e.id] = { ...e, to: at };
    stmts.forEach((stmt, i) => {
      const to = i === stmts.length - 1 ? e.to : fresh();
      edges.push({ id: edges.length, from: at, to, stmt, pos: e.pos });
      at = to;
    });
  };
  const enter: Edge['stmt'][] = [{ kind: 'assert', cond: F.geqZero(r) }, { kind: 'assign', target: old, expr: r }];
  const fall: Edge['stmt'] = { kind: 'assert', cond: F.geqZero(L.addConstant(L.sub(L.variable(old), r), -1n)) };
  const entries = new Set(bodyEntryEdges(proc, header, body).map((e) => e.id));
  for (const e of proc.edges) {
    const closes = back.has(e.id) && e.to === header;
    // An edge that enters the body and closes the loop (an empty body) gets both.
    if (entries.has(e.id)) append(e, closes ? [...enter, fall] : enter);
    else if (closes) append(e, [fall]);
  }
  procedures.set(fn, { ...proc, locals: [...proc.locals, old], locations, edges });
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

/** A name for the ghost `old` that no variable of `proc` or global takes. */
export function ghostName(program: Program, proc: Procedure): string {
  const taken = new Set([...program.globals.map((g) => g.name), ...proc.params, ...proc.locals]);
  let old = '__rank_old';
  for (let k = 1; taken.has(old); k++) old = `__rank_old${k}`;
  return old;
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
