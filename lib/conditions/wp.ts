// `farkas wp`: weakest preconditions over the analysed function's parameters (paper 004, Section 4).
//
// neighbourhood (Fig. 6, the default): find a precondition R that is consistent (invariants exist,
// by Farkas), excludes every input known to fail, and whose every shifted neighbour (Eq. 4) contains
// a known failing input — condition (c) with concrete witnesses. When no such R exists for the known
// failures, a plain precondition is found and its neighbours are searched for failing inputs, which
// join the witnesses; then (c) is tried again.
// binary (Fig. 5): from a precondition ⋀ e_i >= 0 with the fewest conjuncts, weaken each row of
// I(D) = ⋀_i (e_i + Σ_{j≠i} D_ij e_j + D_i >= 0) entry by entry by binary search, asking the solver
// whether I(D) is still a precondition (a known failing input inside I(D) answers "no" at once).
// Several answers (footnote 1): each further one must cover a passing input outside the earlier ones.
// Every answer is certified by the independent checker, and each neighbour gets a failing input,
// replayed on the original program, as evidence that the answer is locally weakest.
import { READABLE_CHECK_WORK, SIDE_QUERY_WORK, NEIGHBOUR_FAILURE_STEPS, OBSERVED_PRE_TOTAL_WORK, REGION_FAILURE_STEPS, SLAB_FAILURE_STEPS, WP_SAMPLE_STEPS, WorkBudget, FURTHER_ANSWER_MIN_QUERIES, WEAKER_NEIGHBOUR_MOVES } from '../limits.js';
import { guardPreconditions } from '../guard/conditions-guard.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { normaliseInequality, simplifyInvariant } from '../ir/simplify.js';
import { equivalent, implies } from '../certify/lia.js';
import { replayed } from '../guard/replay.js';
import { stateKey, type State } from '../observe/samples.js';
import type { ScheduleStep } from '../constraints/schedule.js';
import { preconditionProblem } from './condition-problem.js';
import { AnalysisUnsupported, type Problem } from '../problem/prepare.js';
import type { Settings } from '../settings.js';
import { PathExplosionError } from '../vc/cutset.js';
import { affineHull } from '../observe/equalities.js';
import { candidateInputs, failingInputIn, inputRunner, type InputRun, type InputRunner } from './points.js';
import { conjunction, neighbours } from './neighbours.js';
import { SearchContext, type ConditionOptions } from './search.js';
import { equivalentOverRationals } from '../certify/rational-implication.js';
import { observedPrecondition } from './observed.js';
import type { ConditionAnswer, Coverage, IncompleteSearch, NeighbourEvidence, WpResult } from './types.js';

export interface WpOptions extends ConditionOptions {
  readonly strategy?: 'neighbourhood' | 'binary';
  /** Most preconditions reported (default 3). */
  readonly maxAnswers?: number;
  /** Whether inputs whose runs were cut off by the step limit must be covered (default true: for
   * nonterm they are the point). bounds says false: such a run may still exceed its bound later, so
   * no precondition need admit it, and searching for one would run to the time limit. */
  readonly coverCutOffRuns?: boolean;
  /** Inputs run before the sampled ones: a failing input the falsifier found (cex), from which the
   * search generalises when no sampled input fails. */
  readonly seedInputs?: readonly State[];
}

interface Candidate {
  readonly atoms: readonly Linear[];
  readonly invariants: ReadonlyMap<number, Formula>;
  readonly attempt: Attempt;
}

/** An invariant template step, with or without the hull equalities as known conjuncts. */
interface Attempt {
  readonly step: ScheduleStep;
  readonly facts: ReadonlyMap<number, Formula>;
}

