// Bounded model checking of the analysed function with z3: the falsifier of `verify` and `cex`.
// The function (its non-recursive calls inlined) is cut at its entry and loop headers; each cut-point's
// loop-free region is encoded as a large block (lib/certify/region-encoding.ts), and the regions are
// chained depth after depth: region copies at depth d start where those of depth d - 1 ended, so a
// model at depth D is a run through D regions. The query asks for a failing assertion in any copy.
// Signed overflow is assumed absent (real runs stop there) and nondet values stay in their C range, so
// a model is a real run of the prepared function as far as the encoding goes; calls of recursive
// procedures are replaced by guessed summaries (laws fitted to observed calls), an
// under-approximation that may be wrong. Either way nothing is reported before the run the model
// describes has been replayed on the original program: a model that does not replay is no answer.
// The budget is work (z3's resource units, the depths), never time, so the same program gives the
// same answer on any machine; only the user's deadline is a clock.
import type { Edge, Procedure, Program } from '../ir/cfg.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { findUncutCycle, reachableFrom, regionOf, successorEdges, type Region } from '../certify/cut-regions.js';
import { encodeRegion, pathTo, type CallSummaries, type NodeEncoding, type RegionEncoding } from '../certify/region-encoding.js';
import { formulaToSmt, lookup, symbolsFor } from '../certify/lia.js';
import { withLiaSolver, type LiaModel, type LiaSolver } from '../certify/lia-solver.js';
import { runProgram } from '../interpreter/index.js';
import { replayed } from '../guard/replay.js';
import type { Problem } from '../problem/prepare.js';
import type { Counterexample, FalsifierReport } from '../result.js';
import { BMC_DEPTHS, BMC_CHECK_WORK, BMC_FIRST_ROUND_WORK, BMC_MAX_ASSERTIONS, BMC_ROUND_WORK, BMC_WORK, REPLAY_RUN_STEPS, type Deadline } from '../limits.js';

/** The name a guessed summary gives the callee's return value. */
export const RESULT_NAME = '\\result';

export interface FalsifierOptions {
  readonly deadline: Deadline;
  /** Guessed summaries of the recursive procedures the function still calls (observed laws). A call
   * of a recursive procedure without one blocks the path. */
  readonly summaries?: CallSummaries;
}

/**
 * The bounded model checker of one function: each `round(work)` searches the next depths of BMC_DEPTHS
 * until a counterexample is found and replayed, or the round's z3 work is spent. A round re-encodes the
 * unrolling in a fresh z3 context (the checker runs one job at a time, and other searches use it
 * between rounds), so its models depend on its own queries alone.
 */
export class Falsifier {
  private nextDepth = 0;
  private searchedDepth = 0;
  private queries = 0;
  private spent = 0;
  private unreplayed = 0;
  private unknownAt: number | undefined;
  private foundAt: number | undefined;
  private stoppedBecause: string | undefined;
  private readonly unrolling: Unrolling;
  private rounds = 0;
  /** Work given to rounds and not spent yet: a depth whose query ran out of `failedLimit` is tried
   * again only once twice as much has come together. */
  private bank = 0;
  private failedLimit = 0;

  constructor(private readonly problem: Problem, private readonly options: FalsifierOptions) {
    this.unrolling = unrollingOf(problem, options.summaries);
  }

  /** No deeper search is possible (every depth searched, a query ran out of work, or the encoding
   * would grow too large). */
  get done(): boolean {
    return this.stoppedBecause !== undefined;
  }

  report(): FalsifierReport {
    return {
      depth: this.searchedDepth,
      ...(this.unknownAt !== undefined ? { unknownAt: this.unknownAt } : {}),
      queries: this.queries,
      work: this.spent,
      unreplayed: this.unreplayed,
      summaries: (this.options.summaries?.size ?? 0) > 0,
      ...(this.foundAt !== undefined ? { foundAt: this.foundAt } : {}),
      ...(this.stoppedBecause !== undefined ? { stopped: this.stoppedBecause } : {}),
    };
  }

  /** The next round of verify's schedule: the first is cheap (it comes before any template step),
   * the later ones larger, all of them within BMC_WORK. */
  next(): Promise<Counterexample | null> {
    const work = Math.min(this.rounds++ === 0 ? BMC_FIRST_ROUND_WORK : BMC_ROUND_WORK, BMC_WORK - this.spent - this.bank);
    return this.round(work);
  }

