// Horn clauses solved on the clauses themselves (lower.ts, ClauseFormula). Nonlinear systems (several
// predicates in a body: procedure summaries, recursion) have no control-flow graph, so all of their
// search is here; linear ones get the unfolding and Houdini here first (cheap, and strong on
// transition systems with many Boolean arguments), then the engines on their graph. The means:
// - refuting: derivations of false unfolded to a depth (unfold.ts), searched by z3; one it finds is read off the
//   model and checked by evaluating the clauses as written (derivation.ts);
// - proving, cheap: Houdini over candidate atoms mined from the clauses (bounds on each argument,
//   orders between arguments, the atoms the clauses state of them);
// - proving, the paper's method: one VC per clause, every body predicate a premise under its
//   arguments (vc.ts, premises), linear templates, Farkas' lemma, bit-blasting, SAT.
// Refuting and proving alternate, one unfolding depth per template step, so neither starves the
// other; every budget counts work (z3's resource units, SAT conflicts, tree nodes). A model is only
// answered once z3 has checked every clause under it (model.ts, checkModel).
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { formulaToSmt, linearToSmt, lookup } from '../certify/lia.js';
import { withLiaSolver, type LiaModel } from '../certify/lia-solver.js';
import { buildFarkasSystem } from '../constraints/farkas.js';
import { decodeTemplate, makeTemplate, type Template } from '../constraints/template.js';
import type { Schedule } from '../constraints/schedule.js';
import { satisfies } from '../constraints/system.js';
import { encodeUnknowns } from '../encode/system-encoder.js';
import { simplifyInvariant } from '../ir/simplify.js';
import type { SatBackend } from '../sat/types.js';
import type { VerificationCondition } from '../vc/vc.js';
import type { InvariantReport, ProgressEvent, StepStats, VerifyResult } from '../result.js';
import { constantBitsFor } from '../problem/prepare.js';
import {
  CHC_UNFOLD_ROUND_WORK, CHC_UNFOLD_WORK, CHC_HOUDINI_CHECK_WORK, CHC_HOUDINI_GOAL_ATOMS, CHC_HOUDINI_QUERIES,
  CHC_MAX_CANDIDATES, CHC_RUN_SAMPLE_STATES, CHC_MAX_RUN_CANDIDATES, CHC_GUARD_PASSES, CHC_PRUNE_CHECKS, CHC_MAX_GUARDS, CHC_HOUDINI_RUN_STEPS, CHC_PLANAR_FACETS, CHC_MAX_HULL_COEFFICIENT, CHC_RUN_MODERATE_VALUE, CHC_PHASE_GROUPS, CHC_PHASE_GROUP_STATES, CHC_PHASE_GROUP_HULL_STATES, SAT_STEP_CONFLICTS, SAT_STEP_PROPAGATIONS, SatWorkBudget, satStepLimits, stepBuildStopped,
  VERIFY_SAT_WORK, MINIMISE_CHECK_WORK, CHC_PRUNE_MAX_ATOMS, CHC_IMPLICATION_MAX_ARGS, CHC_MAX_IMPLICATIONS, type Deadline,
} from '../limits.js';
import type { AppliedPredicate, ChcProgram, ClauseFormula } from './lower.js';
import { checkModel, Interpretations, modelText, ModelTooLarge, type ChcModel } from './model.js';
import { checkDerivation, formatDerivation } from './derivation.js';
import { deriveStates, runForward, type DerivedStates } from './runs.js';
import { Unfolder } from './unfold.js';
import { liveArguments } from './relevance.js';
import { carriedGuards } from './images.js';
import { joined } from './affine-join.js';
import { displayName, divisorsOf, mentionsResidue, residueOf, residueSymbols, residuesOf, withResidues } from './features.js';
import { affineHull } from '../observe/equalities.js';
import { candidateConjuncts, negated } from '../observe/houdini.js';
import { planarFacets } from '../observe/facets.js';
import type { State } from '../observe/samples.js';
import type { ChcAnswer } from './index.js';

export interface ClauseSolverSettings {
  readonly deadline: Deadline;
  readonly backend: SatBackend;
  readonly schedule: Schedule;
  readonly onProgress?: (event: ProgressEvent) => void;
  /** false: the unfolding and Houdini only (a linear system, whose template search runs on its
   * control-flow graph), with `unfoldWork` z3 units for the unfolding. */
  readonly templateSearch?: boolean;
  readonly unfoldWork?: number;
}

export interface ClauseSolverOutcome {
  readonly answer: ChcAnswer;
  /** The same answer as verify's result (the JSON and the exit code read it). */
  readonly result: VerifyResult;
  /** sat: the invariants of every predicate that z3 validated (the answer's model). */
  readonly invariants?: ChcModel;
}