export async function wp(analysed: Problem, settings: Settings, options: WpOptions = {}): Promise<WpResult> {
  const strategy = options.strategy ?? 'neighbourhood';
  const { program } = analysed;
  let problem;
  try {
    problem = preconditionProblem(analysed, settings.cutset);
  } catch (e) {
    // Recursion (no summaries in the condition searches yet) and path explosion are "no answer", not crashes.
    if (!(e instanceof AnalysisUnsupported || e instanceof PathExplosionError)) throw e;
    const fn = analysed.function;
    return { function: fn, strategy, parameters: [...program.procedures.get(fn)!.params], preconditions: [], reason: e.message, stats: { queries: [], iterations: 0, concreteRuns: 0, millis: 0 } };
  }
  const ctx = new SearchContext(program, problem, settings, options);
  const fn = problem.prepared.function;
  const params = problem.targetVariables;
  const runner = inputRunner(problem.prepared.preparedProgram, fn, problem.prepared.unknownCutpoints);
  const passing: InputRun[] = [];
  const failing: InputRun[] = [];
  // Sampling is bounded by interpreter steps (work: the same inputs on any machine) and the deadline.
  for (const input of [...(options.seedInputs ?? []).map((s) => new Map(params.map((p) => [p, s.get(p) ?? 0n] as const))), ...candidateInputs(params)]) {
    if (runner.steps >= WP_SAMPLE_STEPS || ctx.deadlinePassed) break;
    const run = runner.run(input);
    (run.failure ? failing : passing).push(run);
  }
  options.onProgress?.({ kind: 'sampled', passing: passing.length, failing: failing.length });
  const search = new WpSearch(ctx, runner, params, passing, failing);
  const answers: ConditionAnswer[] = [];
  let reason: string | undefined;
  if (failing.length === 0) {
    // No input was seen to fail: the weakest precondition may be `true` (the program is safe).
    const unconditional = await search.unconditional();
    if (unconditional) {
      options.onProgress?.({ kind: 'answer', expression: unconditional.expression });
      guardPreconditions(program, fn, [unconditional]);
      const observedInputs = passing.map((r) => r.input);
      return { function: fn, strategy, parameters: params, preconditions: [unconditional], coverage: coverageOf(observedInputs, [F.TRUE]), observedInputs, stats: ctx.stats(runner.runs) };
    }
  }
  // An answer that a later one contains is dropped and does not count: binary search can stop at a
  // small region first (j <= -48) and reach the larger one (j <= 0) from another uncovered input.
  // Each further answer may take as many solver queries as the first did, and at least
  // FURTHER_ANSWER_MIN_QUERIES (a count, so the same answers come on any machine): a
  // passing input left outside every answer may lie in no conjunctive precondition within the
  // templates (Bug1's y == 3, n == 202, whose failing set is not linear), and the search for one
  // would otherwise run to the timeout after the answer is known.
  let firstAnswerQueries = 0;
  let incomplete: IncompleteSearch | undefined;
  // The sampled safe inputs the answers are to cover.
  const aimedAt = (): State[] => passing.filter((r) => !r.blockedEarly && (r.returned || options.coverCutOffRuns !== false)).map((r) => r.input);
  for (let k = 0, tries = 0; k < (options.maxAnswers ?? 3) && tries < 2 * (options.maxAnswers ?? 3); k++, tries++) {
    const uncovered = aimedAt().filter((s) => !answers.some((a) => F.evaluate(a.formula, (v) => s.get(v) ?? 0n)));
    if (uncovered.length === 0) break;
    const budget = Math.max(FURTHER_ANSWER_MIN_QUERIES, firstAnswerQueries);
    if (answers.length > 0) ctx.limitNextPart(budget);
    const found = strategy === 'binary' ? await search.binary(uncovered) : await search.neighbourhood(uncovered);
    if (!found) {
      if (answers.length === 0) reason = ctx.timedOut ? 'timeout before a precondition was found' : 'no precondition within the templates covers a passing input';
      else if (ctx.timedOut) incomplete = { uncoveredInputs: uncovered.length, budgetQueries: budget };
      break;
    }
    if (answers.length === 0) firstAnswerQueries = ctx.queries.length;
    const answer = await search.report(strategy === 'neighbourhood' ? await search.followWeaker(found) : found);
    for (let i = answers.length - 1; i >= 0; i--) {
      if (await containedIn(ctx, answers[i]!.formula, answer.formula)) {
        answers.splice(i, 1);
        k--;
      }
    }
    answers.push(answer);
    options.onProgress?.({ kind: 'answer', expression: answer.expression });
    if (ctx.deadlinePassed) break;
  }
  if (failing.length === 0 && answers.length === 0) reason = 'no sampled input fails an assertion';
  // Certified on the prepared procedure: held to runs of the program itself before they are returned.
  guardPreconditions(program, fn, answers);
  const observedInputs = aimedAt();
  const coverage = coverageOf(observedInputs, answers.map((a) => a.formula));
  return { function: fn, strategy, parameters: params, preconditions: answers, ...(reason ? { reason } : {}), ...(incomplete ? { incomplete } : {}), coverage, observedInputs, stats: ctx.stats(runner.runs) };
}