  /** One last round with all that is left of BMC_WORK. */
  rest(): Promise<Counterexample | null> {
    return this.round(BMC_WORK - this.spent - this.bank);
  }

  /** Searches deeper with at most `work` z3 units; a replayed counterexample, or null. */
  async round(work: number): Promise<Counterexample | null> {
    const unrolling = this.unrolling;
    if (this.done) return null;
    this.bank += Math.max(0, work);
    const { deadline } = this.options;
    if (deadline.passed || deadline.aborted || this.bank <= 2 * this.failedLimit) return null;
    return withLiaSolver(async (solver) => {
      const chain = new Chain(solver, unrolling);
      while (this.nextDepth < BMC_DEPTHS.length && this.bank > 2 * this.failedLimit) {
        const depth = BMC_DEPTHS[this.nextDepth]!;
        if (!chain.extendTo(depth)) {
          this.stoppedBecause = `the unrolling to depth ${depth} would pass ${BMC_MAX_ASSERTIONS} assertions`;
          return null;
        }
        if (deadline.passed || deadline.aborted) return null;
        const limit = Math.min(this.bank, BMC_CHECK_WORK);
        this.queries++;
        const outcome = await solver.check({ work: limit, ...deadline.timeLimit }, chain.failure());
        const used = outcome.work > 0 ? outcome.work : limit;
        this.spent += used;
        this.bank -= used;
        if (outcome.status === 'unknown') {
          if (deadline.passed || deadline.aborted) return null;
          this.unknownAt = depth;
          this.failedLimit = limit;
          // A deeper query is larger: it would run out of work too.
          if (limit === BMC_CHECK_WORK) this.stoppedBecause = `the query at depth ${depth} ran out of work (${BMC_CHECK_WORK} z3 units)`;
          return null;
        }
        this.failedLimit = 0;
        if (outcome.status === 'unsat') {
          this.searchedDepth = chain.depth;
          this.nextDepth++;
          if (chain.finished) {
            // No cut-point is reached at this depth: every run ends within it, and the search is complete.
            this.stoppedBecause = `every run ends within ${chain.depth} region steps`;
            return null;
          }
          continue;
        }
        const run = chain.runOf(solver.model());
        const counterexample = replayRun(this.problem, run, deadline);
        if (counterexample) {
          this.foundAt = run.depth;
          return counterexample;
        }
        // The model's run does not fail on the original program: a wrong guessed summary (or a value
        // the interpreter computes otherwise). Deeper rounds may still find a real one.
        this.unreplayed++;
        this.nextDepth++;
      }
      if (this.nextDepth >= BMC_DEPTHS.length) this.stoppedBecause ??= `depth ${BMC_DEPTHS[BMC_DEPTHS.length - 1]} searched`;
      return null;
    }, { fresh: true });
  }
}

/**
 * Does every run of a loop-free function from an input satisfying `condition` fail an assertion (or
 * stop: a blocked assume, a signed overflow)? z3 over the integers, on the same encoding as the
 * falsifier's: 'yes' when no run that satisfies it returns. Calls of recursive procedures make it
 * 'unknown' (nothing is known of what they return).
 */
export async function everyRunFails(problem: Problem, condition: Formula, deadline: Deadline): Promise<'yes' | 'no' | 'unknown'> {
  const unrolling = unrollingOf(problem, undefined);
  if (unrolling.regions.size !== 1 || unrolling.proc.edges.some((e) => e.stmt.kind === 'call')) return 'unknown';
  return withLiaSolver(async (solver) => {
    const chain = new Chain(solver, unrolling, condition);
    chain.extendTo(1);
    if (!chain.finished) return 'unknown';
    const outcome = await solver.check({ work: BMC_CHECK_WORK, ...deadline.timeLimit }, chain.returns());
    return outcome.status === 'unsat' ? 'yes' : outcome.status === 'sat' ? 'no' : 'unknown';
  }, { fresh: true });
}

/**
 * The values a condition over the parameters leaves to its variables on the inputs the function
 * accepts: runs that get past the assumptions of its first region (to a loop head, an assertion or
 * the exit). `n >= 19` under `assume(0 < n && n < 20)` leaves n one value, 19. Per variable of the
 * condition, its one value when it has one (two z3 queries: a model, then no other value).
 */
