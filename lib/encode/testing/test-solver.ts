// Test support only: solves a Cnf with the MiniSat build inside the installed logic-solver package,
// through its plain clause interface (DIMACS-style literals), so tests check the clauses themselves.
// The production SAT back ends live in lib/sat/.

import type { Cnf } from '../../sat/types.js';
import { loadMinisat, type MinisatNative } from '../../sat/minisat-module.js';

/** The production loader of logic-solver's MiniSat (lib/sat/minisat-module.ts), at its default heap;
 * clauses are written straight into its heap. */
const HEAP_BYTES = 64 * 1024 * 1024;
let minisat: ReturnType<typeof loadMinisat> | undefined;

// Creating a MiniSat instance costs several milliseconds (it allocates and clears a 64 MiB heap),
// more than solving a test circuit. So one instance is shared: each CNF gets its own block of
// variables plus an activation variable added to every clause, is solved assuming that variable,
// and is then switched off for good by a unit clause (MiniSat drops the satisfied clauses) and its
// variables retired. A fresh instance is started once many variables have accumulated, to stay far
// from the fixed heap limit.
const RECYCLE_AFTER_VARS = 100_000;
let shared: { C: MinisatNative; used: number } | undefined;

function addClauses(C: MinisatNative, clauses: readonly (readonly number[])[]): void {
  const longest = clauses.reduce((m, c) => Math.max(m, c.length), 0);
  const ptr = C._malloc(4 * (longest + 1));
  const base = ptr >> 2;
  for (const lits of clauses) {
    lits.forEach((l, i) => (C.HEAP32[base + i] = l));
    C.HEAP32[base + lits.length] = 0;
    C._addClause(ptr);
  }
  C._free(ptr);
}

/** A model (index = variable, index 0 unused) or null when the CNF (with the unit assumptions) is unsatisfiable. */
export function solveCnf(cnf: Cnf, assumptions: readonly number[] = []): boolean[] | null {
  if (shared === undefined || shared.used + cnf.numVars > RECYCLE_AFTER_VARS) {
    const C = (minisat ??= loadMinisat(HEAP_BYTES, () => {})).create();
    C._createTheSolver();
    shared = { C, used: 0 };
  }
  const { C } = shared;
  const offset = shared.used;
  const activation = offset + cnf.numVars + 1;
  shared.used = activation;
  C._ensureVar(activation);
  const shift = (l: number): number => (l > 0 ? l + offset : l - offset);
  addClauses(C, [...cnf.clauses, ...assumptions.map((l) => [l])].map((clause) => [...clause.map(shift), -activation]));
  const sat = C._solveAssuming(activation) !== 0;
  let model: boolean[] | null = null;
  if (sat) {
    const solution = C._getSolution();
    model = [false];
    // Byte per variable, 0 = true (MiniSat's l_True).
    for (let v = 1; v <= cnf.numVars; v++) model.push(C.HEAP8[solution + offset + v - 1] === 0);
  }
  addClauses(C, [[-activation]]);
  // Retired variables are no longer decided on, so later solves do not walk over old problems.
  for (let v = offset + 1; v <= activation; v++) C._retireVar(v);
  return model;
}

/** Unit literals that fix a vector's bits to a value (test support; the value must lie in its range). */
export function fixVector(vec: { readonly bits: readonly number[]; readonly lo: bigint; readonly hi: bigint }, value: bigint): number[] {
  if (value < vec.lo || value > vec.hi) throw new RangeError(`${value} outside [${vec.lo}, ${vec.hi}]`);
  return vec.bits.map((lit, i) => (((value >> BigInt(i)) & 1n) === 1n ? lit : -lit));
}

/**
 * Unit propagation over one CNF (test support). `run(units)` returns the implied partial assignment
 * (index = variable; undefined where nothing is implied), or null on a conflict. Every value it
 * reports is implied by the CNF and the units, so a total assignment found this way that satisfies
 * all clauses is the only model with those units.
 */
export class Propagator {
  private readonly occurrences: number[][];

  constructor(private readonly cnf: Cnf) {
    this.occurrences = Array.from({ length: cnf.numVars + 1 }, () => []);
    cnf.clauses.forEach((clause, i) => {
      for (const l of clause) this.occurrences[Math.abs(l)]!.push(i);
    });
  }

  run(units: readonly number[]): (boolean | undefined)[] | null {
    const { cnf, occurrences } = this;
    const value: (boolean | undefined)[] = new Array(cnf.numVars + 1).fill(undefined);
    const queue: number[] = [];
    const assign = (l: number): boolean => {
      const v = Math.abs(l);
      const want = l > 0;
      if (value[v] === undefined) {
        value[v] = want;
        queue.push(v);
        return true;
      }
      return value[v] === want;
    };
    const litValue = (l: number): boolean | undefined => {
      const x = value[Math.abs(l)];
      return x === undefined ? undefined : l > 0 ? x : !x;
    };
    const visit = (i: number): boolean => {
      let unassigned: number | undefined;
      let open = 0;
      for (const l of cnf.clauses[i]!) {
        const x = litValue(l);
        if (x === true) return true;
        if (x === undefined) {
          open++;
          unassigned = l;
        }
      }
      if (open === 0) return false;
      if (open === 1) return assign(unassigned!);
      return true;
    };
    for (const l of units) if (!assign(l)) return null;
    for (let i = 0; i < cnf.clauses.length; i++) if (cnf.clauses[i]!.length === 1 && !visit(i)) return null;
    while (queue.length > 0) {
      const v = queue.pop()!;
      for (const i of occurrences[v]!) if (!visit(i)) return null;
    }
    return value;
  }

  /** Whether a total assignment satisfies every clause. */
  satisfiedBy(model: readonly (boolean | undefined)[]): boolean {
    return this.cnf.clauses.every((c) => c.some((l) => (l > 0 ? model[l] === true : model[-l] === false)));
  }
}

export function unitPropagate(cnf: Cnf, units: readonly number[]): (boolean | undefined)[] | null {
  return new Propagator(cnf).run(units);
}

/** Every model of a small CNF, by enumeration (test support; at most 20 variables). */
export function allModels(cnf: Cnf): boolean[][] {
  if (cnf.numVars > 20) throw new RangeError('too many variables to enumerate');
  const models: boolean[][] = [];
  for (let mask = 0; mask < 2 ** cnf.numVars; mask++) {
    const model = [false];
    for (let v = 1; v <= cnf.numVars; v++) model.push(((mask >> (v - 1)) & 1) === 1);
    if (cnf.clauses.every((c) => c.some((l) => (l > 0 ? model[l] : !model[-l])))) models.push(model);
  }
  return models;
}
