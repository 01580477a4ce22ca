// One solver query of the weakest-precondition / strongest-postcondition searches (paper 004,
// Sections 4–5): find a conjunctive relation R at a target cut-point (the entry for preconditions,
// the exit for postconditions), together with invariants at the other cut-points, such that
//   (a) R is consistent: the verification conditions hold with R in place (Farkas, as in `verify`);
//   (b) R is related to the current answer: `current ⇒ R` (weaker) or `R ⇒ current` (stronger);
//   (c) R is pinned by concrete points: it contains some or all of a set of states, excludes others,
//       and each of its shifted neighbours (`e_j + 1 >= 0` resp. `e_j - 1 >= 0`) meets a witness point.
// The paper states (b)'s strictness and (c) with existentially quantified program variables; here
// the witnesses are concrete states found by the interpreter, which makes those conditions linear in
// the unknowns, and every witness is a real run that the report can show.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { buildFarkasSystem, farkasConstraints } from '../constraints/farkas.js';
import { decodeTemplate, instantiate, knownCnf, knownDnf, makeNamedTemplate, negateAtom, type ParamAtom, type Template } from '../constraints/template.js';
import { polyFromTerms, satisfies, type ConstraintSystem, type PolyConstraint, type Term, type Unknown } from '../constraints/system.js';
import type { ScheduleStep } from '../constraints/schedule.js';
import { encodeUnknowns, type SystemEncoder } from '../encode/system-encoder.js';
import type { Lit } from '../encode/cnf-builder.js';
import type { SatBackend } from '../sat/types.js';
import { simplifyInvariant } from '../ir/simplify.js';
import type { ConditionProblem } from './condition-problem.js';
import type { State } from '../observe/samples.js';
import { templatesFor } from '../problem/prepare.js';
import { WorkLimitExceeded, type SatWork } from '../limits.js';

export interface ConditionQuery {
  readonly problem: ConditionProblem;
  /** Invariant template shape and widths (the target relation uses the same widths). */
  readonly step: ScheduleStep;
  /** Conjuncts of the target relation's template. */
  readonly conjuncts: number;
  /** R contains every one of these states. */
  readonly includeAll?: readonly State[];
  /** R contains at least one of these states (non-emptiness, or "not covered by earlier answers"). */
  readonly includeSome?: readonly State[];
  /** R excludes at least one of these states (strictly stronger than a relation containing them). */
  readonly excludeSome?: readonly State[];
  /** R contains none of these states. */
  readonly exclude?: readonly State[];
  /** (c) for shifts: each shifted neighbour of R contains one of these states (+1: weaken, -1: strengthen
   * — for a postcondition "contains" reads "is violated by"). */
  readonly shiftWitnesses?: { readonly direction: 1 | -1; readonly states: readonly State[] };
  /** (b): `relation ⇒ R` (wp) or `R ⇒ relation` (sp). */
  readonly weakerThan?: Formula;
  readonly strongerThan?: Formula;
  /** Known conjuncts of the invariants (equalities of the sampled states' affine hull), by cut-point. */
  readonly facts?: ReadonlyMap<number, Formula>;
  /** Known conjuncts of the target relation itself (postconditions: equalities every reached state
   * satisfies); the answer is these ∧ the template. */
  readonly targetFacts?: Formula;
  /** The relation at the target is known (binary search: "is I(D) a precondition?"). */
  readonly knownTarget?: Formula;
  /** Runs as conditional necessary conditions: if R contains the run's input, the invariants contain
   * the states the run reached (sound for preconditions: then the run is one of the program's runs). */
  readonly runs?: readonly { readonly input: State; readonly reached: ReadonlyMap<number, readonly State[]> }[];
  /** States the invariants must contain whatever R is (postconditions: every run is a run). */
  readonly reached?: ReadonlyMap<number, readonly State[]>;
  readonly backend: SatBackend;
  /** The SAT solve's work budget, and its time limit when the user set one. */
  readonly limits: SatWork & { readonly timeLimitMs?: number };
}

export interface QueryStats {
  readonly conjuncts: number;
  readonly template: string;
  readonly variables: number;
  readonly clauses: number;
  readonly satMillis: number;
  readonly conflicts?: number;
  readonly propagations?: number;
  readonly result: 'sat' | 'unsat' | 'unknown';
  readonly reason?: string;
}

export type QueryOutcome =
  | { readonly status: 'sat'; readonly relation: Formula; readonly atoms: readonly L.Linear[]; readonly invariants: ReadonlyMap<number, Formula>; readonly stats: QueryStats }
  | { readonly status: 'unsat' | 'unknown'; readonly reason?: string; readonly stats: QueryStats };

