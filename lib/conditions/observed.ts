// A precondition proposed by the sampled inputs, before any solver search (wp's neighbourhood
// strategy tries it first). The same contract as paper 004's Fig. 6 — a relation R that is a
// precondition and whose shifted neighbours each contain a failing input — with the candidates
// taken from data and checked by the certificate checker instead of found by SAT:
//   1. R: octagonal bounds (±p, ±p±q) of passing inputs, cut by one octagonal atom at a time until no
//      known failing input is inside (each cut keeps the side with most passing inputs);
//   2. R is a precondition when the passing runs' octagonal bounds at the cut-points, filtered to an
//      inductive subset under R (Houdini, engine/houdini.ts), also prove every assertion;
//   3. weakening: an atom is dropped, or its constant relaxed (doubling steps, then halving back),
//      while the weaker relation contains no failing input the runner finds and is still proved.
// Nothing here is trusted: wp certifies the answer again and collects the neighbour evidence.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { normaliseInequality } from '../ir/simplify.js';
import { WEAKER_FAILURE_STEPS, type Deadline, type WorkBudget } from '../limits.js';
import { candidateConjuncts, inductiveSubset, unitDirections, unitTermsFor } from '../observe/houdini.js';
import { affineHull } from '../observe/equalities.js';
import type { PreparedAnalysis } from '../problem/prepare.js';
import type { State } from '../observe/samples.js';
import { candidateInputs, failingInputIn, type InputRun, type InputRunner } from './points.js';
import { conjunction } from './neighbours.js';
import { impliedOverRationals } from '../certify/rational-implication.js';

export interface ObservedSearch {
  readonly prepared: PreparedAnalysis;
  readonly runner: InputRunner;
  readonly params: readonly string[];
  readonly passing: readonly InputRun[];
  /** Known failing inputs; ones found here are added (they are witnesses for later searches too). */
  readonly failing: InputRun[];
  /** The checker's work for the whole search (Houdini under each candidate precondition). */
  readonly work: WorkBudget;
  /** The user's deadline. */
  readonly deadline: Deadline;
}

export interface ObservedPrecondition {
  readonly atoms: readonly Linear[];
  readonly invariants: ReadonlyMap<number, Formula>;
}

const MAX_CUTS = 8;

/** The search's work or the user's time is spent. */
function spent(search: ObservedSearch): boolean {
  return search.work.exhausted || search.deadline.passed;
}
const MAX_RELAXATIONS = 30;

/** A precondition covering `seeds` (uncovered passing inputs), or null when the data do not give one. */
export async function observedPrecondition(search: ObservedSearch, seeds: readonly InputRun[]): Promise<ObservedPrecondition | null> {
  // A run cut off by the step limit may still have failed later (a loop bound of B2 not yet
  // exceeded): inputs whose runs returned say where the precondition lies, when there are any. For
  // nonterm there never are (its exit asserts false): there the cut-off runs are the point.
  const returned = seeds.filter((r) => r.returned);
  const hull = separatedHull(search, returned.length > 0 ? returned : seeds);
  if (hull === null) return null;
  let atoms: readonly Linear[] = irredundant(hull);
  // First the atoms with a known failing input just outside them, alone: the others are mostly the
  // sampled box's bounds, and one Houdini run that drops them all saves one per atom below.
  let proof: ReadonlyMap<number, Formula> | null = null;
  const witnessed = atoms.filter((e) => search.failing.some((f) => value(e, f.input) === -1n && atoms.every((o) => o === e || value(o, f.input) >= 0n)));
  if (witnessed.length > 0 && witnessed.length < atoms.length && !search.failing.some((f) => witnessed.every((e) => value(e, f.input) >= 0n))) {
    proof = await provedUnder(search, witnessed, passingRunsIn(search, witnessed, atoms));
    if (proof) atoms = witnessed;
  }
  proof ??= await provedUnder(search, atoms);
  if (!proof) return null;
  // Drop atoms the precondition does not need (bounds of the sampled box, mostly). Single-parameter
  // atoms are tried first, so that a relational atom (n - y >= 299) is kept over the box bound it
  // makes redundant (n >= 303): the relational one relaxes further.
  for (let i = 0; i < atoms.length && !spent(search); ) {
    const weaker: readonly Linear[] = atoms.filter((_, j) => j !== i);
    const tried = await weakerIfProved(search, atoms, weaker);
    if (tried) {
      atoms = weaker;
      proof = tried;
    } else {
      i++;
    }
  }
  // Relax each remaining constant: e >= 0 to e + k >= 0, galloping (k doubles while the weaker
  // relation holds), then from the first failure a binary search (k halves, never doubles again:
  // doubling after a halving oscillated until MAX_RELAXATIONS).
  for (let i = 0; i < atoms.length && !spent(search); i++) {
    let step = 1n;
    let galloping = true;
    let relaxations = 0;
    while (step >= 1n && relaxations++ < MAX_RELAXATIONS && !spent(search)) {
      const weaker: readonly Linear[] = atoms.map((e, j) => (j === i ? L.addConstant(e, step) : e));
      const tried = await weakerIfProved(search, atoms, weaker);
      if (tried) {
        atoms = weaker;
        proof = tried;
      } else {
        galloping = false;
      }
      step = galloping ? step * 2n : step / 2n;
    }
  }
  return { atoms, invariants: proof };
}