/** How many of `inputs` lie inside at least one of `answers`. */
export function coverageOf(inputs: readonly ReadonlyMap<string, bigint>[], answers: readonly Formula[]): Coverage {
  const covered = inputs.filter((s) => answers.some((f) => F.evaluate(f, (v) => s.get(v) ?? 0n))).length;
  return { covered, observed: inputs.length };
}

/**
 * `narrower` adds no input to `wider`: it implies it, or every run from an input it admits beyond
 * `wider` is blocked by an assume before reaching any cut-point or the exit, without failing an
 * assertion (Fig. 9's n + 2*x0 + 1 >= m + 2*y0 beyond n >= m + 1 needs x0 >= y0, which the
 * program's first statement excludes). The second is a certificate with `false` at every cut-point
 * and at the exit.
 */
async function containedIn(ctx: SearchContext, narrower: Formula, wider: Formula): Promise<boolean> {
  if ((await implies(narrower, wider, { work: SIDE_QUERY_WORK })).status === 'valid') return true;
  const { unknownCutpoints, cut } = ctx.problem.prepared;
  // Not at the entry: an invariant there would replace the precondition.
  const nowhere = new Map(unknownCutpoints.filter((c) => c !== cut.proc.entry).map((c) => [c, F.FALSE] as const));
  return ctx.certify(nowhere, { precondition: F.and(narrower, F.not(wider)), postcondition: F.FALSE });
}


class WpSearch {
  private readonly maxConjuncts: number;

  constructor(
    private readonly ctx: SearchContext,
    private readonly runner: InputRunner,
    private readonly params: readonly string[],
    private readonly passing: readonly InputRun[],
    private readonly failing: InputRun[],
  ) {
    this.maxConjuncts = ctx.options.maxConjuncts ?? 4;
    // Equalities every passing run kept at a cut-point (k == i in a copy loop): tried first as known
    // conjuncts of the invariants, which keeps the templates small; then every step without them.
    const hull = new Map<number, Formula>();
    for (const c of ctx.problem.prepared.unknownCutpoints) {
      const states = passing.flatMap((r) => r.reached.get(c) ?? []);
      const eqs = affineHull(ctx.problem.prepared.variables.get(c) ?? [], states);
      if (eqs.length > 0) hull.set(c, F.and(...eqs));
    }
    this.attempts = ctx.steps.flatMap((step) => (hull.size > 0 ? [{ step, facts: hull }, { step, facts: new Map() }] : [{ step, facts: new Map() }]));
  }

  private readonly attempts: readonly Attempt[];

  /** Failing inputs the solver must respect: those next to a passing input first (they shape the
   * boundary), then the nearest others, and every one learned from a neighbour. */
  private get witnesses(): State[] {
    const passingKeys = new Set(this.passing.map((r) => stateKey(r.input)));
    const nextToPassing = (s: State): boolean =>
      [...s.keys()].some((v) => [-1n, 1n].some((d) => passingKeys.has(stateKey(new Map(s).set(v, s.get(v)! + d)))));
    const boundary = this.failing.filter((r) => this.learned.has(r) || nextToPassing(r.input));
    const rest = this.failing.filter((r) => !boundary.includes(r));
    return [...boundary.slice(0, 120), ...rest.slice(0, Math.max(0, 40 - boundary.length))].map((r) => r.input);
  }

  private readonly learned = new Set<InputRun>();

  private get runs() {
    return this.passing.slice(0, 60).map((r) => ({ input: r.input, reached: r.reached }));
  }