export async function solveConditionQuery(q: ConditionQuery): Promise<QueryOutcome> {
  try {
    return await solveWithinLimits(q);
  } catch (e) {
    // A query too large to build (lib/limits.ts) is answered "unknown", like one the solver gave up on.
    if (!(e instanceof WorkLimitExceeded)) throw e;
    const template = `${q.step.shape.disjuncts}x${q.step.shape.conjuncts}`;
    return { status: 'unknown', reason: e.message, stats: { conjuncts: q.conjuncts, template, variables: 0, clauses: 0, satMillis: 0, result: 'unknown', reason: e.message } };
  }
}

async function solveWithinLimits(q: ConditionQuery): Promise<QueryOutcome> {
  const { problem } = q;
  const target = q.knownTarget ? null : makeNamedTemplate(`R${problem.target}`, problem.targetVariables, { disjuncts: 1, conjuncts: q.conjuncts });
  const targetTemplate: Template | null = target ? { ...target, cutpoint: problem.target } : null;
  const templates = templatesFor(problem.prepared, q.step.shape);
  if (targetTemplate) templates.set(problem.target, targetTemplate);
  const known = new Map<number, Formula>();
  const strengthening = new Map<number, Formula>(q.facts ?? []);
  const entry = problem.prepared.cut.proc.entry;
  if (problem.target === entry) {
    if (targetTemplate) strengthening.set(entry, problem.prepared.precondition);
    else known.set(entry, F.and(problem.prepared.precondition, q.knownTarget!));
  } else {
    known.set(entry, problem.prepared.precondition);
    if (!targetTemplate) known.set(problem.target, q.knownTarget!);
    else if (q.targetFacts) strengthening.set(problem.target, q.targetFacts);
  }
  // A precondition over parameters the procedure never assigns holds at every cut-point: the
  // invariants need not repeat it (Merge's loops need m3 >= m1 + m2 only through it).
  const assumedAtoms = new Map<number, ParamAtom[]>();
  if (targetTemplate && problem.target === entry && problem.parametersConstant) {
    const atoms = instantiate(targetTemplate, new Map())[0]!;
    for (const c of templates.keys()) if (c !== entry) assumedAtoms.set(c, atoms);
  }
  const farkas = buildFarkasSystem({ vcs: problem.vcs, templates, known, strengthening, assumedAtoms });
  const unknowns: Unknown[] = [...farkas.system.unknowns];
  const constraints: PolyConstraint[] = [...farkas.system.constraints];
  if (targetTemplate) {
    const atoms = instantiate(targetTemplate, new Map())[0]!;
    let counter = 0;
    const addImplication = (lhs: readonly ParamAtom[][], rhsClauses: readonly ParamAtom[][], origin: string): void => {
      for (const cube of lhs) {
        for (const clause of rhsClauses) {
          const items = [...cube, ...clause.map(negateAtom)];
          const mults = items.map(() => `m${counter++}`);
          for (const m of mults) unknowns.push({ name: m, kind: 'multiplier', nonNegative: true });
          constraints.push(...farkasConstraints(items, mults, origin));
        }
      }
    };
    if (q.weakerThan) addImplication(knownDnf(q.weakerThan), atoms.map((a) => [a]), 'current relation implies the new one');
    if (q.strongerThan) {
      const facts = knownDnf(q.targetFacts ?? F.TRUE)[0] ?? [];
      addImplication([[...atoms, ...facts]], knownCnf(q.strongerThan), 'new relation implies the current one');
    }
  }
  const system: ConstraintSystem = { unknowns, constraints };
  const encoder = encodeUnknowns(system.unknowns, q.step.widths);
  for (const c of system.constraints) encoder.assertConstraint(c);
  const b = encoder.builder;
  const holds = (t: Template, state: State): Lit => b.orN(atStateLiterals(encoder, t, state).map((conj) => b.andN(conj)));
  // A state outside the known facts says nothing about the template (facts ∧ template is the invariant).
  const factHolds = (c: number, state: State): boolean => F.evaluate(q.facts?.get(c) ?? F.TRUE, (v) => state.get(v) ?? 0n);
  for (const [c, t] of templates) {
    if (c === problem.target) continue;
    for (const state of q.reached?.get(c) ?? []) if (factHolds(c, state)) b.assertLit(holds(t, state));
  }
  if (targetTemplate) {
    const conj = (state: State): Lit[] => atStateLiterals(encoder, targetTemplate, state)[0]!;
    const member = (state: State): Lit => b.andN(conj(state));
    for (const s of q.includeAll ?? []) b.assertLit(member(s));
    if (q.includeSome) b.assertLit(b.orN(q.includeSome.map(member)));
    for (const s of q.exclude ?? []) b.assertLit(-member(s));
    if (q.excludeSome) b.assertLit(b.orN(q.excludeSome.map((s) => -member(s))));
    for (const run of q.runs ?? []) {
      const reachedHold = [...run.reached].flatMap(([c, states]) => {
        const t = templates.get(c);
        return t && c !== problem.target ? states.filter((s) => factHolds(c, s)).map((s) => holds(t, s)) : [];
      });
      if (reachedHold.length > 0) b.assertLit(b.orN([-member(run.input), b.andN(reachedHold)]));
    }
    if (q.shiftWitnesses) {
      const { direction, states } = q.shiftWitnesses;
      for (let j = 0; j < q.conjuncts; j++) {
        const witnessed = states.map((s) => {
          const lits = atStateLiterals(encoder, targetTemplate, s, { index: j, shift: BigInt(direction) })[0]!;
          // wp: the shifted neighbour contains s; sp: it excludes s (the shifted atom fails there).
          return direction === 1 ? b.andN(lits) : b.andN([...lits.filter((_, i) => i !== j), -lits[j]!]);
        });
        b.assertLit(b.orN(witnessed));
      }
    }
    // Every atom must mention a variable: `0 >= 0` is a conjunct that says nothing, and its shifted
    // neighbour `-1 >= 0` would be refuted by any state.
    targetTemplate.coefficient[0]!.forEach((names) => {
      b.assertLit(b.orN(names.flatMap((n) => [lit(encoder, [{ vars: [n], coeff: 1n }, { vars: [], coeff: -1n }]), lit(encoder, [{ vars: [n], coeff: -1n }, { vars: [], coeff: -1n }])])));
    });
  }
  const cnf = b.toCnf();
  const template = `${q.step.shape.disjuncts}x${q.step.shape.conjuncts}`;
  const sat = await q.backend.solve(cnf, q.limits);
  const stats: QueryStats = { conjuncts: q.conjuncts, template, variables: encoder.stats.vars, clauses: encoder.stats.clauses, satMillis: sat.millis, ...(sat.conflicts !== undefined ? { conflicts: sat.conflicts } : {}), ...(sat.propagations !== undefined ? { propagations: sat.propagations } : {}), result: sat.status, ...(sat.reason ? { reason: sat.reason } : {}) };
  if (sat.status !== 'sat') return { status: sat.status, ...(sat.reason ? { reason: sat.reason } : {}), stats };
  const values = encoder.decode(sat.model!);
  const value = (u: string): bigint => values.get(u) ?? 0n;
  if (!satisfies(system, value)) return { status: 'unknown', reason: 'internal: the SAT model does not satisfy the bilinear system', stats };
  const invariants = new Map<number, Formula>();
  const atoms = targetTemplate
    ? targetTemplate.coefficient[0]!.map((names, c) => L.fromTerms(targetTemplate.variables.map((v, i) => [v, value(names[i]!)] as [string, bigint]), value(targetTemplate.constant[0]![c]!)))
    : [];
  const relation = targetTemplate ? F.and(q.targetFacts ?? F.TRUE, ...atoms.map((a) => F.geqZero(a))) : q.knownTarget!;
  for (const [c, t] of templates) {
    if (c === problem.target) continue;
    const assumed = assumedAtoms.has(c) ? relation : F.TRUE;
    invariants.set(c, simplifyInvariant(F.and(assumed, q.facts?.get(c) ?? F.TRUE, decodeTemplate(t, value))));
  }
  return { status: 'sat', relation, atoms, invariants, stats };
}

/** Per disjunct, per conjunct: the literal "atom(state) (+ shift on one atom) >= 0". */
function atStateLiterals(encoder: SystemEncoder, t: Template, state: State, shifted?: { index: number; shift: bigint }): Lit[][] {
  return t.coefficient.map((conj, d) =>
    conj.map((names, c) => {
      const terms: Term[] = [{ vars: [t.constant[d]![c]!], coeff: 1n }];
      t.variables.forEach((v, i) => terms.push({ vars: [names[i]!], coeff: state.get(v) ?? 0n }));
      if (shifted && shifted.index === c) terms.push({ vars: [], coeff: shifted.shift });
      return lit(encoder, terms);
    }),
  );
}

function lit(encoder: SystemEncoder, terms: Term[]): Lit {
  return encoder.constraintLiteral({ poly: polyFromTerms(terms), rel: '>=' });
}