/** Unit directions over the parameters: three-term ones for up to three parameters (Merge's
 * m3 >= m1 + m2), octagonal beyond (each atom of the hull costs an implication check and a Houdini run). */
function directions(params: readonly string[]): Linear[] {
  return unitDirections(params, params.length <= 3 ? 3 : 2).map((d) => L.fromTerms(d));
}

const value = (e: Linear, s: State): bigint => L.evaluate(e, (v) => s.get(v) ?? 0n);

/** `d >= min over the cluster` for every direction d; the cluster shrinks while a failing input is inside. */
function separatedHull(search: ObservedSearch, seeds: readonly InputRun[]): Linear[] | null {
  const dirs = directions(search.params);
  let cluster = seeds.map((r) => r.input);
  const cuts: Linear[] = [];
  for (let round = 0; round <= MAX_CUTS && cluster.length > 0; round++) {
    const hull = dirs.map((d) => L.addConstant(d, -cluster.reduce((m, s) => (value(d, s) < m ? value(d, s) : m), value(d, cluster[0]!))));
    const atoms = dedupe([...cuts, ...hull]);
    const inside = search.failing.find((f) => atoms.every((e) => value(e, f.input) >= 0n));
    if (!inside) return atoms;
    // The cut d >= d(f) + 1 that keeps most of the cluster.
    let best: { cut: Linear; kept: State[] } | null = null;
    for (const d of dirs) {
      const cut = L.addConstant(d, -(value(d, inside.input) + 1n));
      const kept = cluster.filter((s) => value(cut, s) >= 0n);
      if (!best || kept.length > best.kept.length) best = { cut, kept };
    }
    if (!best || best.kept.length === 0) return null;
    cuts.push(best.cut);
    cluster = best.kept;
  }
  return null;
}

/**
 * The same region with each atom the others imply left out (three-term directions first, then
 * octagonal ones, bounds last): the weakening below tries every atom, and a redundant one costs a
 * Houdini run without changing the region.
 */
function irredundant(atoms: readonly Linear[]): Linear[] {
  let kept = [...atoms];
  for (let i = kept.length - 1; i >= 0; i--) {
    const others = kept.filter((_, j) => j !== i);
    if (impliedOverRationals(others.map((e) => F.geqZero(e)), F.geqZero(kept[i]!))) kept = others;
  }
  return kept;
}

function dedupe(atoms: readonly Linear[]): Linear[] {
  const tightest = new Map<string, Linear>();
  for (const raw of atoms) {
    const e = normaliseInequality(raw);
    const key = L.key({ coeffs: e.coeffs, constant: 0n });
    const prev = tightest.get(key);
    if (!prev || e.constant < prev.constant) tightest.set(key, e);
  }
  return [...tightest.values()];
}