  async neighbourhood(uncovered: readonly State[]): Promise<Candidate | null> {
    // First the precondition the sampled inputs propose, checked by Houdini (observed.ts): when it
    // holds, no solver query is needed to find it; the report below still looks for a failing
    // input in each neighbour.
    const seeds = this.passing.filter((r) => uncovered.includes(r.input));
    const observed = await observedPrecondition({
      prepared: this.ctx.problem.prepared, runner: this.runner, params: this.params, passing: this.passing, failing: this.failing,
      work: new WorkBudget(OBSERVED_PRE_TOTAL_WORK), deadline: this.ctx.deadline,
    }, seeds);
    if (observed && (await this.everyShiftFails(observed.atoms)) && (await this.ctx.certify(observed.invariants, { precondition: conjunction(observed.atoms) }))) {
      return { atoms: observed.atoms, invariants: observed.invariants, attempt: this.attempts[0]! };
    }
    for (const attempt of this.attempts) {
      const { step, facts } = attempt;
      for (let n = 1; n <= this.maxConjuncts; n++) {
        let fallback: Candidate | null = null;
        for (let round = 0; round < 4 && !this.ctx.timedOut; round++) {
          this.ctx.iterations++;
          const base = { step, facts, conjuncts: n, includeSome: uncovered, exclude: this.witnesses, runs: this.runs };
          const tight = await this.ctx.query({ ...base, shiftWitnesses: { direction: 1, states: this.witnesses } }, 'locally weakest precondition');
          if (tight.status === 'sat') {
            const candidate = { atoms: tight.atoms, invariants: tight.invariants, attempt };
            if (await this.ctx.certify(tight.invariants, { precondition: tight.relation })) return this.weakened(candidate, tight.relation, uncovered);
            break;
          }
          const plain = await this.ctx.query(base, 'any precondition');
          if (plain.status !== 'sat' || !(await this.ctx.certify(plain.invariants, { precondition: plain.relation }))) break;
          fallback = { atoms: plain.atoms, invariants: plain.invariants, attempt };
          // Look for failing inputs in its shifted neighbours; they become witnesses for (c).
          let learned = 0;
          for (const nb of neighbours(plain.atoms, 1).slice(0, n)) {
            const run = await failingInputIn(this.runner, this.params, nb.formula, plain.relation, { steps: NEIGHBOUR_FAILURE_STEPS });
            if (run && !this.failing.includes(run)) {
              this.failing.unshift(run);
              this.learned.add(run);
              learned++;
            }
          }
          if (learned === 0) return fallback;
        }
        if (fallback) return fallback;
        if (this.ctx.timedOut) return null;
      }
    }
    return null;
  }

  /**
   * Each shifted neighbour (e_j + 1 >= 0) of the precondition contains a failing input: otherwise the
   * data-driven answer stopped short (its weakening ran out of time) and the solver search does better.
   */
  private async everyShiftFails(atoms: readonly Linear[]): Promise<boolean> {
    const relation = conjunction(atoms);
    for (const [j, e] of atoms.entries()) {
      const shifted = conjunction(atoms.map((a, i) => (i === j ? L.addConstant(e, 1n) : a)));
      const inside = F.and(shifted, F.not(relation));
      if (this.failing.some((r) => F.evaluate(inside, (v) => r.input.get(v) ?? 0n))) continue;
      const run = await failingInputIn(this.runner, this.params, shifted, relation, { steps: SLAB_FAILURE_STEPS });
      if (!run) return false;
      this.failing.unshift(run);
    }
    return true;
  }

  /**
   * Fig. 6's inner loop: while a strictly weaker relation (one more passing input) is also a locally
   * weakest precondition, move to it. Local optima that are not weakest (x <= 0 for Swap) are left.
   */
  private async weakened(start: Candidate, relation: Formula, uncovered: readonly State[]): Promise<Candidate> {
    let current = start;
    let currentRelation = relation;
    for (let round = 0; round < 6 && !this.ctx.timedOut; round++) {
      const outside = uncovered.filter((s) => !F.evaluate(currentRelation, (v) => s.get(v) ?? 0n));
      if (outside.length === 0) break;
      this.ctx.iterations++;
      const q = await this.ctx.query(
        { ...current.attempt, conjuncts: current.atoms.length, includeSome: outside, weakerThan: currentRelation, exclude: this.witnesses, shiftWitnesses: { direction: 1, states: this.witnesses }, runs: this.runs },
        'strictly weaker locally weakest precondition',
      );
      if (q.status !== 'sat' || !(await this.ctx.certify(q.invariants, { precondition: q.relation }))) break;
      current = { atoms: q.atoms, invariants: q.invariants, attempt: current.attempt };
      currentRelation = q.relation;
    }
    return current;
  }