export async function solveOnClauses(chc: ChcProgram, settings: ClauseSolverSettings): Promise<ClauseSolverOutcome> {
  const clauses = chc.formulas;
  const started = Date.now();
  const { deadline } = settings;
  const stats: StepStats[] = [];
  const base = {
    function: 'main', cutset: 'headers' as const, schedule: settings.schedule.name,
    cutpoints: chc.predicates.size, verificationConditions: clauses.length, stats,
  };
  const finish = (answer: ChcAnswer, invariants: readonly InvariantReport[] = [], model?: ChcModel): ClauseSolverOutcome => ({
    answer,
    ...(model ? { invariants: model } : {}),
    result: {
      ...base, invariants, millis: Date.now() - started,
      verdict: answer.verdict === 'sat' ? 'safe' : answer.verdict === 'unsat' ? 'unsafe' : 'unknown',
      certified: answer.verdict !== 'unknown',
      ...(answer.reason !== undefined ? { reason: answer.reason } : {}),
    },
  });
  settings.onProgress?.({ kind: 'prepared', cutpoints: chc.predicates.size, verificationConditions: clauses.length });

  const unfolding = new Unfolder(clauses, settings.unfoldWork ?? CHC_UNFOLD_WORK);
  const refute = async (share = CHC_UNFOLD_ROUND_WORK): Promise<ChcAnswer | null> => {
    const derivation = await unfolding.round(deadline, share);
    if (!derivation) return null;
    const check = checkDerivation(chc.system.clauses, derivation);
    if (!check.ok) return { verdict: 'unknown', reason: `the derivation did not pass evaluation: ${check.reason}` };
    return { verdict: 'unsat', derivation, derivationText: formatDerivation(chc.system.clauses, derivation) };
  };
  /** sat when z3 validates `model` on every clause; null otherwise (the search goes on). */
  const accept = async (model: ChcModel): Promise<ClauseSolverOutcome | null> => {
    settings.onProgress?.({ kind: 'checking' });
    const all = new Set(chc.predicates.keys());
    const interpretations = new Interpretations(chc, model, all);
    try {
      const check = await checkModel(chc, interpretations, deadline);
      if (!check.ok) return null;
      return finish({ verdict: 'sat', model: modelText(chc, interpretations, all) }, reports(chc, model), model);
    } catch (error) {
      if (error instanceof ModelTooLarge) return null;
      throw error;
    }
  };

  // A short unfolding first: shallow bugs are the cheapest answers.
  const first = await refute();
  if (first) return finish(first);
  if (deadline.passed) return finish({ verdict: 'unknown', reason: deadline.timeoutReason() });

  // Concrete derivations: a refutation, or the states that propose and filter Houdini's candidates.
  const live = liveArguments(chc);
  const derived = await withLiaSolver((solver) => deriveStates(chc, solver, deadline, live), { fresh: true });
  if (derived.refutation) {
    const check = checkDerivation(chc.system.clauses, derived.refutation);
    if (check.ok) return finish({ verdict: 'unsat', derivation: derived.refutation, derivationText: formatDerivation(chc.system.clauses, derived.refutation) });
  }
  if (deadline.passed) return finish({ verdict: 'unknown', reason: deadline.timeoutReason() });

  const houdini = await houdiniInvariants(chc, clauses, deadline, derived, live);

  if (houdini.proves) {
    const proved = await accept(houdini.invariants);
    if (proved) return proved;
  }
  const steps = settings.templateSearch === false ? [] : settings.schedule.steps.filter((s) => (s.summaries ?? 1) === 1);
  const satWork = new SatWorkBudget(VERIFY_SAT_WORK);
  const constantBits = constantBitsFor(clauses.map((c) => c.constraint));
  const vcs = steps.length > 0 ? clauseVcs(chc, clauses, withoutResidues(houdini.invariants)) : [];
  let lastReason = steps.length === 0 ? (houdini.proves ? 'the Houdini invariants did not pass z3\'s check of the clauses' : 'the Houdini invariants do not exclude the queries') : 'no invariants found within the schedule';
  for (const [index, step] of steps.entries()) {
    if (deadline.passed) return finish({ verdict: 'unknown', reason: deadline.timeoutReason(`last step: ${lastReason}`) });
    const refuted = await refute();
    if (refuted) return finish(refuted);
    if (satWork.exhausted) {
      lastReason = `SAT work limit reached (${satWork.describe()} over all steps)`;
      break;
    }
    const widths = { ...step.widths, constant: Math.max(step.widths.constant, constantBits) };
    const template = `${step.shape.disjuncts}x${step.shape.conjuncts}`;
    settings.onProgress?.({ kind: 'step-start', index, total: steps.length, template, widths });
    const encodeStart = Date.now();
    const templates = new Map<number, Template>();
    for (const at of chc.predicates.values()) templates.set(at.location, makeTemplate(at.location, at.vars, step.shape));
    let built;
    try {
      const { system } = buildFarkasSystem({ vcs, templates, known: new Map(), deadline });
      const encoder = encodeUnknowns(system.unknowns, widths);
      for (const [k, c] of system.constraints.entries()) {
        if (k % 16 === 0) deadline.check();
        encoder.assertConstraint(c);
      }
      built = { system, encoder, cnf: encoder.builder.toCnf() };
    } catch (e) {
      const stopped = stepBuildStopped(e);
      if (stopped.timeout) return finish({ verdict: 'unknown', reason: deadline.timeoutReason(`last step: ${template} not encoded in time`) });
      lastReason = `step ${template} not encoded: ${stopped.reason}`;
      continue;
    }
    const { system, encoder, cnf } = built;
    settings.onProgress?.({ kind: 'step-encoded', index, variables: encoder.stats.vars, clauses: encoder.stats.clauses });
    const work = satWork.next({ conflicts: step.conflicts ?? SAT_STEP_CONFLICTS, propagations: step.propagations ?? SAT_STEP_PROPAGATIONS });
    const sat = await settings.backend.solve(cnf, satStepLimits(work, step.timeLimitMs, deadline));
    satWork.charge(sat);
    const stepStats: StepStats = {
      template, disjuncts: step.shape.disjuncts, conjuncts: step.shape.conjuncts, widths,
      unknowns: system.unknowns.length, constraints: system.constraints.length,
      variables: encoder.stats.vars, clauses: encoder.stats.clauses, encodeMillis: Date.now() - encodeStart, satMillis: sat.millis,
      ...(sat.conflicts !== undefined ? { conflicts: sat.conflicts } : {}),
      ...(sat.propagations !== undefined ? { propagations: sat.propagations } : {}),
      backend: sat.backend, result: sat.status, ...(sat.reason ? { reason: sat.reason } : {}),
    };
    stats.push(stepStats);
    settings.onProgress?.({ kind: 'step-done', index, stats: stepStats });
    if (sat.status !== 'sat') {
      if (sat.status === 'unknown') lastReason = sat.reason ?? 'SAT solver gave no answer';
      continue;
    }
    const values = encoder.decode(sat.model!);
    const value = (u: string): bigint => values.get(u) ?? 0n;
    if (!satisfies(system, value)) return finish({ verdict: 'unknown', reason: 'internal: the SAT model does not satisfy the bilinear system' });
    const model = new Map([...chc.predicates].map(([name, at]) => [
      name, simplifyInvariant(F.and(houdini.invariants.get(name) ?? F.TRUE, decodeTemplate(templates.get(at.location)!, value))),
    ]));
    const proved = await accept(model);
    if (proved) return proved;
    lastReason = `step ${template}: the invariants did not pass z3's check of the clauses`;
  }
  // The proof search is spent: the rest of the time goes to deeper unfoldings.
  let refuted: ChcAnswer | null = null;
  while (!refuted && !unfolding.exhausted && !deadline.passed) refuted = await refute(Infinity);
  if (refuted) return finish(refuted);
  const reason = deadline.passed ? deadline.timeoutReason(`last step: ${lastReason}`) : `${lastReason}; ${unfolding.describe()}`;
  return finish({ verdict: 'unknown', reason });
}

