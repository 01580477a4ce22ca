// Candidate summary pairs proposed by concrete runs (the interprocedural counterpart of the affine
// hull in equalities.ts). The observed calls of a procedure are split into clusters, each explained
// by one affine law `m·result = a·args + c` (McCarthy 91: result = n - 10 on some calls, result = 91
// on the others); a cluster proposes the pair "args within the cluster's range ⇒ the law". They are
// guesses only: the search pins them and asks the SAT solver for the rest of the proof (multipliers,
// loop invariants), falls back to the full unknown search when that fails, and the certificate
// checker re-proves whatever is reported.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { mulberry32 } from '../random.js';
import { affineHull } from './equalities.js';
import type { State } from './samples.js';

/** A candidate pair as conjunctions of atoms `e >= 0`. */
export interface CandidatePair {
  readonly pre: readonly Linear[];
  readonly post: readonly Linear[];
}

export interface CandidateOptions {
  /** At most this many clusters (pairs). */
  readonly maxPairs: number;
  /** Subsets tried per cluster when the inputs are too many to try every subset (default 600). */
  readonly tries?: number;
  readonly seed?: number;
}

/**
 * Pairs for a procedure with the given inputs and result variable, from observed states over
 * inputs ∪ {result}: greedily the affine law that explains most of the remaining observations (it
 * must explain at least one more than the inputs + 1 that determine it, so that some observation
 * confirms it), its cluster's input box as the pre-condition. Empty when no law is confirmed.
 */
export function candidatePairs(inputs: readonly string[], result: string, observations: readonly State[], options: CandidateOptions): CandidatePair[] {
  const pairs: CandidatePair[] = [];
  const all = dedupe(observations);
  let remaining = all;
  const next = mulberry32(options.seed ?? 91);
  while (pairs.length < options.maxPairs && remaining.length >= inputs.length + 2) {
    const law = bestLaw(inputs, result, remaining, options.tries ?? 600, next);
    if (!law) break;
    const cluster = remaining.filter((s) => holds(law, s));
    remaining = remaining.filter((s) => !holds(law, s));
    pairs.push({ pre: opened(box(inputs, cluster), law, all), post: [law, L.negate(law)] });
  }
  return pairs;
}

/**
 * The cluster's box without the bounds no observation asks for: a bound is dropped when every
 * observation inside the wider region still obeys the law. The box's far sides only mark where the
 * sampling stopped (count's 2 <= n <= 5 for a law that holds for all n >= 2), and a pre-condition
 * bounded there cannot cover the program's own calls beyond it.
 */
function opened(pre: readonly Linear[], law: Linear, observations: readonly State[]): Linear[] {
  let atoms = [...pre];
  for (let i = 0; i < atoms.length; ) {
    const wider = atoms.filter((_, j) => j !== i);
    const inside = observations.filter((s) => wider.every((e) => L.evaluate(e, (v) => s.get(v) ?? 0n) >= 0n));
    if (inside.every((s) => holds(law, s))) atoms = wider;
    else i++;
  }
  return atoms;
}

/** Conjunction of the atoms (for reports and tests). */
export function atomsFormula(atoms: readonly Linear[]): Formula {
  return F.and(...atoms.map((e) => F.geqZero(e)));
}

function bestLaw(inputs: readonly string[], result: string, states: readonly State[], tries: number, next: () => number): Linear | null {
  const vars = [...inputs, result];
  const size = inputs.length + 1;
  let best: { law: Linear; support: number } | null = null;
  const seen = new Set<string>();
  for (const subset of subsets(states.length, size, tries, next)) {
    const eqs = affineHull(vars, subset.map((i) => states[i]!));
    // Exactly one equality, mentioning the result: the subset's inputs are affinely independent and
    // the result is an affine function of them there.
    if (eqs.length !== 1) continue;
    const eq = eqs[0]!;
    if (eq.kind !== 'atom' || L.coefficientOf(eq.expr, result) === 0n) continue;
    const law = normalised(eq.expr, result);
    const key = L.key(law);
    if (seen.has(key)) continue;
    seen.add(key);
    const support = states.filter((s) => holds(law, s)).length;
    if (support >= size + 1 && (!best || support > best.support)) best = { law, support };
  }
  return best?.law ?? null;
}

/** Index subsets of the given size: all of them when few, else `tries` random ones. */
function* subsets(n: number, size: number, tries: number, next: () => number): Generator<number[]> {
  if (size > n) return;
  if (binomialAtMost(n, size, tries)) {
    const idx = Array.from({ length: size }, (_, i) => i);
    for (;;) {
      yield [...idx];
      let k = size - 1;
      while (k >= 0 && idx[k] === n - size + k) k--;
      if (k < 0) return;
      idx[k]!++;
      for (let j = k + 1; j < size; j++) idx[j] = idx[j - 1]! + 1;
    }
  }
  for (let t = 0; t < tries; t++) {
    const chosen = new Set<number>();
    while (chosen.size < size) chosen.add(Math.floor(next() * n));
    yield [...chosen].sort((a, b) => a - b);
  }
}

function binomialAtMost(n: number, k: number, bound: number): boolean {
  let c = 1;
  for (let i = 0; i < k; i++) {
    c = (c * (n - i)) / (i + 1);
    if (c > bound) return false;
  }
  return true;
}

/** The law with a positive result coefficient, so that equal laws have equal keys. */
function normalised(e: Linear, result: string): Linear {
  return L.coefficientOf(e, result) < 0n ? L.negate(e) : e;
}

function holds(law: Linear, s: State): boolean {
  return L.evaluate(law, (v) => s.get(v) ?? 0n) === 0n;
}

/** lo <= x <= hi for every input, over the cluster. */
function box(inputs: readonly string[], cluster: readonly State[]): Linear[] {
  return inputs.flatMap((x) => {
    const values = cluster.map((s) => s.get(x) ?? 0n);
    const lo = values.reduce((a, b) => (b < a ? b : a));
    const hi = values.reduce((a, b) => (b > a ? b : a));
    return [L.addConstant(L.variable(x), -lo), L.addConstant(L.variable(x, -1n), hi)];
  });
}

function dedupe(states: readonly State[]): State[] {
  const byKey = new Map<string, State>();
  for (const s of states) byKey.set([...s].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join(','), s);
  return [...byKey.values()];
}
