// The independent certificate checker: "sound or silent". Given invariants at a set of cut-points,
// re-prove from the IR alone, with z3 over the integers, that they are inductive and imply every
// assertion and the postcondition. Shares no code with the SAT pipeline's VC generator: the graph
// work is in cut-regions.ts, the (large-block) encoding in region-encoding.ts.
// The proof is relative to mathematical integers, the IR's semantics.
import type { Edge, Procedure, Program, SourcePos } from '../ir/cfg.js';
import { scopeOf } from '../ir/cfg.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import { findUncutCycle, reachableFrom, regionOf, successorEdges } from './cut-regions.js';
import { formulaToSmt, lookup, symbolsFor } from './lia.js';
import { withLiaSolver, type CheckOutcome, type LiaModel, type LiaSolver } from './lia-solver.js';
import { CERTIFICATE_CHECK_WORK, type Deadline, type WorkBudget } from '../limits.js';
import { encodeRegion, envValues, pathTo, violationAt, type CallSummaries, type NodeEncoding, type NodeKey, type RegionEncoding } from './region-encoding.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { inputCopyName, returnName } from '../ir/summary-names.js';

export type ObligationKind = 'initiation' | 'consecution' | 'safety' | 'exit';
export type ObligationStatus = 'proved' | 'refuted' | 'unknown';

export interface Obligation {
  /** The cut-point whose invariant is assumed. */
  readonly from: number;
  /** The cut-point whose invariant is required ('initiation', 'consecution'), the location of the
   * assert ('safety'), or the exit ('exit'). */
  readonly to: number;
  readonly kind: ObligationKind;
  readonly status: ObligationStatus;
  /** For 'refuted': program variable values at `from` that satisfy its invariant and lead to the failure. */
  readonly counterexample?: Map<string, bigint>;
  /** For 'refuted': the values where the failure happens (at `to`, before the failing assert). */
  readonly failingState?: Map<string, bigint>;
  /** For 'refuted': the IR edge ids of the path from `from` (for 'safety', ending with the assert's edge). */
  readonly path?: readonly number[];
  /** For 'safety': the assert's edge. */
  readonly edge?: number;
  /** For 'unknown': why (e.g. "timeout after 100 ms"). */
  readonly reason?: string;
  readonly millis: number;
}

export interface CertificateResult {
  readonly valid: boolean;
  /** Why the certificate is not valid (absent when valid). */
  readonly reason?: string;
  readonly obligations: Obligation[];
}

export interface CertificateOptions {
  /** Assumed at entry (default true). */
  readonly precondition?: Formula;
  /** Required at the exit (default true). */
  readonly postcondition?: Formula;
  /** Work limit of each z3 check, in z3's resource units (lib/limits.ts); an obligation that runs out
   * is 'unknown' (default CERTIFICATE_CHECK_WORK). */
  readonly workPerCheck?: number;
  /** Work shared by all the checks: once spent, no check starts and the obligations left are
   * 'unknown' (Houdini's rounds on a large program end within its budget, not one limit per region). */
  readonly work?: WorkBudget;
  /** After it no z3 check starts and the obligations left are 'unknown': the user's --timeout, the
   * only wall clock here. */
  readonly deadline?: Deadline;
  /**
   * Procedure summaries for assume-guarantee reasoning (paper 004, Section 3). A call `v := P(u)` is
   * encoded as `v := ?; assume(⋀_i (A_i[u/x] ⇒ B_i[u/x, v/ret]))`, and the body of every summarised
   * procedure is itself checked under each pair: from A_i at the entry, with the pair's loop
   * invariants, to B_i at the exit. The certificate is valid only when all these checks pass.
   */
  readonly summaries?: ReadonlyMap<string, readonly SummaryPairCertificate[]>;
  /** Regions starting at these cut-points are not checked, and their obligations are not reported:
   * the caller knows they hold (Houdini: proved in an earlier round with the same invariant at the
   * start and the same or stronger ones at the targets). Not with `summaries`. */
  readonly skipRegionsFrom?: ReadonlySet<number>;
  /** Only the regions that start at or lead to these cut-points are checked, and only their
   * obligations reported: the caller changed the invariants there alone, and the others were proved
   * with the same invariants at their start and targets (readable.ts). Not with `summaries`. */
  readonly onlyRegionsTouching?: ReadonlySet<number>;
  /** Each check in a new z3 context, so that the counterexamples do not depend on the checks made
   * before in the process (a caller that uses them: sample-search.ts). */
  readonly freshContext?: boolean;
}