  /**
   * Fig. 6's move to a weaker neighbour, taken where the search stopped: a neighbour of the answer
   * (or the answer without one of its conjuncts) in which no failing input is known or found beyond
   * the answer (as the report looks for one) is tried as a precondition in its own right; the first one certified
   * replaces the answer, and its neighbours are tried in turn, up to WEAKER_NEIGHBOUR_MOVES moves.
   * (drain3's `x + y >= 10 && x >= 1` becomes `2 * x + y >= 11 && x >= 1`, …, `3 * x + y >= 12`.)
   */
  async followWeaker(found: Candidate): Promise<Candidate> {
    let current = found;
    for (let move = 0; move < WEAKER_NEIGHBOUR_MOVES && !this.ctx.timedOut; move++) {
      const atoms = current.atoms.map(normaliseInequality);
      const relation = conjunction(atoms);
      const dropped = atoms.length > 1 ? atoms.map((_, j) => atoms.filter((__, i) => i !== j)) : [];
      let next: Candidate | null = null;
      for (const candidate of [...dropped, ...neighbours(atoms, 1).map((nb) => nb.atoms)]) {
        const formula = conjunction(candidate);
        const holds = (r: InputRun) => F.evaluate(formula, (v) => r.input.get(v) ?? 0n);
        if (this.failing.some(holds)) continue;
        const failure = await failingInputIn(this.runner, this.params, formula, relation, { steps: REGION_FAILURE_STEPS });
        if (failure) {
          this.failing.unshift(failure);
          continue;
        }
        // The invariants may need wider coefficients than the answer did: the current step and later ones.
        for (const attempt of this.attempts.slice(Math.max(0, this.attempts.indexOf(current.attempt)))) {
          this.ctx.iterations++;
          const q = await this.ctx.query({ ...attempt, conjuncts: 0, knownTarget: formula, runs: [] }, 'is a weaker neighbour a precondition?');
          if (q.status === 'sat' && (await this.ctx.certify(q.invariants, { precondition: formula }))) {
            next = { atoms: candidate, invariants: q.invariants, attempt };
            break;
          }
          if (this.ctx.timedOut) break;
        }
        if (next || this.ctx.timedOut) break;
      }
      if (!next) break;
      current = next;
    }
    return current;
  }

  /** `true` as a precondition: the program is safe for every input (nothing weaker exists). */
  async unconditional(): Promise<ConditionAnswer | null> {
    for (const attempt of this.attempts) {
      if (this.ctx.timedOut) return null;
      this.ctx.iterations++;
      const q = await this.ctx.query({ ...attempt, conjuncts: 0, knownTarget: F.TRUE }, 'is true a precondition?');
      if (q.status === 'sat' && (await this.ctx.certify(q.invariants, {}))) {
        return { expression: '1', formula: F.TRUE, certified: true, invariants: await this.ctx.invariantReports(q.invariants, (c) => this.ctx.certify(c, { workPerCheck: READABLE_CHECK_WORK })), neighbours: [], locallyOptimal: true };
      }
    }
    return null;
  }

