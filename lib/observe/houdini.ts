// Facts proved before the template search: candidate conjuncts proposed by concrete runs, filtered
// to an inductive subset by the independent checker (Houdini: Flanagan and Leino, FME 2001).
//
// Candidates at each cut-point are the bounds of the observed states in octagonal directions
// (±x, ±x±y: the tightest `d·v <= k` that every observed state satisfies) and the affine hull's
// equalities. Each round checks the conjunction of the remaining candidates with z3; a refuted
// initiation or consecution obligation comes with the state at its target cut-point, and every
// candidate that state violates is dropped. What remains when no such obligation is refuted is an
// inductive invariant — proved, not guessed — so the template search may assume it as known
// conjuncts without losing any solution: if I is inductive and proves the program, so is I ∧ H.
import { checkInvariants, type Obligation } from '../certify/certificate.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { implies } from '../certify/lia.js';
import { checkerWarm } from '../certify/lia-solver.js';
import { simplifyInvariant } from '../ir/simplify.js';
import type { PreparedAnalysis } from '../problem/prepare.js';
import type { HoudiniReport } from '../result.js';
import type { State } from './samples.js';
import { affineHull } from './equalities.js';
import { impliedOverRationals } from '../certify/rational-implication.js';
import { HOUDINI_CHECK_WORK, HOUDINI_WORK, MINIMISE_CHECK_WORK, WorkBudget, type Deadline } from '../limits.js';

export interface HoudiniResult {
  /** The inductive conjunction at each cut-point (cut-points with none left are absent). */
  readonly facts: Map<number, Formula>;
  /** The candidates kept at each cut-point (their conjunction is `facts`). */
  readonly kept: Map<number, readonly Formula[]>;
  /** The facts alone also proved every assertion (all obligations proved). */
  readonly provesSafety: boolean;
  /** The postcondition candidates kept (HoudiniOptions.postcondition): they hold at the exit. */
  readonly post: readonly Formula[];
  /** Checker rounds run. */
  readonly rounds: number;
  readonly millis: number;
}

export interface HoudiniOptions {
  /** The checker's work for all rounds, in z3's resource units (default HOUDINI_WORK); once it is
   * spent, nothing is kept. Work, not time: the same candidates survive on an idle or a busy machine. */
  readonly work?: number | WorkBudget;
  /** The user's deadline, if any: past it, nothing is kept. */
  readonly deadline?: Deadline;
  readonly maxRounds?: number;
  /** Candidate conjuncts of a postcondition at the exit, filtered like the invariants: a refuted exit
   * obligation drops those its failing state violates (sp's data-driven first try). */
  readonly postcondition?: readonly Formula[];
}

/** Largest number of variables whose pairs are combined (±x±y); beyond it only ±x and the hull. */
const MAX_OCTAGON_VARIABLES = 8;

/**
 * Directions Σ ±v over at most `maxTerms` of `variables` (1: intervals, 2: octagons): fewer terms
 * first (minimisation drops later candidates first, so the simple bounds stay), then by variables,
 * then by signs. Each direction and its negation are both listed.
 */
export function unitDirections(variables: readonly string[], maxTerms: number): Map<string, bigint>[] {
  const out: Map<string, bigint>[] = [];
  const signed = (chosen: readonly string[], terms: readonly (readonly [string, bigint])[]): void => {
    if (terms.length === chosen.length) out.push(new Map(terms));
    else for (const sign of [1n, -1n]) signed(chosen, [...terms, [chosen[terms.length]!, sign]]);
  };
  const choose = (size: number, from: number, chosen: readonly string[]): void => {
    if (chosen.length === size) return signed(chosen, []);
    for (let i = from; i < variables.length; i++) choose(size, i + 1, [...chosen, variables[i]!]);
  };
  for (let size = 1; size <= maxTerms; size++) choose(size, 0, []);
  return out;
}

/**
 * Most variables in one candidate direction for `n` variables, for the condition searches (wp, sp):
 * three- and four-term sums matter (Merge's m3 >= m1 + m2 at the entry, k - i + m2 <= m3 in its
 * second loop) and stay affordable for the few variables of a small function; octagons beyond that.
 */
export function unitTermsFor(n: number): number {
  // Seven variables with three terms are already ~400 candidates, and checker rounds over them cost
  // seconds (Fig. 9's counted loop), so beyond five variables only octagons.
  return n <= 5 ? 4 : 2;
}

export interface CandidateOptions {
  /** Most variables in one direction (default 2, octagons, up to MAX_OCTAGON_VARIABLES variables). */
  readonly maxTerms?: number;
}

