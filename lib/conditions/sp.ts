// `farkas sp`: the strongest postcondition at the exit (or at a cut-point) within the template
// (paper 004, Section 5, Fig. 8 — the dual of Fig. 6). Assertions are assumed. A candidate R must
// be consistent (every VC reaching the target implies R, with invariants found by Farkas), contain
// every reachable state the interpreter found there, and each shifted neighbour `e_j - 1 >= 0` must
// be violated by one of those states (condition (c) with concrete witnesses: every conjunct is tight
// on a real run). The answer is certified by the independent checker, and every
// neighbour (shifts and rotations `e_j - e_l >= 0`) gets a reachable state that violates it,
// reproduced by re-running the program, as evidence that nothing stronger nearby holds.
import { READABLE_CHECK_WORK, REPLAY_RUN_STEPS, SAMPLED_RUN_STEPS, SIDE_QUERY_WORK, STRENGTHEN_QUERIES } from '../limits.js';
import { guardPostcondition } from '../guard/conditions-guard.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { normaliseInequality, simplifyInvariant } from '../ir/simplify.js';
import { equivalent, isSatisfiable } from '../certify/lia.js';
import { runProgram } from '../interpreter/index.js';
import { stateKey, statesAlong, type State } from '../observe/samples.js';
import { affineHull } from '../observe/equalities.js';
import { postconditionProblem } from './condition-problem.js';
import { equivalentOverRationals } from '../certify/rational-implication.js';
import { AnalysisUnsupported, type Problem } from '../problem/prepare.js';
import type { Settings } from '../settings.js';
import { PathExplosionError } from '../vc/cutset.js';
import { reachableStates, type ReachedState } from './points.js';
import { conjunction, neighbours } from './neighbours.js';
import { observedPostcondition } from './observed-post.js';
import { SearchContext, type ConditionOptions } from './search.js';
import type { ConditionAnswer, NeighbourEvidence, SpResult } from './types.js';


export interface SpOptions extends ConditionOptions {
  /** Source line of a cut-point (a loop) instead of the exit. */
  readonly atLine?: number;
}

