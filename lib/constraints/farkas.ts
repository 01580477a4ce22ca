// Farkas' lemma removes the program variables (paper 004, Section 4, step 2).
// A VC ∀X. (D1 ∨ … ∨ Dm) ⇒ (C1 ∧ … ∧ Ck), with every Di and the negation of every clause Cj a
// conjunction of parametric atoms p >= 0, holds iff for each i, j the conjunction Di ∧ ¬Cj is
// unsatisfiable. Over the rationals that is: there are multipliers λ >= 0 with Σ λ·p ≡ -c, c >= 1
// (c > 0, scaled to integers): every program variable's coefficient sums to 0 and the constant to at
// most -1. Unknown template coefficients inside p times unknown λ make the constraints bilinear.
// Integer reasoning beyond this is lost: sound, incomplete — the paper's trade-off. Only each known
// atom is tightened on its own (template.ts, knownAtom: 3x >= 1 ∧ 2x <= 1 is x >= 1 ∧ x <= 0);
// x + 2y == 1 ∧ x == 2y, with no integer solution, is not refuted.
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import type { ConstraintSystem, PolyConstraint, Term, Unknown } from './system.js';
import { polyFromTerms } from './system.js';
import type { ParamAtom, Template } from './template.js';
import { instantiate, knownCnf, knownDnf, negateAtom, templateUnknowns } from './template.js';
import type { VerificationCondition } from '../vc/vc.js';
import { MAX_DNF_CUBES, MAX_FARKAS_APPLICATIONS, MAX_GUARD_CUBES, WorkLimitExceeded, type Deadline } from '../limits.js';

export interface FarkasInput {
  readonly vcs: readonly VerificationCondition[];
  /** Unknown relations by cut-point; a cut-point without a template has a known relation. */
  readonly templates: ReadonlyMap<number, Template>;
  /** Known relations (entry precondition, …); a missing one means `true`. */
  readonly known: ReadonlyMap<number, Formula>;
  /** Known conjuncts of the invariant at a cut-point with a template: the invariant there is
   * fact ∧ template, assumed where the cut-point is left and required where it is reached. */
  readonly strengthening?: ReadonlyMap<number, Formula>;
  /** Values that the strengthening at a cut-point fixes for some of its variables (integer
   * expressions over the others: equalities.ts, fixedVariables). Where the cut-point is left, each
   * such variable is replaced by its value in the path's guards and conclusion, so the equalities
   * need no multipliers there (they become identities). The templates must not mention them. */
  readonly eliminations?: ReadonlyMap<number, ReadonlyMap<string, Linear>>;
  /** Summaries of called procedures: pre/post templates over the callee's summary variables (the
   * pre-condition conjunctive). Their unknowns are declared by the caller (they are shared by units). */
  readonly summaries?: ReadonlyMap<string, readonly SummaryTemplates[]>;
  /** Parametric atoms known to hold wherever a cut-point is left (e.g. a precondition over parameters
   * that the procedure never assigns): conjoined to the relation there, never required. */
  readonly assumedAtoms?: ReadonlyMap<number, readonly ParamAtom[]>;
  /** Prefix of the Farkas multipliers' names, so that several units can share one system (default 'l'). */
  readonly multiplierPrefix?: string;
  /** Past it, building stops with DeadlineExceeded (lib/limits.ts). */
  readonly deadline?: Deadline;
}

export interface SummaryTemplates {
  readonly pre: Template;
  readonly post: Template;
}

export interface FarkasOutput {
  readonly system: ConstraintSystem;
  /** How many Farkas applications (LHS disjunct × RHS clause pairs) were made. */
  readonly applications: number;
}