/** One pre/post pair of a procedure P: `pre` over P's parameters and globals; `post` over those and
 * the return value `P!ret` (ir/summary-names.ts), inputs meaning their values at the call. */
export interface SummaryPairCertificate {
  readonly pre: Formula;
  readonly post: Formula;
  /** Invariants of P's body under this pair, by location of P in the program; they may speak of an
   * input's value at the entry as `x!in`. */
  readonly invariants: ReadonlyMap<number, Formula>;
}

function describeLocation(proc: Procedure, loc: number): string {
  const location = proc.locations[loc];
  const details = [location?.label, location?.pos && formatPos(location.pos)].filter(Boolean);
  return details.length > 0 ? `location ${loc} (${details.join(' at ')})` : `location ${loc}`;
}

function formatPos(pos: SourcePos): string {
  return `${pos.file}:${pos.line}:${pos.col}`;
}

function rejected(reason: string): CertificateResult {
  return { valid: false, reason, obligations: [] };
}

/** Problems that make the certificate meaningless before any proving: returned as a reason. */
function structuralProblem(
  program: Program,
  proc: Procedure,
  invariants: ReadonlyMap<number, Formula>,
  options: CertificateOptions,
): string | null {
  const call = proc.edges.find((e) => e.stmt.kind === 'call' && !options.summaries?.has(e.stmt.callee));
  if (call) {
    const callee = call.stmt.kind === 'call' ? call.stmt.callee : '';
    return `calls must be inlined or summarised before certification (call of '${callee}' at ${formatPos(call.pos)})`;
  }
  const scope = new Set(scopeOf(program, proc));
  if (proc.returnVar !== null) scope.add(proc.returnVar);
  const unknownVariable = (what: string, f: Formula): string | null => {
    const outside = [...F.variablesOf(f)].filter((v) => !scope.has(v)).sort();
    if (outside.length === 0) return null;
    const names = outside.map((v) => `'${v}'`).join(', ');
    return `${what} mentions ${outside.length === 1 ? 'a variable' : 'variables'} not in procedure '${proc.name}': ${names}`;
  };
  for (const [loc, inv] of [...invariants].sort(([a], [b]) => a - b)) {
    if (!Number.isInteger(loc) || loc < 0 || loc >= proc.locations.length) {
      return `invariant given for location ${loc}, which procedure '${proc.name}' does not have`;
    }
    const problem = unknownVariable(`the invariant at ${describeLocation(proc, loc)}`, inv);
    if (problem) return problem;
  }
  return (
    unknownVariable('the precondition', options.precondition ?? F.TRUE) ??
    unknownVariable('the postcondition', options.postcondition ?? F.TRUE)
  );
}

/** All variables the encoding must version: the procedure's scope plus anything its statements use. */
function variablesOfProcedure(program: Program, proc: Procedure): string[] {
  const vars = new Set(scopeOf(program, proc));
  if (proc.returnVar !== null) vars.add(proc.returnVar);
  for (const edge of proc.edges) {
    const s = edge.stmt;
    if (s.kind === 'assign') {
      vars.add(s.target);
      for (const v of s.expr.coeffs.keys()) vars.add(v);
    } else if (s.kind === 'havoc') vars.add(s.target);
    else if ((s.kind === 'assume' && !s.premise) || s.kind === 'assert') F.variablesOf(s.cond, vars);
    else if (s.kind === 'call') {
      if (s.target !== null) vars.add(s.target);
      for (const a of s.args) for (const v of a.coeffs.keys()) vars.add(v);
    }
  }
  return [...vars].sort();
}