/** One VC per clause: from the entry (true), every body predicate a premise, the Houdini invariants of
 * the body assumed (they are inductive on their own), the head's relation or false concluded. */
function clauseVcs(chc: ChcProgram, clauses: readonly ClauseFormula[], known: ChcModel): VerificationCondition[] {
  const entry = chc.program.procedures.get(chc.program.entry)!.entry;
  const substOf = (app: AppliedPredicate): Map<string, Linear> => {
    const at = chc.predicates.get(app.predicate)!;
    return new Map(at.vars.map((v, k) => [v, app.args[k]!]));
  };
  return clauses.map(withoutDefinitions).map((c) => {
    const at = c.head ? chc.predicates.get(c.head.predicate)! : null;
    const facts = c.body.map((app) => F.substitute(known.get(app.predicate) ?? F.TRUE, substOf(app)));
    return {
      from: entry,
      to: at?.location ?? null,
      guards: F.and(c.constraint, ...facts),
      premises: c.body.map((app) => ({ cutpoint: chc.predicates.get(app.predicate)!.location, subst: substOf(app) })),
      conclusion: c.head
        ? { kind: 'relation', app: { cutpoint: at!.location, subst: substOf(c.head) } }
        : { kind: 'assertion', formula: F.FALSE, pos: c.clause.pos },
      path: { from: entry, to: at?.location ?? null, edges: [] },
    };
  });
}

/**
 * The clause with each variable that an equality of its constraint defines (`±v + rest == 0`, at
 * the top level) replaced by its definition everywhere: the same clause, with fewer variables and
 * conjuncts for Farkas' lemma to carry (each costs a multiplier per application).
 */
function withoutDefinitions(c: ClauseFormula): ClauseFormula {
  let conjuncts = c.constraint.kind === 'and' ? [...c.constraint.args] : [c.constraint];
  let body = c.body;
  let head = c.head;
  const own = new Set(c.variables);
  for (;;) {
    let found: { index: number; v: string; value: Linear } | null = null;
    for (const [index, f] of conjuncts.entries()) {
      if (f.kind !== 'atom' || f.rel !== '==') continue;
      for (const [v, k] of f.expr.coeffs) {
        if ((k !== 1n && k !== -1n) || !own.has(v)) continue;
        const rest = L.fromTerms([...f.expr.coeffs].filter(([w]) => w !== v), f.expr.constant);
        found = { index, v, value: k === 1n ? L.negate(rest) : rest };
        break;
      }
      if (found) break;
    }
    if (!found) break;
    const subst = new Map([[found.v, found.value]]);
    const app = (a: AppliedPredicate): AppliedPredicate => ({ predicate: a.predicate, args: a.args.map((x) => L.substitute(x, subst)) });
    conjuncts = conjuncts.filter((_, k) => k !== found!.index).map((f) => F.substitute(f, subst));
    body = body.map(app);
    head = head && app(head);
    own.delete(found.v);
  }
  return { ...c, constraint: F.and(...conjuncts), body, head };
}