export async function sp(analysed: Problem, settings: Settings, options: SpOptions = {}): Promise<SpResult> {
  const { program } = analysed;
  let problem;
  try {
    problem = postconditionProblem(analysed, settings.cutset, options.atLine);
  } catch (e) {
    if (!(e instanceof AnalysisUnsupported || e instanceof PathExplosionError)) throw e;
    const fn = analysed.function;
    return { function: fn, line: program.procedures.get(fn)!.pos.line, at: 'exit', variables: [], postcondition: null, reason: e.message, stats: { queries: [], iterations: 0, concreteRuns: 0, millis: 0 } };
  }
  const ctx = new SearchContext(program, problem, settings, options);
  const { prepared, target } = problem;
  const fn = prepared.function;
  const variables = problem.targetVariables;
  const base = { function: fn, line: problem.targetLine, at: (target === prepared.cut.proc.exit ? 'exit' : 'cutpoint') as 'exit' | 'cutpoint', variables };
  const reached = reachableStates(prepared.preparedProgram, fn, target, variables, { deadline: ctx.deadline });
  if (reached.length === 0) {
    return { ...base, postcondition: null, reason: 'no concrete run reached the target (the postcondition may be false, or runs need other inputs)', stats: ctx.stats(0) };
  }
  options.onProgress?.({ kind: 'reached', states: reached.length, line: problem.targetLine });
  // Every invariant contains what runs reach: the same necessary conditions as in verify.
  const others = new Map<number, State[]>();
  const watched = new Set(prepared.unknownCutpoints);
  for (const r of reached.slice(0, 40)) {
    const run = runProgram(prepared.preparedProgram, { entry: fn, inputs: r.inputs, nondet: r.nondet, nondetDefault: 0n, maxSteps: SAMPLED_RUN_STEPS, recordTrace: true });
    for (const [c, states] of statesAlong(prepared.preparedProgram, fn, run, watched)) {
      const list = others.get(c) ?? [];
      others.set(c, list);
      for (const s of states) if (list.length < 24 && !list.some((t) => stateKey(t) === stateKey(s))) list.push(s);
    }
  }
  const hull = new Map<number, Formula>();
  for (const c of prepared.unknownCutpoints) {
    const eqs = affineHull(prepared.variables.get(c) ?? [], others.get(c) ?? []);
    if (eqs.length > 0) hull.set(c, F.and(...eqs));
  }
  const atExit = target === prepared.cut.proc.exit;
  let found: { atoms: readonly Linear[]; invariants: ReadonlyMap<number, Formula>; relation: Formula } | null = null;
  // First the postcondition the reached states propose, proved by Houdini (observed-post.ts). Unless
  // it is locally strongest already, the template search below then only looks for conjuncts to add
  // to it (speedometer's d <= s + 5*t is not a unit direction), within STRENGTHEN_QUERIES.
  const observed = await observedPostcondition(prepared, target, variables, reached, ctx.deadline);
  if (observed) {
    const relation = F.and(...observed.atoms);
    options.onProgress?.({ kind: 'certifying', expression: F.toC(relation), from: 'observed' });
    if (await certify(ctx, observed.invariants, relation, atExit)) {
      found = { atoms: equalityAtoms(relation), invariants: observed.invariants, relation };
      // Already locally strongest (a reached state violates each neighbour): nothing to strengthen.
      const postcondition = await report(ctx, fn, target, found.atoms, found.invariants, reached);
      if (postcondition.locallyOptimal) {
        guardPostcondition(program, fn, prepared.cut, target, postcondition);
        options.onProgress?.({ kind: 'answer', expression: postcondition.expression });
        return { ...base, postcondition, stats: ctx.stats(reached.length) };
      }
    }
  }
  // Without a data-driven answer, the equalities every reached state satisfies are guessed as part of
  // the answer (x == 2*m + 2); the template supplies the inequalities. Without them too, in case the
  // runs were not varied enough.
  const targetEqs = affineHull(variables, reached.map((r) => r.state));
  const targetFacts = found ? found.relation : targetEqs.length > 0 ? F.and(...targetEqs) : undefined;
  const none = new Map<number, Formula>();
  // Strengthening the data-driven answer, its invariants are known conjuncts: the template then only
  // needs what the new conjunct adds (d <= s + 5*t and s <= 5 for the speedometer).
  const known = found ? new Map(prepared.unknownCutpoints.map((c) => [c, F.and(hull.get(c) ?? F.TRUE, found!.invariants.get(c) ?? F.TRUE)] as const)) : hull;
  const attempts: { step: (typeof ctx.steps)[number]; facts: ReadonlyMap<number, Formula>; targetFacts?: Formula }[] = ctx.steps.flatMap((step) => [
    ...(targetFacts ? [{ step, facts: known, targetFacts }] : []),
    ...(found ? [] : [...(hull.size > 0 ? [{ step, facts: hull }] : []), { step, facts: none }]),
  ]);
  if (found) ctx.limitNextPart(STRENGTHEN_QUERIES);
  const states = reached.map((r) => r.state);
  search: for (const attempt of attempts) {
    for (let n = attempt.targetFacts ? 1 : 2; n <= (found ? 2 : (ctx.options.maxConjuncts ?? 4)); n++) {
      if (ctx.timedOut) break search;
      ctx.iterations++;
      const q = await ctx.query({ ...attempt, conjuncts: n, includeAll: states, reached: others, shiftWitnesses: { direction: -1, states } }, 'locally strongest postcondition');
      if (q.status !== 'sat') continue;
      options.onProgress?.({ kind: 'certifying', expression: F.toC(q.relation), from: 'query' });
      if (!(await certify(ctx, q.invariants, q.relation, atExit))) continue;
      const factAtoms = attempt.targetFacts ? equalityAtoms(attempt.targetFacts) : [];
      found = { atoms: [...factAtoms, ...q.atoms], invariants: q.invariants, relation: q.relation };
      // Fig. 8's loop: move to a strictly stronger relation (one that excludes a state the current one
      // allows) that still holds and is still tight, while one exists among nearby probe states.
      for (let round = 0; round < 4 && !ctx.timedOut; round++) {
        const probes = [...probeStates(states, variables), ...(await statesBeyond(found.relation, states, variables))].filter((p) => F.evaluate(found!.relation, (v) => p.get(v) ?? 0n));
        if (probes.length === 0) break;
        ctx.iterations++;
        const stronger = await ctx.query(
          { ...attempt, conjuncts: n, includeAll: states, reached: others, shiftWitnesses: { direction: -1, states }, strongerThan: found.relation, excludeSome: probes },
          'strictly stronger postcondition',
        );
        if (stronger.status !== 'sat') break;
        options.onProgress?.({ kind: 'certifying', expression: F.toC(stronger.relation), from: 'query' });
        if (!(await certify(ctx, stronger.invariants, stronger.relation, atExit))) break;
        found = { atoms: [...(attempt.targetFacts ? equalityAtoms(attempt.targetFacts) : []), ...stronger.atoms], invariants: stronger.invariants, relation: stronger.relation };
      }
      break search;
    }
  }
  if (!found) {
    return { ...base, postcondition: null, reason: ctx.deadlinePassed ? 'timeout before a postcondition was found' : 'no postcondition within the templates', stats: ctx.stats(reached.length) };
  }
  const postcondition = await report(ctx, fn, target, found.atoms, found.invariants, reached);
  // Certified on the prepared procedure: held to runs of the program itself before it is returned.
  guardPostcondition(program, fn, prepared.cut, target, postcondition);
  options.onProgress?.({ kind: 'answer', expression: postcondition.expression });
  return { ...base, postcondition, stats: ctx.stats(reached.length) };
}