/** Why the summaries cannot be used as given (null when they can). */
function summaryProblem(program: Program, summaries: ReadonlyMap<string, readonly SummaryPairCertificate[]>): string | null {
  const globals = new Set(program.globals.map((g) => g.name));
  for (const [name, pairs] of summaries) {
    const proc = program.procedures.get(name);
    if (proc === undefined) return `summary given for '${name}', which the program does not define`;
    // The call encoding keeps every global's value, which is only right for procedures that write none;
    // and the body's assertions are proved under the pre-conditions only, while a call does not require
    // any pre-condition, so a summarised procedure must not contain assertions.
    for (const e of proc.edges) {
      const s = e.stmt;
      if (s.kind === 'assert') return `summarised procedure '${name}' contains an assertion at ${formatPos(e.pos)}`;
      const target = s.kind === 'assign' || s.kind === 'havoc' || s.kind === 'call' ? s.target : null;
      if (target !== null && globals.has(target)) return `summarised procedure '${name}' writes global '${target}' at ${formatPos(e.pos)}`;
    }
    const inputs = new Set([...proc.params, ...globals]);
    const outputs = new Set([...inputs, ...(proc.returnVar !== null ? [returnName(name)] : [])]);
    for (const [i, pair] of pairs.entries()) {
      const badPre = [...F.variablesOf(pair.pre)].filter((v) => !inputs.has(v));
      if (badPre.length > 0) return `pre-condition ${i + 1} of '${name}' mentions ${badPre.map((v) => `'${v}'`).join(', ')}, not an input`;
      const badPost = [...F.variablesOf(pair.post)].filter((v) => !outputs.has(v));
      if (badPost.length > 0) return `post-condition ${i + 1} of '${name}' mentions ${badPost.map((v) => `'${v}'`).join(', ')}, neither an input nor the return value`;
    }
  }
  return null;
}

/** What the region encoder needs to replace a call by the callee's summary. */
function callSummaries(program: Program, summaries: ReadonlyMap<string, readonly SummaryPairCertificate[]> | undefined): CallSummaries {
  const out = new Map<string, { params: readonly string[]; returnName: string; pairs: readonly { pre: Formula; post: Formula }[] }>();
  for (const [name, pairs] of summaries ?? []) {
    out.set(name, { params: program.procedures.get(name)!.params, returnName: returnName(name), pairs });
  }
  return out;
}

/** P's body with a fresh entry that copies every parameter and global x into `x!in` first. */
function withInputCopies(program: Program, proc: Procedure): { proc: Procedure; inputs: string[] } {
  const inputs = [...proc.params, ...program.globals.map((g) => g.name)];
  const locations = [...proc.locations];
  const edges = [...proc.edges];
  let next = proc.entry;
  // Built backwards from the old entry: each new location assigns one copy and leads to the previous.
  for (const x of [...inputs].reverse()) {
    const id = locations.length;
    locations.push({ id, loopHeader: false, label: `copy ${x}` });
    edges.push({ id: edges.length, from: id, to: next, stmt: { kind: 'assign', target: inputCopyName(x), expr: L.variable(x) }, pos: proc.pos });
    next = id;
  }
  return { proc: { ...proc, entry: next, locals: [...proc.locals, ...inputs.map(inputCopyName)], locations, edges }, inputs };
}

