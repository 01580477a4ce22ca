// A schedule step's templates against concrete states alone, refined by the checker's counterexamples.
//
// Why: the step's Farkas system (bilinear, bit-blasted) is what proves a candidate inductive, and it
// is large: Fig. 2 at the loop header, 2 disjuncts x 3 conjuncts, is 170,000 clauses that MiniSat
// does not refute within its budget (nor within 3 million conflicts). The template's unknowns alone,
// with the conditions concrete states put on them, make a smaller CNF without the multipliers. Three
// kinds of condition, each necessary for every inductive invariant that proves the program (so none
// removes a solution of the step):
// - a reached state is in the invariant at its cut-point;
// - a bad state is not (from it the program can fail an assertion);
// - if a state is in the invariant at c, its successor along a path to c' is in the invariant at c'.
// A solution of these conditions alone is a candidate; the certificate check either proves it (a
// certified invariant of the step's template) or refutes an obligation with a concrete state, which
// becomes a new condition, with those of the interpreter's run from that state. When the conditions
// have no solution, neither has the step. verify runs this search on a step whose SAT search ran out
// of work; the conditions found stay for the later steps' Farkas CNFs.
//
// The states come from the sampled runs, from z3's models of the certificate's encoding of the
// program and from the interpreter: both follow the C semantics (gcc-tested). A wrong condition could
// only cost a proof, never make one: every answer "safe" is the certificate check's. Every part is
// bounded by counts (rounds, conflicts, clauses, z3's work, the interpreter's steps).
import * as F from '../../ir/formula.js';
import type { Formula } from '../../ir/formula.js';
import type { Template } from '../../constraints/template.js';
import { decodeTemplate, templateAtState, templateUnknowns } from '../../constraints/template.js';
import type { Unknown, Widths } from '../../constraints/system.js';
import { encodeUnknowns, type SystemEncoder } from '../../encode/system-encoder.js';
import { orderTemplatePositions } from '../../encode/symmetry.js';
import type { Lit } from '../../encode/cnf-builder.js';
import { sessionOf, type SatBackend } from '../../sat/types.js';
import { runFrom, type State } from '../../observe/samples.js';
import { checkInvariants, type Obligation } from '../../certify/certificate.js';
import type { PreparedAnalysis } from '../../problem/prepare.js';
import { simplifyInvariant } from '../../ir/simplify.js';
import { SAMPLE_SEARCH_CHECK_WORK, SAMPLE_SEARCH_MAX_CLAUSES, SAMPLE_SEARCH_ROUNDS, SAMPLE_SEARCH_RUN_STATES, SAMPLE_SEARCH_RUN_STEPS, SatWorkBudget, satStepLimits, type Deadline, type SatWork } from '../../limits.js';

/** A state at a cut-point that the invariant there must contain, if it contains `state` at `from`. */
export interface Implication {
  readonly from: number;
  readonly state: State;
  readonly to: number;
  readonly next: State;
}

/** A state at a cut-point. */
export interface StateAt {
  readonly at: number;
  readonly state: State;
}

/** Conditions from concrete states on the invariants at the cut-points. Lists that only grow, so
 * that a CNF that has the first n of each is given the rest. */
export interface StateConditions {
  readonly reached: StateAt[];
  readonly bad: StateAt[];
  readonly implications: Implication[];
}

/** Conditions with the given reached and bad states (by cut-point), and no implication yet. */
export function stateConditions(reached: ReadonlyMap<number, readonly State[]>, bad: ReadonlyMap<number, readonly State[]>): StateConditions {
  const flat = (m: ReadonlyMap<number, readonly State[]>) => [...m].flatMap(([at, states]) => states.map((state) => ({ at, state })));
  return { reached: flat(reached), bad: flat(bad), implications: [] };
}

/** How many of each kind of condition a CNF has. */
export interface ConditionCounts {
  readonly reached: number;
  readonly bad: number;
  readonly implications: number;
}

export type SampleSearchOutcome =
  /** The conditions have no solution in the step's template: neither has the step. */
  | ({ readonly kind: 'refuted' } & SearchWork)
  /** A candidate the certificate check proved. */
  | ({ readonly kind: 'proved'; readonly invariants: Map<number, Formula> } & SearchWork)
  /** Neither within the budget: `reason` says what ended it. */
  | ({ readonly kind: 'open'; readonly reason: string } & SearchWork);

/** What the search spent: rounds, and the conflicts and propagations of its SAT solves. */
interface SearchWork {
  readonly rounds: number;
  readonly conflicts: number;
  readonly propagations: number;
}