function reports(chc: ChcProgram, model: ChcModel): InvariantReport[] {
  return [...chc.predicates].map(([predicate, at]) => ({
    function: predicate, line: at.predicate.pos.line, col: at.predicate.pos.col, location: at.location,
    formula: model.get(predicate) ?? F.TRUE, expression: F.toC(model.get(predicate) ?? F.TRUE, displayName),
  }));
}

/** The model's conjuncts over the arguments alone (the template search's known facts cannot state a
 * residue); dropping conjuncts of an inductive invariant only weakens what the search assumes. */
function withoutResidues(model: ChcModel): ChcModel {
  return new Map([...model].map(([p, f]) => [p, F.and(...(f.kind === 'and' ? f.args : [f]).filter((g) => !mentionsResidue(g)))]));
}

// ---------------------------------------------------------------------------------------------
// Proving, cheap: Houdini over atoms mined from the clauses.

interface HoudiniOutcome {
  /** Each predicate's surviving candidates (inductive together; true where none survived). */
  readonly invariants: ChcModel;
  /** The invariants make every query's body unsatisfiable. */
  readonly proves: boolean;
}

async function houdiniInvariants(chc: ChcProgram, clauses: readonly ClauseFormula[], deadline: Deadline, derived: DerivedStates, live: ReadonlyMap<string, readonly string[]>): Promise<HoudiniOutcome> {
  const none: HoudiniOutcome = { invariants: new Map(), proves: false };
  const divisors = divisorsOf(chc.system);
  const residues = new Map([...chc.predicates].map(([p]) => [p, residuesOf(live.get(p)!.filter((v) => !chc.booleans.has(v)), divisors)]));
  const candidates = candidateAtoms(chc, clauses, derived, live, residues);
  return withLiaSolver(async (solver) => {
    const symbols = new Map<string, string>();
    for (const c of clauses) for (const v of c.variables) symbols.set(v, solver.intSymbol());
    const symbol = lookup(symbols);
    /** The candidates of the applied predicate (or `some` of them), as an SMT-LIB term over the
     * clause's symbols. */
    const instantiated = (app: AppliedPredicate, some?: readonly Formula[]): string => {
      const at = chc.predicates.get(app.predicate)!;
      const args = new Map(at.vars.map((v, k) => [v, app.args[k]!]));
      return formulaToSmt(F.and(...(some ?? candidates.get(app.predicate) ?? [])), residueSymbols((v) => linearToSmt(args.get(v)!, symbol)));
    };
    let queries = 0;
    const check = async (c: ClauseFormula, goal: string): Promise<LiaModel | 'unsat' | 'unknown'> => {
      if (queries++ >= CHC_HOUDINI_QUERIES || deadline.passed) return 'unknown';
      const body = [formulaToSmt(c.constraint, symbol), ...c.body.map((app) => instantiated(app)), goal];
      // Preprocessed: the candidates' equalities solved away first. z3's SMT core alone spent 2
      // million units (35 s) on one such query of a modular counter that it answers in 0.2 s after
      // solve-eqs.
      const outcome = await solver.check({ work: CHC_HOUDINI_CHECK_WORK, preprocess: true, ...deadline.timeLimit }, `(and ${body.join(' ')})`);
      if (outcome.status === 'sat') return solver.model();
      return outcome.status;
    };
    for (let changed = true; changed;) {
      changed = false;
      for (const c of clauses) {
        if (!c.head) continue;
        // A fact's candidates are asked for in slices: with hundreds of them negated at once, z3's
        // search for a model breaking one of them can run for seconds where the slices take
        // milliseconds. (A rule's query is dominated by its body's candidates, assumed at every
        // slice, so it asks for all at once.) A slice is done when the clause keeps it; a pass with
        // no change keeps all.
        const sliceSize = c.body.length === 0 ? CHC_HOUDINI_GOAL_ATOMS : Infinity;
        const kept = new Set<Formula>();
        for (;;) {
          const own = candidates.get(c.head.predicate) ?? [];
          const slice = own.filter((f) => !kept.has(f)).slice(0, sliceSize);
          if (slice.length === 0) break;
          const outcome = await check(c, `(not ${instantiated(c.head, slice)})`);
          if (outcome === 'unsat') {
            for (const f of slice) kept.add(f);
            continue;
          }
          if (outcome === 'unknown') return none;
          const at = chc.predicates.get(c.head.predicate)!;
          const state = withResidues(new Map(at.vars.map((v, k) => [v, L.evaluate(c.head!.args[k]!, (w) => outcome.int(symbol(w)))])), residues.get(c.head.predicate) ?? []);
          const survivors = joined(own, state);
          if (survivors.length === own.length && survivors.every((f, k) => f === own[k])) return none; // the model breaks none of them: z3 and evaluation disagree
          candidates.set(c.head.predicate, survivors);
          changed = true;
          // The counterexample run forward: what it reaches breaks candidates of the same kind.
          for (const reached of runForward(chc, c.head.predicate, state, CHC_HOUDINI_RUN_STEPS).slice(1)) {
            const extended = withResidues(reached.state, residues.get(reached.predicate) ?? []);
            candidates.set(reached.predicate, joined(candidates.get(reached.predicate) ?? [], extended));
          }
        }
      }
    }
    let proves = true;
    for (const c of clauses) {
      if (c.head) continue;
      if ((await check(c, 'true')) !== 'unsat') proves = false;
    }
    // The survivors, without those the others imply: the same invariants, read more easily. Only
    // for a proof (the survivors of a failed one feed the template search as they are), and within
    // a number of checks: on a loop written as a chain of 20 predicates, one check per atom cost
    // more than the fixpoint.
    const invariants = new Map<string, Formula>();
    let pruneChecks = proves ? CHC_PRUNE_CHECKS : 0;
    for (const [p, fs] of candidates) {
      let kept = strongestParallel(fs);
      if (kept.length <= CHC_PRUNE_MAX_ATOMS && kept.length <= pruneChecks) {
        pruneChecks -= kept.length;
        const params = residueSymbols(lookup(new Map(chc.predicates.get(p)!.vars.map((v) => [v, solver.intSymbol()]))));
        for (let k = kept.length - 1; k >= 0; k--) {
          const others = kept.filter((_, j) => j !== k);
          const outcome = await solver.check({ work: MINIMISE_CHECK_WORK }, formulaToSmt(F.and(...others, F.not(kept[k]!)), params));
          if (outcome.status === 'unsat') kept = others;
        }
      }
      invariants.set(p, F.and(...withEqualities(kept)));
    }
    return { invariants, proves };
  }, { fresh: true });
}