/** Bounds of the observed states in unit directions (octagonal by default) and hull equalities, per cut-point. */
export function candidateConjuncts(variables: readonly string[], states: readonly State[], hull: readonly Formula[], options: CandidateOptions = {}): Formula[] {
  // No run reached the cut-point: perhaps none can (the else-branch of a precondition), and then
  // `false` is its invariant; if one can, the checker refutes it at once.
  if (states.length === 0) return [F.FALSE];
  const directions = unitDirections(variables, options.maxTerms ?? (variables.length <= MAX_OCTAGON_VARIABLES ? 2 : 1));
  const out: Formula[] = [...hull];
  const seen = new Set<string>();
  for (const d of directions) {
    const expr = L.fromTerms(d);
    let max = L.evaluate(expr, (v) => states[0]!.get(v) ?? 0n);
    for (const s of states) {
      const value = L.evaluate(expr, (v) => s.get(v) ?? 0n);
      if (value > max) max = value;
    }
    const atom = F.geqZero(L.sub(L.constant(max), expr)); // d·v <= max
    const key = F.toC(atom);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(atom);
  }
  return out;
}

/** The atoms (`e >= 0`) of the procedure's branch and loop conditions, each once; of an atom and its
 * negation (an if's two assume edges) only the first. */
export function branchAtoms(prepared: PreparedAnalysis): Formula[] {
  const guards = new Map<string, Formula>();
  for (const edge of prepared.cut.proc.edges) {
    if (edge.stmt.kind !== 'assume' || edge.stmt.premise) continue;
    // Atoms of the negation normal form, not of the DNF: a ghosted program's quotient updates are
    // conditions whose DNF is exponential.
    const visit = (f: Formula): void => {
      if (f.kind === 'and' || f.kind === 'or') f.args.forEach(visit);
      else if (f.kind === 'atom' && f.rel === '>=' && !guards.has(F.toC(negated(f)))) guards.set(F.toC(f), f);
    };
    visit(F.nnf(edge.stmt.cond));
  }
  return [...guards.values()];
}

/** The guards over `vars` alone. */
export function guardsOver(guards: readonly Formula[], vars: readonly string[]): Formula[] {
  return guards.filter((g) => g.kind === 'atom' && L.variablesOf(g.expr).every((v) => vars.includes(v)));
}

/**
 * The program's own conditions (`guards` or their negations) over `vars` that every observed state
 * satisfies: candidates beside the observed bounds. `n <= SIZE` from an assume holds at each loop
 * after it, and no bound of the states says so when the runs' n stay far below SIZE (the tightest
 * observed `n - SIZE <= -19999990` is refuted at once). None when no state was observed.
 */
export function heldGuards(guards: readonly Formula[], vars: readonly string[], states: readonly State[]): Formula[] {
  if (states.length === 0) return [];
  return guardsOver(guards, vars).flatMap((g) => [g, negated(g)]).filter((g) => states.every((s) => F.evaluate(g, (v) => s.get(v) ?? 0n)));
}

/** Most cases (multiples of the modulus) of one wrapped equality. */
const MAX_WRAPS = 4;

/**
 * The hull equalities over unsigned variables of one width w, modulo 2^w: `e == 0` becomes
 * `e == 0 || e == k·2^w || …` for each multiple of 2^w that e can take with its variables in their
 * range. The runs rarely wrap around, so the states' equality is the one over the integers, while
 * unsigned arithmetic keeps only its residue: in `sn += 2; x++` (unsigned) `sn == 2 * x` holds until
 * 2·x passes 2^32, and `sn == 2 * x || sn == 2 * x - 4294967296` always. `modulus` gives 2^w for an
 * unsigned variable, undefined for any other. Houdini keeps a wrapped equality only if it is inductive.
 */
export function wrappedEqualities(hull: readonly Formula[], modulus: (v: string) => bigint | undefined): Formula[] {
  const out: Formula[] = [];
  for (const f of hull) {
    if (f.kind !== 'atom' || f.rel !== '==') continue;
    const moduli = new Set(L.variablesOf(f.expr).map(modulus));
    if (moduli.size !== 1) continue;
    const [m] = moduli;
    if (m === undefined) continue;
    let lo = f.expr.constant;
    let hi = f.expr.constant;
    for (const a of f.expr.coeffs.values()) {
      if (a > 0n) hi += a * (m - 1n);
      else lo += a * (m - 1n);
    }
    const first = L.ceilDiv(lo, m);
    const last = L.floorDiv(hi, m);
    if (last - first < 1n || last - first >= BigInt(MAX_WRAPS)) continue;
    // The integers' own case first (the one the runs saw, so in [first, last]), then the others.
    const ks = [0n];
    for (let k = first; k <= last; k++) if (k !== 0n) ks.push(k);
    out.push(F.or(...ks.map((k) => F.eqZero(L.addConstant(f.expr, -k * m)))));
  }
  return out;
}