export function buildFarkasSystem(input: FarkasInput): FarkasOutput {
  const unknowns: Unknown[] = [];
  for (const t of input.templates.values()) {
    const u = templateUnknowns(t);
    for (const name of u.coefficients) unknowns.push({ name, kind: 'coefficient', nonNegative: false });
    for (const name of u.constants) unknowns.push({ name, kind: 'constant', nonNegative: false });
  }
  const constraints: PolyConstraint[] = [];
  let multiplierCount = 0;
  let applications = 0;
  input.vcs.forEach((original, vcIndex) => {
    input.deadline?.check();
    // A path with summarised calls keeps its variables (the calls' substitutions are over them).
    const values = original.calls ? undefined : input.eliminations?.get(original.from);
    const vc = values && values.size > 0 ? withValues(original, values) : original;
    const from = input.templates.get(vc.from);
    const fact = input.strengthening?.get(vc.from) ?? F.TRUE;
    const facts = knownDnf(values && values.size > 0 ? F.substitute(fact, values) : fact);
    const assumed = input.assumedAtoms?.get(vc.from) ?? [];
    const lhsRelation: ParamAtom[][] = (from
      ? instantiate(from, new Map()).flatMap((cube) => facts.map((fact) => [...cube, ...fact]))
      : knownDnf(input.known.get(vc.from) ?? F.TRUE)
    ).map((cube) => [...cube, ...assumed]);
    const lhsGuards = combineCubes(combineCubes(guardDnf(vc.guards), callCases(vc, input)), premiseCases(vc, input));
    const rhs = conclusionCnf(vc, input);
    if (applications + lhsRelation.length * lhsGuards.length * rhs.length > MAX_FARKAS_APPLICATIONS) {
      throw new WorkLimitExceeded(`the constraint system needs more than ${MAX_FARKAS_APPLICATIONS} applications of Farkas' lemma`);
    }
    for (const [i, relCube] of lhsRelation.entries()) {
      for (const [g, guardCube] of lhsGuards.entries()) {
        for (const [j, clause] of rhs.entries()) {
          const items = [...relCube, ...guardCube, ...clause.map(negateAtom)];
          if (items.length === 0) {
            // `true ⇒ false`: no multipliers can refute an empty conjunction; the system is unsolvable.
            constraints.push({ poly: polyFromTerms([{ vars: [], coeff: -1n }]), rel: '>=', origin: `VC ${vcIndex}: conclusion is false` });
            continue;
          }
          applications++;
          if (applications % 64 === 0) input.deadline?.check();
          const mults = items.map(() => `${input.multiplierPrefix ?? 'l'}${multiplierCount++}`);
          for (const m of mults) unknowns.push({ name: m, kind: 'multiplier', nonNegative: true });
          const origin = `VC ${vcIndex} (${describe(vc)}), disjunct ${i}.${g}, clause ${j}`;
          constraints.push(...farkasConstraints(items, mults, origin));
        }
      }
    }
  });
  return { system: { unknowns, constraints }, applications };
}

/** The VC with each of `values`' variables replaced by its value (which holds where the path starts). */
function withValues(vc: VerificationCondition, values: ReadonlyMap<string, Linear>): VerificationCondition {
  const guards = F.substitute(vc.guards, values);
  if (vc.conclusion.kind === 'assertion') return { ...vc, guards, conclusion: { ...vc.conclusion, formula: F.substitute(vc.conclusion.formula, values) } };
  const app = vc.conclusion.app;
  // The target's variables are the start's under app.subst (itself where it has none).
  const subst = new Map<string, Linear>();
  for (const v of new Set([...app.subst.keys(), ...values.keys()])) subst.set(v, L.substitute(app.subst.get(v) ?? L.variable(v), values));
  return { ...vc, guards, conclusion: { kind: 'relation', app: { cutpoint: app.cutpoint, subst } } };
}

/**
 * The assumption of a summarised call, ⋀_i (¬A_i[u] ∨ B_i[u, v]), as a DNF over parametric atoms:
 * per pair, either one atom of the (conjunctive) pre-condition is false (its integer negation
 * -a·x - b - 1 >= 0) or one disjunct of the post-condition holds; the cases of all pairs of all calls
 * on the path are combined.
 */
function callCases(vc: VerificationCondition, input: FarkasInput): ParamAtom[][] {
  let cubes: ParamAtom[][] = [[]];
  for (const call of vc.calls ?? []) {
    const pairs = input.summaries?.get(call.callee);
    if (!pairs) throw new Error(`internal: no summary templates for '${call.callee}'`);
    for (const pair of pairs) {
      const pre = instantiate(pair.pre, call.subst);
      if (pre.length !== 1) throw new Error('internal: summary pre-conditions must be conjunctive');
      const cases = [...pre[0]!.map((atom) => [negateAtom(atom)]), ...instantiate(pair.post, call.subst)];
      cubes = combineCubes(cubes, cases);
    }
  }
  return cubes;
}

/** The premises' relations (templates or known relations, under their substitutions), as one DNF. */
function premiseCases(vc: VerificationCondition, input: FarkasInput): ParamAtom[][] {
  let cubes: ParamAtom[][] = [[]];
  for (const app of vc.premises ?? []) {
    const t = input.templates.get(app.cutpoint);
    cubes = combineCubes(cubes, t ? instantiate(t, app.subst) : knownDnf(F.substitute(input.known.get(app.cutpoint) ?? F.TRUE, app.subst)));
  }
  return cubes;
}