/** `e >= 0` and `-e >= 0` as the one equality `e == 0`, where the first of them stood. */
function withEqualities(formulas: readonly Formula[]): Formula[] {
  const lower = new Set(formulas.filter((f) => f.kind === 'atom' && f.rel === '>=').map((f) => L.key((f as Formula & { kind: 'atom' }).expr)));
  const merged = new Set<string>();
  const out: Formula[] = [];
  for (const f of formulas) {
    if (f.kind === 'atom' && f.rel === '>=') {
      const key = L.key(f.expr);
      const opposite = L.key(L.negate(f.expr));
      if (merged.has(key)) continue;
      if (lower.has(opposite) && opposite !== key) {
        merged.add(opposite);
        out.push(F.eqZero(f.expr));
        continue;
      }
    }
    out.push(f);
  }
  return out;
}

/** Of atoms `e + c >= 0` with the same `e`, the one with the least c (it implies the others); and the
 * disjunctions with a side that such an atom implies. */
function strongestParallel(formulas: readonly Formula[]): Formula[] {
  const best = new Map<string, Formula & { kind: 'atom' }>();
  const linearPart = (f: Formula & { kind: 'atom' }): string => L.key(L.fromTerms(f.expr.coeffs));
  for (const f of formulas) {
    if (f.kind !== 'atom' || f.rel !== '>=') continue;
    const known = best.get(linearPart(f));
    if (!known || f.expr.constant < known.expr.constant) best.set(linearPart(f), f);
  }
  const implied = (f: Formula): boolean => {
    if (f.kind === 'or') return f.args.some(implied);
    if (f.kind !== 'atom' || f.rel !== '>=') return false;
    const b = best.get(linearPart(f));
    return b !== undefined && b.expr.constant <= f.expr.constant;
  };
  return formulas.filter((f) => (f.kind === 'atom' && f.rel === '>=' ? best.get(linearPart(f)) === f : !implied(f)));
}

/**
 * Candidate atoms per predicate, over its variables: each argument's bounds at the clauses'
 * constants, the order of each pair of arguments, and the atoms of the clauses' constraints over
 * the arguments of an application written as plain variables, in both polarities (an atom is often
 * stated under a negation or as one side of a Boolean equivalence).
 */