/** `v <= 2^w - 1` for each unsigned variable v of w bits among `vars`: true of every C value of its
 * type, and what makes a wrapped equality inductive (without it a state beyond the range wraps into
 * a case the equality does not cover). */
export function unsignedUpperBounds(vars: readonly string[], modulus: (v: string) => bigint | undefined): Formula[] {
  return vars.flatMap((v) => {
    const m = modulus(v);
    return m === undefined ? [] : [F.compare(L.variable(v), '<=', L.constant(m - 1n))];
  });
}

/** Most guards a cut-point's candidates are split by. */
const MAX_SPLIT_GUARDS = 4;

/**
 * Candidates case-split by a branch condition g of the program: `g → c` for each bound c of the
 * states where g holds, and `¬g → c` for those where it does not (`¬g` alone when no state has g).
 * Their conjunction is the disjunctive invariant (g ∧ C1) ∨ (¬g ∧ C2) that a loop with phases needs
 * at its header (Fig. 2 with loop-header cut-points: y == x while x <= 50, x + y == 102 after),
 * and Houdini drops each implication like any other candidate.
 */
export function splitCandidates(variables: readonly string[], states: readonly State[], guards: readonly Formula[]): Formula[] {
  const out: Formula[] = [];
  for (const g of guards.slice(0, MAX_SPLIT_GUARDS)) {
    for (const part of [g, negated(g)]) {
      const inside = states.filter((s) => F.evaluate(part, (v) => s.get(v) ?? 0n));
      if (inside.length === 0) {
        out.push(negated(part));
        continue;
      }
      for (const c of candidateConjuncts(variables, inside, affineHull(variables, inside))) out.push(F.or(negated(part), c));
    }
  }
  return out;
}

/** ¬f, as an atom over the integers when f is `e >= 0` (¬(e >= 0) is -e - 1 >= 0). */
export function negated(f: Formula): Formula {
  return f.kind === 'atom' && f.rel === '>=' ? F.geqZero(L.addConstant(L.negate(f.expr), -1n)) : F.not(f);
}

/** The largest subset of `candidates` (per cut-point) that the checker proves inductive. */
export async function inductiveSubset(prepared: PreparedAnalysis, candidates: ReadonlyMap<number, readonly Formula[]>, options: HoudiniOptions = {}): Promise<HoudiniResult> {
  const started = Date.now();
  const budget = options.work instanceof WorkBudget ? options.work : new WorkBudget(options.work ?? HOUDINI_WORK);
  const maxRounds = options.maxRounds ?? 25;
  // The postcondition's candidates live beside the cut-points' under a key no location has.
  const EXIT = -1;
  const current = new Map<number, Formula[]>([...candidates].map(([c, list]) => [c, [...list]]));
  if (options.postcondition) current.set(EXIT, [...options.postcondition]);
  const none = (rounds: number): HoudiniResult => ({ facts: new Map(), kept: new Map(), post: [], provesSafety: false, rounds, millis: Date.now() - started });
  // Candidates only go, so a region (the paths from one cut-point to the next ones) proved in a round
  // stays proved while its start keeps its candidates: its targets can only have lost some, which
  // weakens what it must establish. Such regions are not checked again; once the rest holds, one
  // round checks every region, so that the answer rests on one check of them all.
  const starts = [prepared.cut.proc.entry, ...prepared.unknownCutpoints];
  let provedBefore = new Set<number>();
  for (let round = 1; round <= maxRounds; round++) {
    if (budget.exhausted || options.deadline?.passed) return none(round - 1);
    const invariants = new Map<number, Formula>(prepared.unknownCutpoints.map((c) => [c, F.and(...(current.get(c) ?? []))]));
    const check = await checkInvariants(prepared.preparedProgram, prepared.function, invariants, {
      precondition: prepared.precondition,
      ...(options.postcondition ? { postcondition: F.and(...current.get(EXIT)!) } : {}),
      workPerCheck: HOUDINI_CHECK_WORK,
      work: budget,
      ...(options.deadline ? { deadline: options.deadline } : {}),
      ...(provedBefore.size > 0 ? { skipRegionsFrom: provedBefore } : {}),
    });
    const result = (provesSafety: boolean): HoudiniResult => {
      const kept = new Map([...current].filter(([c, list]) => c !== EXIT && list.length > 0));
      const facts = new Map([...kept].map(([c, list]) => [c, F.and(...list)]));
      return { facts, kept, post: current.get(EXIT) ?? [], provesSafety, rounds: round, millis: Date.now() - started };
    };
    if (check.valid) {
      if (provedBefore.size === 0) return result(true);
      provedBefore = new Set();
      continue;
    }
    const refutable = (o: Obligation): boolean => o.status !== 'proved' && (o.kind === 'exit' ? current.has(EXIT) : (o.kind === 'initiation' || o.kind === 'consecution') && current.has(o.to));
    const inductiveness = check.obligations.filter(refutable);
    if (inductiveness.length === 0) {
      // Only assertions failed: what remains is inductive, but does not prove the program.
      return result(false);
    }
    // Every failing state was found against this round's candidates: judge each against them, not
    // against what an earlier obligation of the same round already removed (a state violating only
    // removed candidates would otherwise look like one violating none, and empty the cut-point).
    const checked = new Map([...current].map(([c, list]) => [c, [...list]]));
    for (const o of inductiveness) {
      const key = o.kind === 'exit' ? EXIT : o.to;
      drop(current, key, checked.get(key)!, o);
    }
    const notProved = new Set(check.obligations.filter((o) => o.status !== 'proved').map((o) => o.from));
    const weakened = (c: number) => (current.get(c)?.length ?? 0) !== (checked.get(c)?.length ?? 0);
    provedBefore = new Set(starts.filter((c) => !notProved.has(c) && !weakened(c)));
  }
  return none(maxRounds);
}