export async function valuesPinnedBy(problem: Problem, condition: Formula, deadline: Deadline): Promise<Map<string, bigint>> {
  const pinned = new Map<string, bigint>();
  const unrolling = unrollingOf(problem, undefined);
  if (unrolling.proc.edges.some((e) => e.stmt.kind === 'call')) return pinned;
  const variables = [...F.variablesOf(condition)].filter((v) => unrolling.proc.params.includes(v)).sort();
  if (variables.length === 0) return pinned;
  return withLiaSolver(async (solver) => {
    const chain = new Chain(solver, unrolling, condition);
    chain.extendTo(1);
    const limits = { work: BMC_CHECK_WORK, ...deadline.timeLimit };
    const passes = chain.passes();
    const first = await solver.check(limits, passes);
    if (first.status !== 'sat') return pinned;
    const model = solver.model();
    for (const v of variables) {
      const value = model.int(chain.parameter(v));
      const other = await solver.check(limits, passes, `(not (= ${chain.parameter(v)} ${value < 0n ? `(- ${-value})` : value}))`);
      if (other.status === 'unsat') pinned.set(v, value);
    }
    return pinned;
  }, { fresh: true });
}

/** The function cut for unrolling: its cut-points (entry and loop heads), their regions. */
interface Unrolling {
  readonly program: Program;
  readonly function: string;
  readonly proc: Procedure;
  readonly cutPoints: ReadonlySet<number>;
  readonly regions: ReadonlyMap<number, Region>;
  readonly variables: readonly string[];
  readonly start: Formula;
  readonly calls: CallSummaries;
}

function unrollingOf(problem: Problem, summaries: CallSummaries | undefined): Unrolling {
  const { program, function: fn } = problem;
  const inlined = problem.inlined.program;
  const proc = inlined.procedures.get(fn)!;
  const callees = new Set(proc.edges.flatMap((e) => (e.stmt.kind === 'call' ? [e.stmt.callee] : [])));
  const calls = new Map(summaries ?? []);
  // A recursive procedure without a guessed summary returns nothing: the paths through its calls are
  // blocked, the others are still searched.
  for (const callee of callees) {
    if (calls.has(callee)) continue;
    const target = inlined.procedures.get(callee);
    calls.set(callee, { params: target?.params ?? [], returnName: RESULT_NAME, pairs: [] });
  }
  const successors = successorEdges(proc);
  const reachable = reachableFrom(successors, proc.entry);
  const cutPoints = new Set<number>([proc.entry, ...proc.locations.filter((l) => l.loopHeader).map((l) => l.id)]);
  // A cycle that no loop head cuts (a goto loop) gets a cut-point of its own.
  for (let cycle = findUncutCycle(successors, reachable, cutPoints); cycle !== null; cycle = findUncutCycle(successors, reachable, cutPoints)) {
    cutPoints.add(cycle[0]!);
  }
  const regions = new Map<number, Region>();
  for (const c of [...cutPoints].sort((a, b) => a - b)) if (reachable.has(c)) regions.set(c, regionOf(successors, c, cutPoints));
  const variables = [...new Set([...inlined.globals.map((g) => g.name), ...proc.params, ...proc.locals, ...(proc.returnVar ? [proc.returnVar] : [])])];
  // Runs start with the globals at their static values (the interpreter's, whatever the function)
  // and the parameters in their C types' ranges.
  const start = F.and(
    ...inlined.globals.map((g) => F.eqZero(L.sub(L.variable(g.name), L.constant(g.init)))),
    ...[...(proc.paramRanges ?? new Map())].flatMap(([p, r]) => [F.geqZero(L.sub(L.variable(p), L.constant(r.lo))), F.geqZero(L.sub(L.constant(r.hi), L.variable(p)))]),
  );
  return { program, function: fn, proc, cutPoints, regions, variables, start, calls };
}

interface Copy {
  readonly cut: number;
  readonly depth: number;
  readonly encoding: RegionEncoding;
  readonly havocs: ReadonlyMap<number, string>;
  /** The copies of the previous depth whose region reaches this cut-point. */
  readonly from: readonly number[];
}

/** A run the model describes: the prepared function's edges in order, with the values it read. */
interface ModelRun {
  readonly depth: number;
  readonly inputs: ReadonlyMap<string, bigint>;
  readonly nondet: readonly bigint[];
}