function candidateAtoms(chc: ChcProgram, clauses: readonly ClauseFormula[], derived: DerivedStates, live: ReadonlyMap<string, readonly string[]>, residues: ReadonlyMap<string, readonly string[]>): Map<string, Formula[]> {
  const constants = new Set<bigint>([0n, 1n]);
  const atomsOf = (f: Formula, into: Formula[]): void => {
    if (f.kind === 'atom') into.push(f);
    else if (f.kind === 'not') atomsOf(f.arg, into);
    else if (f.kind === 'and' || f.kind === 'or') f.args.forEach((g) => atomsOf(g, into));
  };
  const atomsByClause = clauses.map((c) => {
    const atoms: Formula[] = [];
    atomsOf(c.constraint, atoms);
    for (const a of atoms) if (a.kind === 'atom' && constants.size < 8) constants.add(a.expr.constant < 0n ? -a.expr.constant : a.expr.constant);
    return atoms;
  });
  // A guard splits a predicate's derived states when some satisfy it and some do not; without
  // derived states, every guard may.
  const splits = (p: string, g: Formula): boolean => {
    const states = derived.states.get(p) ?? [];
    if (states.length === 0) return true;
    let holds = false;
    let fails = false;
    for (const s of states) {
      if (F.evaluate(g, (v) => s.get(v) ?? 0n)) holds = true;
      else fails = true;
      if (holds && fails) return true;
    }
    return false;
  };
  const guardsOf = carriedGuards(chc, clauses, atomsByClause, CHC_GUARD_PASSES, CHC_MAX_GUARDS, splits);
  const out = new Map<string, Formula[]>();
  for (const [name, at] of chc.predicates) {
    const seen = new Set<string>();
    const list: Formula[] = [];
    const add = (f: Formula): void => {
      if (f.kind !== 'atom' || list.length >= CHC_MAX_CANDIDATES) return;
      const key = `${f.rel} ${L.key(f.expr)}`;
      if (seen.has(key)) return;
      seen.add(key);
      list.push(f);
    };
    // Over the arguments some clause reads (relevance.ts); the mined atoms are over those already.
    const vars = live.get(name)!;
    const ints = vars.filter((v) => !chc.booleans.has(v));
    const mined = new Set<Formula>();
    for (const v of vars) {
      if (chc.booleans.has(v)) {
        add(F.compare(L.variable(v), '<=', L.constant(0n)));
        add(F.compare(L.variable(v), '>=', L.constant(1n)));
      }
    }
    // Mined atoms first: they are the likeliest to matter.
    clauses.forEach((c, k) => {
      const apps = [...(c.head?.predicate === name ? [c.head] : []), ...c.body.filter((a) => a.predicate === name)];
      for (const app of apps) {
        const renaming = new Map<string, Linear>();
        app.args.forEach((a, i) => {
          if (a.coeffs.size === 1 && a.constant === 0n && [...a.coeffs.values()][0] === 1n) renaming.set([...a.coeffs.keys()][0]!, L.variable(at.vars[i]!));
        });
        for (const atom of atomsByClause[k]!) {
          if (![...F.variablesOf(atom)].every((v) => renaming.has(v))) continue;
          const renamed = F.substitute(atom, renaming);
          const parts = renamed.kind === 'atom' && renamed.rel === '==' ? [F.geqZero(renamed.expr), F.geqZero(L.negate(renamed.expr))] : [renamed];
          for (const p of parts) {
            // Over the integers, ¬(e >= 0) is -e - 1 >= 0.
            for (const q of p.kind === 'atom' ? [p, F.geqZero(L.addConstant(L.negate(p.expr), -1n))] : [p]) {
              add(q);
              mined.add(list.find((f) => f.kind === 'atom' && q.kind === 'atom' && f.rel === q.rel && L.equals(f.expr, q.expr)) ?? q);
            }
          }
        }
      }
    });
    for (const v of ints) {
      for (const c of constants) {
        add(F.compare(L.variable(v), '>=', L.constant(c)));
        add(F.compare(L.variable(v), '<=', L.constant(c)));
        if (c !== 0n) add(F.compare(L.variable(v), '>=', L.constant(-c)));
      }
    }
    for (let i = 0; i < ints.length; i++) {
      for (let j = i + 1; j < ints.length; j++) {
        add(F.compare(L.variable(ints[i]!), '<=', L.variable(ints[j]!)));
        add(F.compare(L.variable(ints[i]!), '>=', L.variable(ints[j]!)));
      }
    }
    // Phases: a mined atom over one argument (a loop counter's threshold) implying a candidate over
    // others, e.g. x <= 4999 ⇒ y == 5000 beside x >= 5000 ⇒ y == x.
    const implications: Formula[] = [];
    if (vars.length <= CHC_IMPLICATION_MAX_ARGS) {
      const guards = list.filter((g) => mined.has(g) && F.variablesOf(g).size === 1);
      for (const g of guards) {
        const [v] = F.variablesOf(g);
        for (const a of list) {
          if (implications.length >= CHC_MAX_IMPLICATIONS) break;
          // A consequent over the guard's argument alone is a bound the atoms state already.
          const over = F.variablesOf(a);
          if (over.size === 1 && over.has(v!)) continue;
          implications.push(F.or(F.geqZero(L.addConstant(L.negate((g as Formula & { kind: 'atom' }).expr), -1n)), a));
        }
      }
    }
    // false, for a predicate no derivation reaches (a nullary `fail` between the queries and the rest).
    const observed = derived.states.get(name) ?? [];
    if (observed.length === 0) {
      out.set(name, [F.FALSE, ...list, ...implications]);
      continue;
    }
    // With derived states, the phases are the states' own (the hull and bounds on each side of a
    // guard, below), which state what the mined implications guess at, and fewer of them.
    const all = [F.FALSE, ...list];
    // The derived states propose candidates and drop every candidate one of them breaks.
    const own = residues.get(name) ?? [];
    const chosen = spread(observed, CHC_RUN_SAMPLE_STATES);
    const states = chosen.map((s) => withResidues(s, own));
    const open = derived.frontier.get(name) ?? new Set();
    const frontier = states.filter((_, k) => open.has(chosen[k]!));
    const phases = (derived.phaseStarts.get(name) ?? []).flatMap((s) => ints.map((v) => F.compare(L.variable(v), '>=', L.constant(s.get(v) ?? 0n))));
    // Proposals come from the states of moderate size: the hulls of values that grow without bound
    // (a product in each step) cost more than they tell. All the states filter the candidates.
    const moderate = states.filter((s) => [...s.values()].every((v) => v < CHC_RUN_MODERATE_VALUE && v > -CHC_RUN_MODERATE_VALUE));
    const guards = [...(guardsOf.get(name) ?? []), ...phases, ...residueGuards(own, vars, moderate)];
    const proposed = [
      ...runCandidates([...vars, ...own], ints, moderate, frontier, guards, new Set(phases)),
      ...phaseEqualities(ints, derived.stepGroups.get(name) ?? [], moderate, guards),
    ];
    const keys = new Set<string>();
    out.set(name, [...all, ...proposed].filter((f) => {
      const key = F.toC(f);
      if (keys.has(key) || isTautology(f)) return false;
      keys.add(key);
      return states.every((s) => F.evaluate(f, (v) => s.get(v) ?? 0n));
    }));
  }
  return out;
}