export async function checkInvariants(
  program: Program,
  procName: string,
  invariants: ReadonlyMap<number, Formula>,
  options: CertificateOptions = {},
): Promise<CertificateResult> {
  const proc = program.procedures.get(procName);
  if (proc === undefined) return rejected(`no procedure named '${procName}'`);
  if (options.summaries === undefined) return checkProcedure(program, proc, invariants, options);
  const problem = summaryProblem(program, options.summaries);
  if (problem) return rejected(problem);
  const results: CertificateResult[] = [await checkProcedure(program, proc, invariants, options)];
  const labels = [`function '${procName}'`];
  // Assume-guarantee: each body, under each of its pairs, with every call replaced by the summaries.
  for (const [name, pairs] of [...options.summaries].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const { proc: body, inputs } = withInputCopies(program, program.procedures.get(name)!);
    const atEntry = new Map<string, Linear>(inputs.map((x) => [x, L.variable(inputCopyName(x))]));
    if (body.returnVar !== null) atEntry.set(returnName(name), L.variable(body.returnVar));
    const bodyProgram: Program = { ...program, procedures: new Map(program.procedures).set(name, body) };
    for (const [i, pair] of pairs.entries()) {
      results.push(await checkProcedure(bodyProgram, body, pair.invariants, {
        ...options,
        precondition: pair.pre,
        postcondition: F.substitute(pair.post, atEntry),
      }));
      labels.push(`'${name}' under pair ${i + 1}`);
    }
  }
  const obligations = results.flatMap((r) => r.obligations);
  const failed = results.flatMap((r, k) => (r.valid ? [] : [`${labels[k]}: ${r.reason ?? 'not proved'}`]));
  return failed.length === 0 ? { valid: true, obligations } : { valid: false, reason: failed.join('; '), obligations };
}

async function checkProcedure(
  program: Program,
  proc: Procedure,
  invariants: ReadonlyMap<number, Formula>,
  options: CertificateOptions,
): Promise<CertificateResult> {
  const problem = structuralProblem(program, proc, invariants, options);
  if (problem) return rejected(problem);

  const precondition = options.precondition ?? F.TRUE;
  const postcondition = options.postcondition ?? F.TRUE;
  const perCheck = options.workPerCheck ?? CERTIFICATE_CHECK_WORK;
  const check: Check = async (solver, ...goals) => {
    const timeLimitMs = options.deadline?.bounded ? options.deadline.left : undefined;
    const work = options.work ? options.work.next(perCheck) : perCheck;
    if ((timeLimitMs !== undefined && timeLimitMs <= 0) || work <= 0) return null;
    const outcome = await solver.check({ ...(timeLimitMs !== undefined ? { timeLimitMs } : {}), work }, ...goals);
    options.work?.charge(outcome.work);
    return outcome;
  };

  const successors = successorEdges(proc);
  const reachable = reachableFrom(successors, proc.entry);
  const cutPoints = new Set<number>([proc.entry, ...invariants.keys()]);
  const cycle = findUncutCycle(successors, reachable, cutPoints);
  if (cycle) {
    const described = [...cycle, cycle[0]!].map((loc) => describeLocation(proc, loc)).join(' -> ');
    return rejected(`the cut-points do not cut the cycle ${described}: put an invariant on one of its locations`);
  }
  const reachableCuts = [...cutPoints].filter((loc) => reachable.has(loc)).sort((a, b) => a - b);
  const regions = reachableCuts.map((start) => regionOf(successors, start, cutPoints));
  const covered = new Set(regions.flatMap((r) => [r.start, ...r.interior, ...r.targets]));
  const uncovered = [...reachable].filter((loc) => !covered.has(loc)).sort((a, b) => a - b);
  if (uncovered.length > 0) {
    // Cannot happen when the entry is a cut-point and every cycle is cut; kept as a guard of that reasoning.
    return rejected(`${describeLocation(proc, uncovered[0]!)} is reachable but covered by no cut-point`);
  }

  const variables = variablesOfProcedure(program, proc);
  const invariantAt = (loc: number): Formula => (loc === proc.entry ? invariants.get(loc) ?? precondition : invariants.get(loc)!);
  const obligations: Obligation[] = [];

  // An invariant given at the entry replaces the precondition as what holds there (the entry may
  // be re-entered by a cycle), so it must follow from the precondition.
  const entryInvariant = invariants.get(proc.entry);
  if (entryInvariant !== undefined) {
    obligations.push(await proveEntryInvariant(proc.entry, variables, precondition, entryInvariant, check, options.freshContext ?? false));
  }
  for (const region of regions) {
    if (options.summaries === undefined && options.skipRegionsFrom?.has(region.start)) continue;
    const touching = options.onlyRegionsTouching;
    if (options.summaries === undefined && touching && !touching.has(region.start) && !region.targets.some((t) => touching.has(t))) continue;
    // The region's transitions are encoded once; each obligation adds its own goal.
    const regionObligations = await withLiaSolver(async (solver) => {
      const encoding = encodeRegion(solver, region, cutPoints, variables, invariantAt(region.start), callSummaries(program, options.summaries));
      const specs: ObligationSpec[] = [];
      const obligation = (to: number, kind: ObligationKind, at: NodeKey, goal: Formula, assertEdge?: Edge): void => {
        specs.push({ from: region.start, to, kind, at, goal, assertEdge });
      };
      for (const edge of region.edges) {
        if (edge.stmt.kind === 'assert') obligation(edge.from, 'safety', encoding.sourceOf(edge), edge.stmt.cond, edge);
      }
      for (const target of region.targets) {
        obligation(target, region.start === proc.entry ? 'initiation' : 'consecution', `target:${target}`, invariantAt(target));
      }
      if (region.start === proc.exit) obligation(proc.exit, 'exit', 'start', postcondition);
      else if (region.interior.includes(proc.exit)) obligation(proc.exit, 'exit', `inner:${proc.exit}`, postcondition);
      return checkRegionObligations(solver, encoding, specs, check);
    }, { fresh: options.freshContext ?? false });
    obligations.push(...regionObligations);
  }

  const failed = obligations.filter((o) => o.status !== 'proved');
  if (failed.length === 0) return { valid: true, obligations };
  const describe = (o: Obligation): string => {
    const where = o.kind === 'safety' ? `assert at ${formatEdge(proc, o.edge)}` : `${o.from} -> ${o.to}`;
    return `${o.kind} (${where}) ${o.status === 'unknown' ? `unknown: ${o.reason}` : 'refuted'}`;
  };
  const reason = `${failed.length} of ${obligations.length} obligations not proved: ${failed.map(describe).join('; ')}`;
  return { valid: false, reason, obligations };
}