/** Invariants proving every assertion under the precondition `atoms`, from the runs inside it. */
async function provedUnder(search: ObservedSearch, atoms: readonly Linear[], extra: readonly InputRun[] = []): Promise<ReadonlyMap<number, Formula> | null> {
  if (spent(search)) return null;
  const relation = conjunction(atoms);
  const { prepared } = search;
  const inside = [...search.passing, ...extra].filter((r) => F.evaluate(relation, (v) => r.input.get(v) ?? 0n));
  const candidates = new Map<number, Formula[]>();
  for (const c of prepared.unknownCutpoints) {
    const vars = prepared.variables.get(c) ?? [];
    const states = inside.flatMap((r) => r.reached.get(c) ?? []);
    // The relation's own atoms are candidates where their variables are in scope: the runs inside
    // rarely touch its boundary (no sampled input with i == j), so the octagonal bound the data give
    // (i - j >= 1) fails initiation and the one needed (i - j >= 0) would be missing.
    const inScope = atoms.filter((e) => L.variablesOf(e).every((v) => vars.includes(v))).map((e) => F.geqZero(e));
    candidates.set(c, [...(states.length > 0 ? inScope : []), ...candidateConjuncts(vars, states, affineHull(vars, states), { maxTerms: unitTermsFor(vars.length) })]);
  }
  const under = { ...prepared, precondition: F.and(prepared.precondition, relation) };
  const result = await inductiveSubset(under, candidates, { work: search.work, deadline: search.deadline });
  if (!result.provesSafety) return null;
  // Every cut-point gets its invariant (true where no candidate survived), as the checker expects.
  return new Map(prepared.unknownCutpoints.map((c) => [c, result.facts.get(c) ?? F.TRUE]));
}

/** The proof for `weaker` if no failing input is found in it beyond `current` and the checker proves it. */
async function weakerIfProved(search: ObservedSearch, current: readonly Linear[], weaker: readonly Linear[]): Promise<ReadonlyMap<number, Formula> | null> {
  const region = conjunction(weaker);
  const holds = (s: State): boolean => F.evaluate(region, (v) => s.get(v) ?? 0n);
  if (search.failing.some((f) => holds(f.input))) return null;
  const found = await failingInputIn(search.runner, search.params, region, conjunction(current), { steps: WEAKER_FAILURE_STEPS });
  if (found) {
    search.failing.unshift(found);
    return null;
  }
  return provedUnder(search, weaker, passingRunsIn(search, weaker, current));
}

/**
 * Passing runs from inputs in `weaker` but not in `current`: the candidates must see how the program
 * behaves in the added slab too. Sampled inputs are moved along one parameter onto the slab (just
 * outside the atom of `current` that was dropped or relaxed, and onto the relaxed atom's new
 * boundary), so the probes are spread like the samples; grid points in the slab come after.
 */
function passingRunsIn(search: ObservedSearch, weaker: readonly Linear[], current: readonly Linear[]): InputRun[] {
  const inSlab = (s: State): boolean => weaker.every((e) => value(e, s) >= 0n) && current.some((e) => value(e, s) < 0n);
  const weakerKeys = new Set(weaker.map((e) => L.key(e)));
  const changed = current.filter((e) => !weakerKeys.has(L.key(e)));
  const targets = changed.flatMap((e) => {
    const relaxedTo = weaker.find((w) => L.key({ coeffs: w.coeffs, constant: 0n }) === L.key({ coeffs: e.coeffs, constant: 0n }));
    // e(s') = -1 is just outside `current`; for a relaxation by k, e(s') = -k is on the new boundary.
    return [{ atom: e, at: -1n }, ...(relaxedTo && relaxedTo.constant - e.constant > 1n ? [{ atom: e, at: e.constant - relaxedTo.constant }] : [])];
  });
  const probes = new Map<string, State>();
  for (const r of search.passing) {
    if (probes.size >= 60) break;
    for (const { atom, at } of targets) {
      for (const p of search.params) {
        const a = L.coefficientOf(atom, p);
        if (a !== 1n && a !== -1n) continue;
        const moved = new Map(r.input).set(p, (r.input.get(p) ?? 0n) + (at - value(atom, r.input)) * a);
        if (inSlab(moved)) probes.set(L.key(L.fromTerms([...moved].map(([k, v]) => [k, v] as [string, bigint]))), moved);
      }
    }
  }
  for (const input of candidateInputs(search.params)) {
    if (probes.size >= 80) break;
    if (inSlab(input)) probes.set(L.key(L.fromTerms([...input].map(([k, v]) => [k, v] as [string, bigint]))), input);
  }
  return [...probes.values()].map((s) => search.runner.run(s)).filter((r) => !r.failure);
}