/** At most `max` of `states`: the first quarter of them as derived (the small values, where phases
 * start), the rest evenly spread up to the last. */
function spread(states: readonly State[], max: number): State[] {
  if (states.length <= max) return [...states];
  const head = Math.floor(max / 4);
  const out = states.slice(0, head);
  const rest = max - head;
  for (let k = 0; k < rest; k++) out.push(states[head + Math.floor((k * (states.length - 1 - head)) / Math.max(1, rest - 1))]!);
  return out;
}

/** True whatever the values: `e >= -c1 ∨ -e >= -c2` covering every integer, or a residue's own
 * range (`x mod k >= 0`, `x mod k <= k - 1`). */
function isTautology(f: Formula): boolean {
  // Over residues alone (`x mod 2 == 0 ⇒ x mod 2 <= 0`): every combination of their values.
  const vars = [...F.variablesOf(f)];
  const residues = vars.map(residueOf);
  if (vars.length > 0 && residues.every((r) => r !== null && r.divisor <= 8n)) {
    let combos: Map<string, bigint>[] = [new Map()];
    for (const [k, v] of vars.entries()) {
      combos = combos.flatMap((m) => Array.from({ length: Number(residues[k]!.divisor) }, (_, c) => new Map([...m, [v, BigInt(c)]])));
      if (combos.length > 512) return false;
    }
    return combos.every((m) => F.evaluate(f, (v) => m.get(v) ?? 0n));
  }
  if (f.kind === 'or' && f.args.length === 2) {
    const [a, b] = f.args;
    if (a!.kind === 'atom' && b!.kind === 'atom' && a.rel === '>=' && b.rel === '>=') {
      const sum = L.add(a.expr, b.expr);
      return L.isConstant(sum) && sum.constant >= -1n;
    }
    return false;
  }
  if (f.kind !== 'atom' || f.rel !== '>=' || f.expr.coeffs.size !== 1) return false;
  const [[v, k]] = [...f.expr.coeffs];
  const r = residueOf(v!);
  if (!r) return false;
  // k·r + c >= 0 with r in [0, d - 1]
  return k! > 0n ? f.expr.constant >= 0n : k! * (r.divisor - 1n) + f.expr.constant >= 0n;
}

/** `x mod k == c` for each residue value some state has, when the divisor is small (parity, blocks),
 * and `x mod k == y` for an argument y that stays within the residue's range in every state (a flag
 * saying which parity a loop acts on). */