  async binary(uncovered: readonly State[]): Promise<Candidate | null> {
    let start: Candidate | null = null;
    for (let n = 1; n <= this.maxConjuncts && !start && !this.ctx.timedOut; n++) {
      for (const attempt of this.attempts) {
        this.ctx.iterations++;
        const q = await this.ctx.query({ ...attempt, conjuncts: n, includeSome: uncovered, exclude: this.witnesses, runs: this.runs }, 'starting precondition');
        if (q.status === 'sat' && (await this.ctx.certify(q.invariants, { precondition: q.relation }))) {
          start = { atoms: q.atoms.map(normaliseInequality), invariants: q.invariants, attempt };
          break;
        }
        if (this.ctx.timedOut) break;
      }
    }
    if (!start) return null;
    const e = start.atoms;
    const n = e.length;
    const maxD = 2n;
    // D as integers in units of 1/maxD: row i is maxD·e_i + Σ_{j≠i} D[i][j]·e_j + D[i][n] >= 0.
    const D: bigint[][] = e.map(() => new Array<bigint>(n + 1).fill(0n));
    const rows = (): Linear[] => e.map((ei, i) => {
      let row = L.scale(ei, maxD);
      for (let j = 0; j < n; j++) if (j !== i) row = L.add(row, L.scale(e[j]!, D[i]![j]!));
      return normaliseInequality(L.addConstant(row, D[i]![n]!));
    });
    let best: Candidate = start;
    const isPrecondition = async (): Promise<boolean> => {
      const atoms = rows();
      const formula = conjunction(atoms);
      // A known failing input inside I(D) refutes it without a solver call.
      if (this.failing.some((r) => F.evaluate(formula, (v) => r.input.get(v) ?? 0n))) return false;
      this.ctx.iterations++;
      const q = await this.ctx.query({ ...best.attempt, conjuncts: n, knownTarget: formula, runs: [] }, 'is I(D) a precondition?');
      if (q.status !== 'sat' || !(await this.ctx.certify(q.invariants, { precondition: formula }))) return false;
      best = { atoms, invariants: q.invariants, attempt: best.attempt };
      return true;
    };
    for (let i = 0; i < n; i++) {
      for (let j = 0; j <= n; j++) {
        if (j === i || this.ctx.timedOut) continue;
        const maxN = j === n ? 64n : 4n; // constants may move far; rotations by at most 4 (in units of e_i)
        let low = 0n;
        let high = maxN * maxD;
        while (high - low > 1n && !this.ctx.timedOut) {
          const mid = (low + high) / 2n;
          D[i]![j] = mid;
          this.ctx.options.onProgress?.({ kind: 'binary-step', entry: `D[${i + 1}][${j === n ? 'const' : j + 1}]`, low: `${low}/${maxD}`, high: `${high}/${maxD}` });
          if (await isPrecondition()) low = mid;
          else high = mid;
        }
        D[i]![j] = low;
      }
    }
    return best;
  }

  async report(found: Candidate): Promise<ConditionAnswer> {
    const atoms = found.atoms.map(normaliseInequality);
    const relation = conjunction(atoms);
    const formula = simplifyInvariant(relation);
    const evidence: NeighbourEvidence[] = [];
    let optimal = true;
    for (const nb of neighbours(atoms, 1)) {
      const expression = F.toC(nb.formula);
      const inside = F.and(nb.formula, F.not(relation));
      // A known failing input in the neighbour beyond the precondition also shows the two differ.
      const known = this.failing.find((r) => F.evaluate(inside, (v) => r.input.get(v) ?? 0n));
      if (!known && (equivalentOverRationals(nb.formula, relation) || (await equivalent(nb.formula, relation, { work: SIDE_QUERY_WORK })).status === 'valid')) {
        evidence.push({ expression, move: nb.move, replayed: false, note: 'equivalent to the precondition (its conjuncts are not independent)' });
        continue;
      }
      const run = known ?? (await failingInputIn(this.runner, this.params, nb.formula, relation, { steps: REGION_FAILURE_STEPS }));
      const replay = run?.failure ? replayed(this.ctx.program, this.ctx.problem.prepared.function, run.failure) : null;
      if (run && replay) {
        evidence.push({ expression, move: nb.move, input: run.input, nondet: replay.nondet, line: replay.line, replayed: true });
      } else {
        optimal = false;
        evidence.push({ expression, move: nb.move, replayed: false, note: 'no failing input found in this neighbour: it may be a weaker precondition' });
      }
    }
    return {
      expression: F.toC(formula),
      formula,
      certified: true,
      invariants: await this.ctx.invariantReports(found.invariants, (c) => this.ctx.certify(c, { precondition: relation, workPerCheck: READABLE_CHECK_WORK })),
      neighbours: evidence,
      locallyOptimal: optimal,
    };
  }
}