function formatEdge(proc: Procedure, edgeId: number | undefined): string {
  const edge = edgeId === undefined ? undefined : proc.edges[edgeId];
  return edge ? `${formatPos(edge.pos)}, location ${edge.from}` : 'unknown edge';
}

const TIME_RAN_OUT = 'the time or work for the check ran out before it started';

/** Runs one z3 check within the time and work left and pays its work; null when none may start. */
type Check = (solver: LiaSolver, ...goals: string[]) => Promise<CheckOutcome | null>;

interface ObligationSpec {
  readonly from: number;
  readonly to: number;
  readonly kind: ObligationKind;
  /** Where the goal must hold (for 'safety': before the assert edge). */
  readonly at: NodeKey;
  readonly goal: Formula;
  readonly assertEdge?: Edge;
}

/**
 * A region's obligations with few z3 calls: each check asks for a model violating any obligation
 * still open (a flag per obligation implies its violation). A satisfiable check refutes the
 * obligations whose flags its model sets, with that model as their counterexample; an
 * unsatisfiable one proves every open obligation at once. When everything holds (a final check)
 * that is one call instead of one per obligation; Houdini's rounds pay one call per refuted
 * obligation plus one. An undecided check leaves the rest to one call each.
 */
async function checkRegionObligations(solver: LiaSolver, encoding: RegionEncoding, specs: readonly ObligationSpec[], check: Check): Promise<Obligation[]> {
  const results = new Map<ObligationSpec, Obligation>();
  let open = specs.filter((spec) => spec.goal.kind !== 'true');
  while (open.length > 1) {
    const flags = open.map(() => solver.boolSymbol());
    const implications = open.map((spec, i) => `(=> ${flags[i]} ${violationAt(nodeOf(encoding, spec), spec.goal)})`);
    const outcome = await check(solver, ...implications, `(or ${flags.join(' ')})`);
    if (outcome === null || outcome.status === 'unknown') break;
    if (outcome.status === 'unsat') {
      for (const spec of open) results.set(spec, { ...obligationBase(spec), status: 'proved', millis: outcome.millis });
      open = [];
      break;
    }
    const model = solver.model();
    const violated = open.filter((_, i) => model.bool(flags[i]!));
    if (violated.length === 0) break; // cannot happen: the disjunction of the flags holds
    for (const spec of violated) results.set(spec, refutedBy(model, encoding, spec, outcome.millis));
    open = open.filter((spec) => !violated.includes(spec));
  }
  for (const spec of open) results.set(spec, await proveObligation(solver, encoding, spec, check));
  return specs.map((spec) => results.get(spec) ?? { ...obligationBase(spec), status: 'proved', millis: 0 });
}