function residueGuards(residues: readonly string[], args: readonly string[], states: readonly State[]): Formula[] {
  const out: Formula[] = [];
  for (const r of residues) {
    const { divisor, variable } = residueOf(r)!;
    if (divisor > 4n) continue;
    const values = new Set(states.map((s) => s.get(r) ?? 0n));
    for (const c of [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) out.push(F.eqZero(L.addConstant(L.variable(r), -c)));
    for (const y of args) {
      if (y === variable) continue;
      const ys = new Set(states.map((s) => s.get(y) ?? 0n));
      if (ys.size > 1 && [...ys].every((v) => v >= 0n && v < divisor)) out.push(F.eqZero(L.sub(L.variable(r), L.variable(y))));
    }
  }
  return out;
}

/**
 * A loop's phase across runs: the states one step effect derives (`c` and `a` up by one while `d ==
 * a div 1000`) lie on a plane (`c == a - 1000·d`) that no hull of a guard's side states, since the
 * other phases, with the other step effects, share both sides. Each half of such an equality, where
 * all `states` satisfy it, or as `¬g ∨ half` for each guard g whose side of the states all do (the
 * phases before and after the plane's, cut off: `a >= 1000·d ⇒ c <= a - 1000·d`).
 */
export function phaseEqualities(ints: readonly string[], groups: readonly (readonly State[])[], states: readonly State[], guards: readonly Formula[]): Formula[] {
  const out: Formula[] = [];
  const holds = (f: Formula, s: State): boolean => F.evaluate(f, (v) => s.get(v) ?? 0n);
  const largest = [...groups].filter((g) => g.length >= CHC_PHASE_GROUP_STATES).sort((a, b) => b.length - a.length).slice(0, CHC_PHASE_GROUPS);
  for (const group of largest) {
    const moderate = group.filter((s) => [...s.values()].every((v) => v < CHC_RUN_MODERATE_VALUE && v > -CHC_RUN_MODERATE_VALUE));
    // The hull of a spread of the group (a group can hold thousands of states), kept where the
    // whole group agrees; not where every state agrees (the hull of all states has it).
    for (const e of affineHull(ints, spread(moderate, CHC_PHASE_GROUP_HULL_STATES)).filter(smallCoefficients)) {
      if (e.kind !== 'atom' || !moderate.every((s) => holds(e, s)) || states.every((s) => holds(e, s))) continue;
      for (const half of [F.geqZero(e.expr), F.geqZero(L.negate(e.expr))]) {
        const broken = states.filter((s) => !holds(half, s));
        if (broken.length === 0) {
          out.push(half);
          continue;
        }
        for (const g of guards) if (broken.every((s) => !holds(g, s))) out.push(F.or(negated(g), half));
      }
    }
  }
  return out;
}

/**
 * An equality of the hull whose coefficients are all small. Few states in many dimensions leave
 * accidental equalities whose integer basis has coefficients of 10 digits; they are never the
 * invariant, and a Houdini query with a few of them negated kept z3's integer cuts busy for seconds
 * (a 57-argument Lustre node: 7 s on one query, under 70,000 of z3's resource units).
 */
export function smallCoefficients(f: Formula): boolean {
  return f.kind !== 'atom' || [...f.expr.coeffs.values()].every((k) => k <= CHC_MAX_HULL_COEFFICIENT && k >= -CHC_MAX_HULL_COEFFICIENT);
}

/**
 * Candidates the derived states propose, over the arguments and their residues: the affine hull
 * (each equality as its two halves, one of which may be inductive where the other is not), interval
 * bounds, octagons over the integer arguments, and per guard g the hull and bounds (octagons too, for
 * a few arguments) of the states where g holds and of those where it does not, as `¬g ∨ c` (a
 * loop's phases); for the guards at `phases` (where a variable's step changed) the hull's edges over
 * pairs of arguments too.
 */
function* runCandidates(features: readonly string[], ints: readonly string[], states: readonly State[], frontier: readonly State[], guards: readonly Formula[], phases: ReadonlySet<Formula>): Generator<Formula> {
  let count = 0;
  const halves = (f: Formula): Formula[] => (f.kind === 'atom' && f.rel === '==' ? [F.geqZero(f.expr), F.geqZero(L.negate(f.expr))] : [f]);
  // A bound that only states of the frontier attain is where the runs stopped; one that states
  // before them attain too is a bound the runs come back to (a difference that oscillates).
  const open = new Set(frontier);
  const kept = (fs: readonly Formula[], inside: readonly State[]): Formula[] => fs.filter((f) => {
    if (f.kind !== 'atom') return true;
    const attains = (s: State): boolean => L.evaluate(f.expr, (v) => s.get(v) ?? 0n) === 0n;
    return !frontier.some(attains) || inside.some((s) => !open.has(s) && attains(s));
  });
  const bounds = (inside: readonly State[]): Formula[] => [
    ...affineHull(features, inside).filter(smallCoefficients).flatMap(halves),
    ...kept(candidateConjuncts(ints, inside, [], { maxTerms: 1 }), inside),
  ];
  const planar = (inside: readonly State[]): Formula[] => planarFacets(ints, inside, CHC_PLANAR_FACETS);
  const residues = features.filter((v) => residueOf(v));
  const global = [
    ...bounds(states),
    ...candidateConjuncts(residues, states, [], { maxTerms: 1 }),
    ...(ints.length <= 8 ? kept(candidateConjuncts(ints, states, [], { maxTerms: 2 }), states) : []),
    ...(ints.length <= 8 ? kept(planar(states), states) : []),
  ];
  for (const f of global) {
    if (count++ >= CHC_MAX_RUN_CANDIDATES) return;
    yield f;
  }
  for (const g of guards) {
    const ng = g.kind !== 'atom' ? F.not(g)
      : g.rel === '>=' ? F.geqZero(L.addConstant(L.negate(g.expr), -1n))
      : F.or(F.geqZero(L.addConstant(g.expr, -1n)), F.geqZero(L.addConstant(L.negate(g.expr), -1n)));
    for (const [part, other] of [[g, ng], [ng, g]] as const) {
      const inside = states.filter((s) => F.evaluate(part, (v) => s.get(v) ?? 0n));
      if (inside.length === states.length) continue;
      const local = inside.length === 0 ? [] : [...bounds(inside), ...(ints.length <= 4 ? kept([...candidateConjuncts(ints, inside, [], { maxTerms: 2 }), ...(phases.has(g) ? planar(inside) : [])], inside) : [])];
      for (const c of inside.length === 0 ? [other] : local.map((b) => F.or(other, b))) {
        if (count++ >= CHC_MAX_RUN_CANDIDATES) return;
        yield c;
      }
    }
  }
}
