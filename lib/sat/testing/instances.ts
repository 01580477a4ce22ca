// CNF instances and a reference decision procedure for the SAT back-end tests.
import fc from 'fast-check';
import type { Cnf } from '../types.js';

/** p pigeons into h holes, each pigeon somewhere, no hole shared: unsat iff p > h. */
export function pigeonhole(pigeons: number, holes: number): Cnf {
  const variable = (pigeon: number, hole: number) => pigeon * holes + hole + 1;
  const clauses: number[][] = [];
  for (let p = 0; p < pigeons; p++) clauses.push(Array.from({ length: holes }, (_, h) => variable(p, h)));
  for (let h = 0; h < holes; h++) {
    for (let a = 0; a < pigeons; a++) {
      for (let b = a + 1; b < pigeons; b++) clauses.push([-variable(a, h), -variable(b, h)]);
    }
  }
  return { numVars: pigeons * holes, clauses };
}

/** Satisfiability by enumerating all assignments (n ≤ ~16). */
export function bruteForceSatisfiable(cnf: Cnf): boolean {
  const { numVars, clauses } = cnf;
  for (let bits = 0; bits < 2 ** numVars; bits++) {
    const isTrue = (variable: number) => ((bits >> (variable - 1)) & 1) === 1;
    if (clauses.every((clause) => clause.some((literal) => isTrue(Math.abs(literal)) === literal > 0))) return true;
  }
  return false;
}

/** Small random CNFs (mostly 3-literal clauses, some shorter ones and empty ones rarely). */
export function smallCnf(maxVars = 8, maxClauses = 40): fc.Arbitrary<Cnf> {
  return fc.integer({ min: 1, max: maxVars }).chain((numVars) => {
    const literal = fc
      .tuple(fc.integer({ min: 1, max: numVars }), fc.boolean())
      .map(([variable, negative]) => (negative ? -variable : variable));
    const clause = fc.array(literal, { minLength: 1, maxLength: 3 });
    return fc.array(clause, { minLength: 0, maxLength: maxClauses }).map((clauses) => ({ numVars, clauses }));
  });
}

/** Deterministic uniform random 3-CNF (mulberry32) for instances too big to build with fast-check. */
export function seededRandom3Cnf(numVars: number, numClauses: number, seed: number): Cnf {
  let state = seed | 0;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return (mixed ^ (mixed >>> 14)) >>> 0;
  };
  const clauses: number[][] = [];
  for (let i = 0; i < numClauses; i++) {
    const clause: number[] = [];
    for (let k = 0; k < 3; k++) {
      const variable = (next() % numVars) + 1;
      clause.push(next() & 1 ? variable : -variable);
    }
    clauses.push(clause);
  }
  return { numVars, clauses };
}