/** The region copies of one round, depth after depth, in one z3 job. */
class Chain {
  private readonly copies: Copy[] = [];
  /** Per cut-point, the copies of the last depth that end there. */
  private frontier = new Map<number, { node: NodeEncoding; from: number[] }>();
  private readonly failures: string[] = [];
  /** Per failure term, the copy and the assert edge. */
  private readonly failureSites: { copy: number; edge: Edge }[] = [];
  private readonly startEnv: ReadonlyMap<string, string>;
  private assertions = 0;
  depth = 0;

  constructor(private readonly solver: LiaSolver, private readonly unrolling: Unrolling, assumption: Formula = F.TRUE) {
    this.startEnv = symbolsFor(solver, unrolling.variables);
    solver.assert(formulaToSmt(F.and(unrolling.start, assumption), lookup(this.startEnv)));
    this.frontier.set(unrolling.proc.entry, { node: { reached: 'true', env: this.startEnv }, from: [] });
  }

  /** No region copy of the last depth reaches a cut-point. */
  get finished(): boolean {
    return this.frontier.size === 0;
  }

  /** Encodes the copies up to `depth`; false when the encoding would pass BMC_MAX_ASSERTIONS. */
  extendTo(depth: number): boolean {
    const perDepth = [...this.frontier.keys()].reduce((n, c) => n + (this.unrolling.regions.get(c)?.edges.length ?? 0), 0);
    while (this.depth < depth && !this.finished) {
      // A rough size: a few assertions per edge, every variable's phi at each merge.
      this.assertions += 4 * perDepth + this.unrolling.variables.length * this.frontier.size;
      if (this.assertions > BMC_MAX_ASSERTIONS) return false;
      this.step();
    }
    return true;
  }

  private step(): void {
    const { solver, unrolling } = this;
    const arriving = new Map<number, { reached: string; env: ReadonlyMap<string, string>; copy: number }[]>();
    for (const [cut, { node, from }] of [...this.frontier].sort((a, b) => a[0] - b[0])) {
      const region = unrolling.regions.get(cut);
      if (!region) continue;
      const havocs = new Map<number, string>();
      const encoding = encodeRegion(solver, region, unrolling.cutPoints, unrolling.variables, F.TRUE, unrolling.calls, { start: node, premises: true, calls: 'under', havocs });
      const index = this.copies.length;
      this.copies.push({ cut, depth: this.depth, encoding, havocs, from });
      for (const edge of region.edges) {
        if (edge.stmt.kind !== 'assert') continue;
        const source = encoding.nodes.get(encoding.sourceOf(edge))!;
        const term = `(and ${source.reached} (not ${formulaToSmt(edge.stmt.cond, lookup(source.env))}))`;
        this.failures.push(term);
        this.failureSites.push({ copy: index, edge });
      }
      for (const target of region.targets) {
        const node = encoding.nodes.get(`target:${target}`)!;
        const list = arriving.get(target) ?? [];
        list.push({ reached: node.reached, env: node.env, copy: index });
        arriving.set(target, list);
      }
    }
    const frontier = new Map<number, { node: NodeEncoding; from: number[] }>();
    for (const [cut, incoming] of [...arriving].sort((a, b) => a[0] - b[0])) {
      const reached = solver.boolSymbol();
      solver.assert(`(= ${reached} ${incoming.length === 1 ? incoming[0]!.reached : `(or ${incoming.map((i) => i.reached).join(' ')})`})`);
      const env = new Map<string, string>();
      for (const v of unrolling.variables) {
        const versions = incoming.map((i) => i.env.get(v)!);
        if (versions.every((s) => s === versions[0])) {
          env.set(v, versions[0]!);
          continue;
        }
        const phi = solver.intSymbol();
        for (const i of incoming) solver.assert(`(=> ${i.reached} (= ${phi} ${i.env.get(v)!}))`);
        env.set(v, phi);
      }
      frontier.set(cut, { node: { reached, env }, from: incoming.map((i) => i.copy) });
    }
    this.frontier = frontier;
    this.depth++;
  }

  /** The SMT symbol of a parameter's value at the entry. */
  parameter(v: string): string {
    return this.startEnv.get(v)!;
  }