/** Removes the candidates at `key` (`o.to`, or the exit's) that its failing state violates (`checked`:
 * the candidates the checker was given); all of them if it has none. */
function drop(current: Map<number, Formula[]>, key: number, checked: readonly Formula[], o: Obligation): void {
  const state = o.status === 'refuted' ? o.failingState : undefined;
  // An obligation the checker could not decide, or a state that violates no checked candidate (it
  // should not happen), gives nothing to go on: keeping any candidate there would be a guess.
  const holds = (f: Formula): boolean => state !== undefined && F.evaluate(f, (v) => state.get(v) ?? 0n);
  const violatesOne = checked.some((f) => !holds(f));
  current.set(key, violatesOne ? current.get(key)!.filter(holds) : []);
}

export interface ObservedBoundsProof {
  /** Certified invariants (minimised), when the inductive subset proved the program. */
  readonly invariants?: Map<number, Formula>;
  readonly report: HoudiniReport;
}

/**
 * Houdini over `candidates`; when the inductive subset proves the program, its conjuncts are
 * minimised (each one implied by the others at its cut-point is dropped, last candidates first, so
 * equalities and single-variable bounds stay) and the result is checked once more: what is returned
 * is exactly what the checker validated.
 */
export async function proveByObservedBounds(prepared: PreparedAnalysis, candidates: ReadonlyMap<number, readonly Formula[]>, options: HoudiniOptions = {}): Promise<ObservedBoundsProof> {
  // The budget (and the reported time) is for the checker's work, not for starting z3 and its
  // threads (which the final check needs anyway).
  await checkerWarm();
  const started = Date.now();
  const subset = await inductiveSubset(prepared, candidates, options);
  // Minimising gets its own share: without it the invariants are correct but hard to read.
  const minimising = new WorkBudget((options.work instanceof WorkBudget ? options.work.limit : options.work ?? HOUDINI_WORK) / 2);
  const count = (m: ReadonlyMap<number, readonly Formula[]>): number => [...m.values()].reduce((n, l) => n + l.length, 0);
  const report = (proved: boolean, rounds: number): HoudiniReport => ({ candidates: count(candidates), kept: count(subset.kept), rounds, proved, millis: Date.now() - started });
  if (!subset.provesSafety) return { report: report(false, subset.rounds) };
  const invariants = new Map<number, Formula>();
  for (const c of prepared.unknownCutpoints) invariants.set(c, F.and(...(await minimalConjuncts(subset.kept.get(c) ?? [], minimising))));
  const check = await checkInvariants(prepared.preparedProgram, prepared.function, invariants, {
    precondition: prepared.precondition,
    ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
  });
  return check.valid ? { invariants, report: report(true, subset.rounds + 1) } : { report: report(false, subset.rounds + 1) };
}

/**
 * The same conjunction, shorter: equalities substituted into the other conjuncts, then each conjunct
 * the others imply dropped (last ones first, so equalities and single-variable bounds stay), while
 * the checker's `work` lasts (only implications between split candidates need it).
 */