export interface SampleSearchInput {
  readonly prepared: PreparedAnalysis;
  readonly templates: ReadonlyMap<number, Template>;
  readonly widths: Widths;
  /** Known conjuncts of the invariants (hull equalities, pins): the invariant is fact ∧ template. */
  readonly facts: ReadonlyMap<number, Formula>;
  /** Grown in place with the conditions the checker's counterexamples give. */
  readonly conditions: StateConditions;
  readonly backend: SatBackend;
  /** The SAT work of all its solves together (verify gives it a step's budget). */
  readonly work: SatWork;
  readonly deadline: Deadline;
}

/** The template's unknowns (coefficients and constants: no multipliers here). */
function templateUnknownsOf(templates: ReadonlyMap<number, Template>): Unknown[] {
  return [...templates.values()].flatMap((t) => {
    const { coefficients, constants } = templateUnknowns(t);
    return [
      ...coefficients.map((name) => ({ name, kind: 'coefficient' as const, nonNegative: false })),
      ...constants.map((name) => ({ name, kind: 'constant' as const, nonNegative: false })),
    ];
  });
}

/** The literal "`state` is in the invariant at the template's cut-point" (fact ∧ template). */
function memberLiteral(encoder: SystemEncoder, template: Template, fact: Formula, state: State): Lit {
  const b = encoder.builder;
  if (!F.evaluate(fact, (v) => state.get(v) ?? 0n)) return b.FALSE;
  return b.orN(templateAtState(template, state).map((conj) => b.andN(conj.map((k) => encoder.constraintLiteral(k)))));
}

/** Asserts the conditions after the first `from` of each on the templates' unknowns (for the sample
 * search and the Farkas CNF alike); returns the counts now asserted. */
export function assertStateConditions(
  encoder: SystemEncoder,
  templates: ReadonlyMap<number, Template>,
  facts: ReadonlyMap<number, Formula>,
  conditions: StateConditions,
  from: ConditionCounts = { reached: 0, bad: 0, implications: 0 },
): ConditionCounts {
  const b = encoder.builder;
  const member = (c: number, s: State) => memberLiteral(encoder, templates.get(c)!, facts.get(c) ?? F.TRUE, s);
  for (const { at, state } of conditions.reached.slice(from.reached)) if (templates.has(at)) b.assertLit(member(at, state));
  for (const { at, state } of conditions.bad.slice(from.bad)) if (templates.has(at)) b.assertLit(-member(at, state));
  for (const i of conditions.implications.slice(from.implications)) {
    if (templates.has(i.from) && templates.has(i.to)) b.assertLit(b.implies(member(i.from, i.state), member(i.to, i.next)));
  }
  return { reached: conditions.reached.length, bad: conditions.bad.length, implications: conditions.implications.length };
}

/** Where a refuted obligation's states are: a state at a cut-point with a template, and what the
 * checker says about it. */
type Seed =
  | { readonly kind: 'reached'; readonly at: number; readonly state: State }
  | { readonly kind: 'bad'; readonly at: number; readonly state: State }
  | { readonly kind: 'step'; readonly from: number; readonly state: State; readonly to: number; readonly next: State };

/**
 * What a refuted obligation says about concrete states: a state the program reaches (initiation), a
 * state from which it fails (safety, exit), or a state and its successor (consecution). A state is
 * used only at a cut-point with a template, and with a value for every variable live there (a run
 * from it is then determined by them; a template may leave some of them out: the hull attempts').
 */
export function seedOf(obligation: Obligation, prepared: PreparedAnalysis, templates: ReadonlyMap<number, Template>): Seed | null {
  if (obligation.status !== 'refuted') return null;
  const complete = (at: number, state: State | undefined): state is State =>
    state !== undefined && templates.has(at) && (prepared.variables.get(at) ?? []).every((v) => state.has(v));
  const start = obligation.counterexample;
  const end = obligation.failingState;
  switch (obligation.kind) {
    case 'initiation':
      return complete(obligation.to, end) ? { kind: 'reached', at: obligation.to, state: end } : null;
    case 'safety':
    case 'exit':
      return complete(obligation.from, start) ? { kind: 'bad', at: obligation.from, state: start } : null;
    case 'consecution':
      return complete(obligation.from, start) && complete(obligation.to, end) ? { kind: 'step', from: obligation.from, state: start, to: obligation.to, next: end } : null;
  }
}

/**
 * Adds the conditions a seed gives, and those of a concrete run from its state (the interpreter,
 * nondet values 0): every state a reached state's run passes is reached; a run that fails makes every
 * state it passes bad (and the state a step starts from); a run that does not fail makes each state
 * it passes imply the later ones. At most SAMPLE_SEARCH_RUN_STATES states of a run are taken (in
 * order, evenly spaced: each still implies the later ones). Returns the number of conditions added.
 */
