// Residues of a predicate's arguments, `x mod k` for each divisor k the clauses divide by, as extra
// variables of the candidate invariants: the multi-phase loops of the aeval family step by parity or
// by blocks (`ite (= (mod A 2) 0) …`), and their invariants are affine only with the residues
// (2·B == A + (A mod 2)). A residue is named `mod!K!x`; the IR's own names never contain `!`
// (lower.ts), so a name says by itself whether it is a residue. Residues appear only in candidates
// and models of the clause solver, which state them in SMT-LIB as `(mod x K)` for z3 and the printed
// model; the template search on the graph never sees them.
import type { SymbolOf } from '../certify/lia.js';
import type { Formula } from '../ir/formula.js';
import * as F from '../ir/formula.js';
import type { State } from '../observe/samples.js';
import { CHC_RESIDUE_DIVISORS } from '../limits.js';
import { headOf, type SExpr } from './sexpr.js';
import type { ChcSystem } from './system.js';

export interface Residue {
  readonly variable: string;
  readonly divisor: bigint;
}

export function residueName(variable: string, divisor: bigint): string {
  return `mod!${divisor}!${variable}`;
}

export function residueOf(name: string): Residue | null {
  const m = /^mod!([0-9]+)!(.*)$/.exec(name);
  return m ? { divisor: BigInt(m[1]!), variable: m[2]! } : null;
}

/** SMT-LIB's (Euclidean) x mod k, for k > 0. */
export function euclideanMod(x: bigint, k: bigint): bigint {
  return ((x % k) + k) % k;
}

/** The constant divisors (> 1) of the clauses' `mod` and `div` terms, smallest first, and 2. */
export function divisorsOf(system: ChcSystem): bigint[] {
  const found = new Set<bigint>();
  const stack: SExpr[] = system.clauses.map((c) => c.assertion);
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (e.kind !== 'list') continue;
    const head = headOf(e);
    if ((head === 'mod' || head === 'div') && e.items.length === 3) {
      const k = e.items[2]!;
      if (k.kind === 'atom' && /^[0-9]+$/.test(k.text) && BigInt(k.text) > 1n) found.add(BigInt(k.text));
    }
    for (const item of e.items) stack.push(item);
  }
  // A system that divides at all also gets parity, the commonest residue (`mod A 4` in a query of a
  // loop stepping by 2).
  if (found.size > 0) found.add(2n);
  return [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, CHC_RESIDUE_DIVISORS);
}

/** The residue variables of `variables` (integer arguments) for `divisors`. */
export function residuesOf(variables: readonly string[], divisors: readonly bigint[]): string[] {
  return divisors.flatMap((k) => variables.map((v) => residueName(v, k)));
}

/** `state` with the value of each residue variable added. */
export function withResidues(state: State, residues: readonly string[]): State {
  if (residues.length === 0) return state;
  const out = new Map(state);
  for (const name of residues) {
    const r = residueOf(name)!;
    out.set(name, euclideanMod(state.get(r.variable) ?? 0n, r.divisor));
  }
  return out;
}

/** A variable's name as the reports print it: a residue as `(x mod k)`. */
export function displayName(name: string): string {
  const r = residueOf(name);
  return r ? `(${r.variable} mod ${r.divisor})` : name;
}

/** `symbolOf` extended to residue variables: the residue of the variable's term. */
export function residueSymbols(symbolOf: SymbolOf): SymbolOf {
  return (name) => {
    const r = residueOf(name);
    return r ? `(mod ${symbolOf(r.variable)} ${r.divisor})` : symbolOf(name);
  };
}

export function mentionsResidue(f: Formula): boolean {
  for (const v of F.variablesOf(f)) if (residueOf(v)) return true;
  return false;
}