  /** The goal: a run gets past the assumptions of the first region (to a cut-point, an assertion or
   * the exit). */
  passes(): string {
    const reached = this.copies.filter((c) => c.depth === 0).flatMap((c) => [
      ...c.encoding.region.targets.map((t) => c.encoding.nodes.get(`target:${t}`)!.reached),
      ...[...c.encoding.nodes].filter(([key]) => key === `inner:${this.unrolling.proc.exit}`).map(([, n]) => n.reached),
      ...c.encoding.region.edges.filter((e) => e.stmt.kind === 'assert').map((e) => c.encoding.nodes.get(c.encoding.sourceOf(e))!.reached),
    ]);
    return reached.length === 0 ? 'false' : reached.length === 1 ? reached[0]! : `(or ${reached.join(' ')})`;
  }

  /** The goal: some copy of depth 0 reaches the function's exit (a run that returns). */
  returns(): string {
    const exit = this.unrolling.proc.exit;
    const reached = this.copies.filter((c) => c.depth === 0).flatMap((c) => {
      const node = c.encoding.nodes.get(`inner:${exit}`) ?? c.encoding.nodes.get(`target:${exit}`);
      return node ? [node.reached] : [];
    });
    return reached.length === 0 ? 'false' : reached.length === 1 ? reached[0]! : `(or ${reached.join(' ')})`;
  }

  /** The goal: some copy fails an assertion. */
  failure(): string {
    return this.failures.length === 0 ? 'false' : this.failures.length === 1 ? this.failures[0]! : `(or ${this.failures.join(' ')})`;
  }

  /** The run of a model of failure(): walked back from a failing assertion to the entry. */
  runOf(model: LiaModel): ModelRun {
    // The shallowest failing copy: the shortest run the model holds.
    const site = this.failureSites.find((s) => fails(model, this.copies[s.copy]!, s.edge))!;
    const steps: { copy: number; edge: Edge }[] = [{ copy: site.copy, edge: site.edge }];
    let copy = this.copies[site.copy]!;
    let key = copy.encoding.sourceOf(site.edge);
    for (;;) {
      const index = this.copies.indexOf(copy);
      steps.unshift(...pathTo(model, copy.encoding, key).map((id) => ({ copy: index, edge: this.unrolling.proc.edges[id]! })));
      if (copy.depth === 0) break;
      // The copy of the previous depth this one started from: one whose region reached its cut-point
      // (the phi at the cut-point equals the values of every such copy).
      const cut = copy.cut;
      const previous = copy.from.map((i) => this.copies[i]!).find((p) => model.bool(p.encoding.nodes.get(`target:${cut}`)!.reached));
      if (!previous) break;
      copy = previous;
      key = `target:${cut}`;
    }
    const proc = this.unrolling.proc;
    const inputs = new Map(proc.params.map((p) => [p, model.int(this.startEnv.get(p)!)] as const));
    const nondet: bigint[] = [];
    for (const { copy: c, edge } of steps) {
      if (proc.locations[edge.from]?.choice) {
        const smaller = Math.min(...proc.edges.filter((e) => e.from === edge.from).map((e) => e.id));
        nondet.push(edge.id === smaller ? 1n : 0n);
      }
      const s = edge.stmt;
      if (s.kind === 'havoc' && !s.ghost) {
        const symbol = this.copies[c]!.havocs.get(edge.id);
        nondet.push(symbol === undefined ? 0n : model.int(symbol));
      }
    }
    return { depth: this.copies[site.copy]!.depth + 1, inputs, nondet };
  }
}

/** Does the model reach the assert edge's source in this copy, with the condition false there? */
function fails(model: LiaModel, copy: Copy, edge: Edge): boolean {
  const source = copy.encoding.nodes.get(copy.encoding.sourceOf(edge))!;
  if (source.reached !== 'true' && !model.bool(source.reached)) return false;
  if (edge.stmt.kind !== 'assert') return false;
  return !F.evaluate(edge.stmt.cond, (v) => model.int(source.env.get(v)!));
}

/** The model's run on the original program: a counterexample only when it fails there. */
function replayRun(problem: Problem, run: ModelRun, deadline: Deadline): Counterexample | null {
  const result = runProgram(problem.program, {
    entry: problem.function,
    inputs: run.inputs,
    nondet: run.nondet,
    nondetDefault: 0n,
    maxSteps: REPLAY_RUN_STEPS,
    accelerate: true,
    interrupted: () => deadline.passed || deadline.aborted,
  });
  return result.outcome.kind === 'assertion-failed' ? replayed(problem.program, problem.function, result, deadline) : null;
}