export async function minimalConjuncts(conjuncts: readonly Formula[], work: WorkBudget): Promise<Formula[]> {
  const plain = conjuncts.every((f) => f.kind === 'atom');
  // Split candidates (part → c) are kept as implications: the DNF of their conjunction is a
  // disjunction of cubes, not one cube to take atoms from. Those the unconditional conjuncts or
  // their own part already state go first, without a solver call.
  const atoms = plain ? F.dnf(simplifyInvariant(F.and(...substituteEqualities(conjuncts))))[0] ?? [] : withoutRestatedSplits(conjuncts);
  for (let i = atoms.length - 1; i >= 0 && !work.exhausted; i--) {
    const others = atoms.filter((_, j) => j !== i);
    // Plain atoms are decided by an exact rational Farkas certificate, without z3: an implication
    // only the integers make (rare among octagonal bounds and hull equalities) keeps its conjunct.
    let implied: boolean;
    if (plain) implied = impliedOverRationals(others, atoms[i]!);
    // Among split candidates or ghost definitions, an atom the other atoms imply goes without z3 too.
    else if (atoms[i]!.kind === 'atom' && impliedOverRationals(others.filter((f) => f.kind === 'atom'), atoms[i]!)) implied = true;
    else {
      const outcome = await implies(F.and(...others), atoms[i]!, { work: work.next(MINIMISE_CHECK_WORK) });
      work.charge(outcome.work ?? 0);
      implied = outcome.status === 'valid';
    }
    if (implied) atoms.splice(i, 1);
  }
  return plain ? atoms : groupedSplits(atoms);
}

/** A split candidate `¬part ∨ c` as [part, c]; null for any other conjunct. */
function splitOf(f: Formula): [Formula, Formula] | null {
  if (f.kind !== 'or' || f.args.length !== 2) return null;
  const [guard, c] = f.args as [Formula, Formula];
  return [negated(guard), c];
}

function withoutRestatedSplits(conjuncts: readonly Formula[]): Formula[] {
  const unconditional = new Set(conjuncts.filter((f) => !splitOf(f)).map((f) => F.toC(f)));
  return conjuncts.filter((f) => {
    const split = splitOf(f);
    return !split || !(unconditional.has(F.toC(split[1])) || F.toC(split[1]) === F.toC(split[0]));
  });
}

/** The conjunction with each guard's split candidates written as one disjunction, (g ∧ C1) ∨ (¬g ∧ C2). */
function groupedSplits(conjuncts: readonly Formula[]): Formula[] {
  const parts = new Map<string, { part: Formula; cs: Formula[] }>();
  const out: Formula[] = [];
  for (const f of conjuncts) {
    const split = splitOf(f);
    if (!split) {
      out.push(f);
      continue;
    }
    const key = F.toC(split[0]);
    const entry = parts.get(key) ?? { part: split[0], cs: [] };
    entry.cs.push(split[1]);
    parts.set(key, entry);
  }
  const done = new Set<string>();
  for (const [key, { part, cs }] of parts) {
    if (done.has(key)) continue;
    const otherKey = F.toC(negated(part));
    const other = parts.get(otherKey);
    done.add(key).add(otherKey);
    const branch = (p: Formula, list: readonly Formula[]): Formula => F.and(p, ...list);
    out.push(other ? F.or(branch(part, cs), branch(other.part, other.cs)) : F.or(negated(part), F.and(...cs)));
  }
  return out;
}

/**
 * Each equality that gives a variable with coefficient ±1 is used to eliminate that variable from
 * the other atoms (the conjunction keeps its meaning, the equality stays). Bounds that only restate
 * another one through the equality then coincide and are merged: with y == x, `y <= 50` becomes
 * `x <= 50`. This is the cheap part of minimising; the checker does the rest.
 */
export function substituteEqualities(atoms: readonly Formula[]): Formula[] {
  const out = [...atoms];
  for (let i = 0; i < out.length; i++) {
    const eq = out[i]!;
    if (eq.kind !== 'atom' || eq.rel !== '==') continue;
    const v = [...eq.expr.coeffs].find(([, k]) => k === 1n || k === -1n)?.[0];
    if (v === undefined) continue;
    const k = L.coefficientOf(eq.expr, v);
    // k·v + rest == 0, so v == -rest / k == -k·rest (k is ±1).
    const rest = L.sub(eq.expr, L.variable(v, k));
    const value = L.scale(rest, -k);
    const subst = new Map([[v, value]]);
    for (let j = 0; j < out.length; j++) if (j !== i) out[j] = F.substitute(out[j]!, subst);
  }
  return out;
}