/**
 * A path's guard as a DNF for the premise of Farkas' lemma. Each cube is one application per
 * conclusion clause, so a guard of more than MAX_GUARD_CUBES cases (a branch on `(a > 0 || b > 0) &&
 * (a > 1 || b > 1) && …`, wrap-around cases) is weakened: its conjuncts with the fewest cases are kept
 * while the product fits, the others dropped. A weaker premise only makes the implication harder to
 * satisfy, so invariants found this way are still invariants (and the certificate checker validates
 * them on the exact VCs anyway).
 */
function guardDnf(guards: Formula): ParamAtom[][] {
  try {
    const cubes = knownDnf(guards);
    if (cubes.length <= MAX_GUARD_CUBES) return cubes;
  } catch (e) {
    if (!(e instanceof WorkLimitExceeded)) throw e;
  }
  const g = F.nnf(guards);
  const parts: ParamAtom[][][] = [];
  for (const c of g.kind === 'and' ? g.args : [g]) {
    try {
      parts.push(knownDnf(c));
    } catch (e) {
      if (!(e instanceof WorkLimitExceeded)) throw e; // this conjunct alone is too large: dropped
    }
  }
  parts.sort((a, b) => a.length - b.length);
  let cubes: ParamAtom[][] = [[]];
  for (const part of parts) {
    if (cubes.length * part.length > MAX_GUARD_CUBES) break;
    cubes = combineCubes(cubes, part);
  }
  return cubes;
}

function combineCubes(a: readonly ParamAtom[][], b: readonly ParamAtom[][]): ParamAtom[][] {
  if (a.length * b.length > MAX_DNF_CUBES) throw new WorkLimitExceeded(`a path's premise has more than ${MAX_DNF_CUBES} cases in disjunctive normal form`);
  return a.flatMap((x) => b.map((y) => [...x, ...y]));
}

function conclusionCnf(vc: VerificationCondition, input: FarkasInput): ParamAtom[][] {
  if (vc.conclusion.kind === 'assertion') return knownCnf(vc.conclusion.formula);
  const app = vc.conclusion.app;
  const t = input.templates.get(app.cutpoint);
  if (!t) return knownCnf(F.substitute(input.known.get(app.cutpoint) ?? F.TRUE, app.subst));
  const fact = input.strengthening?.get(app.cutpoint);
  const factClauses = fact ? knownCnf(F.substitute(fact, app.subst)) : [];
  // DNF of template disjuncts → CNF: every clause picks one atom from each disjunct.
  const disjuncts = instantiate(t, app.subst);
  let clauses: ParamAtom[][] = [[]];
  for (const d of disjuncts) {
    const next: ParamAtom[][] = [];
    for (const clause of clauses) for (const atom of d) next.push([...clause, atom]);
    clauses = next;
  }
  return [...factClauses, ...clauses];
}

/** Σ m_i·p_i ≡ -c with c >= 1: one equation per program variable, one inequality for the constant. */
export function farkasConstraints(items: readonly ParamAtom[], mults: readonly string[], origin: string): PolyConstraint[] {
  const variables = new Set<string>();
  for (const it of items) for (const w of it.coeffs.keys()) variables.add(w);
  const out: PolyConstraint[] = [];
  for (const w of [...variables].sort()) {
    const terms: Term[] = [];
    items.forEach((it, i) => pushProduct(terms, mults[i]!, it.coeffs.get(w)));
    const poly = polyFromTerms(terms);
    if (poly.terms.size > 0) out.push({ poly, rel: '==', origin: `${origin}, coefficient of ${w}` });
  }
  // -Σ m_i·const_i - 1 >= 0
  const terms: Term[] = [{ vars: [], coeff: -1n }];
  items.forEach((it, i) => pushProduct(terms, mults[i]!, L.negate(it.constant)));
  out.push({ poly: polyFromTerms(terms), rel: '>=', origin: `${origin}, constant` });
  return out;
}

function pushProduct(terms: Term[], multiplier: string, factor: Linear | undefined): void {
  if (!factor) return;
  for (const [u, k] of factor.coeffs) terms.push({ vars: [multiplier, u], coeff: k });
  if (factor.constant !== 0n) terms.push({ vars: [multiplier], coeff: factor.constant });
}

function describe(vc: VerificationCondition): string {
  const first = vc.path.edges[0];
  const line = first ? `from line ${first.pos.line}` : 'empty path';
  const to = vc.conclusion.kind === 'assertion' ? `assertion at line ${vc.conclusion.pos.line}` : `cut-point ${vc.conclusion.app.cutpoint}`;
  return `${line} to ${to}`;
}