async function certify(ctx: SearchContext, invariants: ReadonlyMap<number, Formula>, relation: Formula, atExit: boolean, workPerCheck?: number): Promise<boolean> {
  const work = workPerCheck !== undefined ? { workPerCheck } : {};
  if (atExit) return ctx.certify(invariants, { postcondition: relation, ...work });
  // At a loop cut-point the relation is one of the invariants.
  return ctx.certify(new Map([...invariants, [ctx.problem.target, relation]]), work);
}

async function report(
  ctx: SearchContext,
  fn: string,
  target: number,
  rawAtoms: readonly Linear[],
  invariants: ReadonlyMap<number, Formula>,
  reached: readonly ReachedState[],
): Promise<ConditionAnswer> {
  const atoms = rawAtoms.map(normaliseInequality);
  const relation = conjunction(atoms);
  const formula = simplifyInvariant(relation);
  const evidence: NeighbourEvidence[] = [];
  let optimal = true;
  const around = neighbours(atoms, -1);
  ctx.options.onProgress?.({ kind: 'neighbours', expression: F.toC(formula), count: around.length });
  for (const nb of around) {
    const expression = F.toC(nb.formula);
    // Most neighbours of dependent conjuncts restate the postcondition; exact rational arithmetic
    // shows that without a z3 call.
    if (equivalentOverRationals(nb.formula, relation) || (await equivalent(nb.formula, relation, { work: SIDE_QUERY_WORK })).status === 'valid') {
      evidence.push({ expression, move: nb.move, replayed: false, note: 'equivalent to the postcondition (its conjuncts are not independent)' });
      continue;
    }
    const witness = reached.find((r) => !F.evaluate(nb.formula, (v) => r.state.get(v) ?? 0n));
    if (witness && reproduces(ctx, fn, target, witness)) {
      evidence.push({ expression, move: nb.move, state: witness.state, input: witness.inputs, nondet: witness.nondet, replayed: true });
    } else {
      optimal = false;
      evidence.push({ expression, move: nb.move, replayed: false, note: 'no reachable state found that violates this neighbour: it may be a stronger postcondition' });
    }
  }
  return { expression: F.toC(formula), formula, certified: true, invariants: await ctx.invariantReports(invariants, (c) => certify(ctx, c, relation, target === ctx.problem.prepared.cut.proc.exit, READABLE_CHECK_WORK)), neighbours: evidence, locallyOptimal: optimal };
}

/** Re-running the witness's inputs and nondet values reaches its state at the target again. */
function reproduces(ctx: SearchContext, fn: string, target: number, witness: ReachedState): boolean {
  const program = ctx.problem.prepared.preparedProgram;
  const run = runProgram(program, { entry: fn, inputs: witness.inputs, nondet: witness.nondet, nondetDefault: null, maxSteps: REPLAY_RUN_STEPS, recordTrace: true });
  const states = statesAlong(program, fn, run, new Set([target])).get(target) ?? [];
  return states.some((s) => [...witness.state].every(([v, value]) => (s.get(v) ?? 0n) === value));
}

/** `e == 0` conjuncts as the atoms e >= 0 and -e >= 0. */
function equalityAtoms(f: Formula): Linear[] {
  const cube = F.dnf(f)[0] ?? [];
  return cube.flatMap((a) => (a.kind !== 'atom' ? [] : a.rel === '>=' ? [a.expr] : [a.expr, L.negate(a.expr)]));
}

/** States next to the reached ones (one variable moved by 1 or 3) that no run was seen to reach. */
function probeStates(reached: readonly State[], variables: readonly string[]): State[] {
  const seen = new Set(reached.map(stateKey));
  const out = new Map<string, State>();
  for (const s of reached.slice(0, 60)) {
    for (const v of variables) {
      for (const d of [-3n, -1n, 1n, 3n]) {
        const p = new Map(s).set(v, (s.get(v) ?? 0n) + d);
        const key = stateKey(p);
        if (!seen.has(key) && out.size < 400) out.set(key, p);
      }
    }
  }
  return [...out.values()];
}

/** States of `relation` beyond the reached range of one variable (below its least or above its
 * greatest reached value), found by z3: candidates for a stronger relation to exclude. */
async function statesBeyond(relation: Formula, reached: readonly State[], variables: readonly string[]): Promise<State[]> {
  const out: State[] = [];
  for (const v of variables) {
    const seen = reached.map((s) => s.get(v) ?? 0n);
    const [lo, hi] = [seen.reduce((a, b) => (b < a ? b : a)), seen.reduce((a, b) => (b > a ? b : a))];
    for (const beyond of [F.compare(L.variable(v), '<', L.constant(lo)), F.compare(L.variable(v), '>', L.constant(hi))]) {
      const sat = await isSatisfiable(F.and(relation, beyond), { work: SIDE_QUERY_WORK });
      if (sat.status === 'sat' && sat.model) out.push(new Map(variables.map((w) => [w, sat.model!.get(w) ?? 0n] as [string, bigint])));
    }
  }
  return out;
}