function obligationBase(spec: ObligationSpec) {
  return { from: spec.from, to: spec.to, kind: spec.kind, ...(spec.assertEdge ? { edge: spec.assertEdge.id } : {}) };
}

function nodeOf(encoding: RegionEncoding, spec: ObligationSpec): NodeEncoding {
  const node = encoding.nodes.get(spec.at);
  if (node === undefined) throw new Error(`certificate: no node ${spec.at} in the region of ${spec.from}`);
  return node;
}

/** The obligation refuted by `model` (which violates its goal): the path, start state and failing state. */
function refutedBy(model: LiaModel, encoding: RegionEncoding, spec: ObligationSpec, millis: number): Obligation {
  const path = pathTo(model, encoding, spec.at);
  return {
    ...obligationBase(spec),
    status: 'refuted',
    counterexample: envValues(model, encoding.nodes.get('start')!.env),
    failingState: envValues(model, nodeOf(encoding, spec).env),
    path: spec.assertEdge ? [...path, spec.assertEdge.id] : path,
    millis,
  };
}

async function proveObligation(solver: LiaSolver, encoding: RegionEncoding, spec: ObligationSpec, check: Check): Promise<Obligation> {
  if (spec.goal.kind === 'true') return { ...obligationBase(spec), status: 'proved', millis: 0 };
  const outcome = await check(solver, violationAt(nodeOf(encoding, spec), spec.goal));
  if (outcome === null) return { ...obligationBase(spec), status: 'unknown', reason: TIME_RAN_OUT, millis: 0 };
  if (outcome.status === 'unsat') return { ...obligationBase(spec), status: 'proved', millis: outcome.millis };
  if (outcome.status === 'unknown') return { ...obligationBase(spec), status: 'unknown', reason: outcome.reason, millis: outcome.millis };
  return refutedBy(solver.model(), encoding, spec, outcome.millis);
}

function proveEntryInvariant(
  entry: number,
  variables: readonly string[],
  precondition: Formula,
  invariant: Formula,
  check: Check,
  fresh: boolean,
): Promise<Obligation> {
  const base = { from: entry, to: entry, kind: 'initiation' as const };
  if (invariant.kind === 'true') return Promise.resolve({ ...base, status: 'proved', millis: 0 });
  return withLiaSolver(async (solver) => {
    const env = symbolsFor(solver, variables);
    solver.assert(formulaToSmt(F.and(precondition, F.not(invariant)), lookup(env)));
    const outcome = await check(solver);
    if (outcome === null) return { ...base, status: 'unknown', reason: TIME_RAN_OUT, millis: 0 };
    if (outcome.status === 'unsat') return { ...base, status: 'proved', millis: outcome.millis };
    if (outcome.status === 'unknown') return { ...base, status: 'unknown', reason: outcome.reason, millis: outcome.millis };
    const state = envValues(solver.model(), env);
    return { ...base, status: 'refuted', counterexample: state, failingState: state, path: [], millis: outcome.millis };
  }, { fresh });
}