export function addSeed(prepared: PreparedAnalysis, seed: Seed, conditions: StateConditions): number {
  const watched = new Set(prepared.unknownCutpoints);
  const [at, state] = seed.kind === 'step' ? [seed.to, seed.next] : [seed.at, seed.state];
  const run = runFrom(prepared.preparedProgram, prepared.function, at, state, watched, SAMPLE_SEARCH_RUN_STEPS);
  const spaced = Math.max(1, Math.ceil(run.along.length / SAMPLE_SEARCH_RUN_STATES));
  const along = run.along.filter((_, i) => i % spaced === 0);
  const failed = run.outcome === 'assertion-failed';
  if (seed.kind === 'reached') {
    conditions.reached.push({ at: seed.at, state: seed.state }, ...along);
    return 1 + along.length;
  }
  if (seed.kind === 'bad' || failed) {
    conditions.bad.push({ at: seed.kind === 'step' ? seed.from : seed.at, state: seed.state }, ...(failed ? along : []));
    return 1 + (failed ? along.length : 0);
  }
  conditions.implications.push({ from: seed.from, state: seed.state, to: seed.to, next: seed.next });
  for (let i = 0; i + 1 < along.length; i++) {
    conditions.implications.push({ from: along[i]!.at, state: along[i]!.state, to: along[i + 1]!.at, next: along[i + 1]!.state });
  }
  return 1 + Math.max(0, along.length - 1);
}

/**
 * Solves the conditions in the templates alone, checks each candidate with the certificate checker,
 * and adds the conditions its counterexamples give, for at most SAMPLE_SEARCH_ROUNDS rounds.
 */
export async function searchBySamples(input: SampleSearchInput): Promise<SampleSearchOutcome> {
  const { prepared, templates, widths, facts, conditions, backend, deadline } = input;
  const encoder = encodeUnknowns(templateUnknownsOf(templates), widths);
  // One solution per permutation class of conjuncts and disjuncts, as in the Farkas CNF.
  for (const t of templates.values()) orderTemplatePositions(encoder, t);
  let asserted: ConditionCounts = { reached: 0, bad: 0, implications: 0 };
  const spent = new SatWorkBudget(input.work);
  let conflicts = 0;
  let propagations = 0;
  const open = (rounds: number, reason: string): SampleSearchOutcome => ({ kind: 'open', rounds, conflicts, propagations, reason });
  // The CNF only grows from round to round: one incremental solver keeps what it learnt.
  const solver = sessionOf(backend);
  try {
    for (let round = 1; round <= SAMPLE_SEARCH_ROUNDS; round++) {
      asserted = assertStateConditions(encoder, templates, facts, conditions, asserted);
      if (deadline.passed || deadline.aborted) return open(round - 1, 'out of time');
      // Each condition costs a few hundred clauses per conjunct of the template (more with wide constants).
      if (encoder.stats.clauses > SAMPLE_SEARCH_MAX_CLAUSES) return open(round - 1, `more than ${SAMPLE_SEARCH_MAX_CLAUSES} clauses`);
      if (spent.exhausted) return open(round - 1, `SAT work limit reached (${spent.describe()})`);
      const sat = await solver.solve(encoder.builder.toCnf(), satStepLimits(spent.next(spent.limit), undefined, deadline));
      spent.charge(sat);
      conflicts += sat.conflicts ?? 0;
      propagations += sat.propagations ?? 0;
      if (sat.status === 'unsat') return { kind: 'refuted', rounds: round, conflicts, propagations };
      if (sat.status !== 'sat') return open(round, sat.reason ?? 'the SAT solver gave no answer');
      const values = encoder.decode(sat.model!);
      const invariants = new Map<number, Formula>();
      for (const [c, t] of templates) invariants.set(c, simplifyInvariant(F.and(facts.get(c) ?? F.TRUE, decodeTemplate(t, (u) => values.get(u) ?? 0n))));
      const check = await checkInvariants(prepared.preparedProgram, prepared.function, invariants, {
        precondition: prepared.precondition,
        deadline,
        workPerCheck: SAMPLE_SEARCH_CHECK_WORK,
        // Its counterexamples become conditions: the same ones after any checks made before.
        freshContext: true,
      });
      if (check.valid) return { kind: 'proved', rounds: round, conflicts, propagations, invariants };
      let added = 0;
      for (const o of check.obligations) {
        const seed = seedOf(o, prepared, templates);
        if (seed) added += addSeed(prepared, seed, conditions);
      }
      if (added === 0) return open(round, `a candidate was rejected without a counterexample (${check.reason ?? 'no reason'})`);
    }
    return open(SAMPLE_SEARCH_ROUNDS, `${SAMPLE_SEARCH_ROUNDS} rounds`);
  } finally {
    solver.close();
  }
}
