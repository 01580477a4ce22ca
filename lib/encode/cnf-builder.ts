// Builds CNF through Tseitin gates. Every gate output is a literal that is fully equivalent to the
// gate's function (both implication directions are encoded), so callers may negate or combine any
// literal freely — weakest-precondition search needs negated constraint literals.
//
// Two things keep the formula small:
// - constant propagation: variable 1 is fixed true by a unit clause, so TRUE/FALSE are ordinary
//   literals (1 / -1) and every gate folds constant or repeated inputs before creating anything;
// - structural hashing: a gate is keyed by its normalised inputs (sorted for commutative gates,
//   negations pulled out where the function allows it), so building the same gate twice returns
//   the same literal and adds no clauses.

import type { Cnf } from '../sat/types.js';
import { GateTable, type Lit } from './gate-table.js';
import { MAX_CNF_CLAUSES, WorkLimitExceeded } from '../limits.js';

export type { Lit };

export interface AdderBits {
  readonly sum: Lit;
  readonly carry: Lit;
}

const TRUE_VAR = 1;

// Literals are stored in the Int32Arrays of the gate tables.
const MAX_VARS = 2 ** 31 - 1;

function sort3(a: number, b: number, c: number): [number, number, number] {
  if (a > b) [a, b] = [b, a];
  if (b > c) [b, c] = [c, b];
  if (a > b) [a, b] = [b, a];
  return [a, b, c];
}

function sort3ByVariable(a: Lit, b: Lit, c: Lit): [Lit, Lit, Lit] {
  if (Math.abs(a) > Math.abs(b)) [a, b] = [b, a];
  if (Math.abs(b) > Math.abs(c)) [b, c] = [c, b];
  if (Math.abs(a) > Math.abs(b)) [a, b] = [b, a];
  return [a, b, c];
}

export class CnfBuilder {
  /** Fixed true by the first clause of every formula this builder produces. */
  readonly TRUE: Lit = TRUE_VAR;
  readonly FALSE: Lit = -TRUE_VAR;

  private nextVar = TRUE_VAR + 1;
  private readonly clauses: number[][] = [[TRUE_VAR]];
  // Structural hashing tables, one per gate kind, keyed by the normalised inputs.
  private readonly ands = new GateTable();
  private readonly xors = new GateTable();
  private readonly xor3s = new GateTable();
  private readonly majs = new GateTable();
  private readonly ites = new GateTable();
  private readonly wideAnds = new Map<string, Lit>();
  private contradiction = false;

  /** Number of variables used so far (including the constant-true variable). */
  get numVars(): number {
    return this.nextVar - 1;
  }

  get numClauses(): number {
    return this.clauses.length;
  }

  /** True once a clause that is false under every assignment has been added. */
  get trivialUnsat(): boolean {
    return this.contradiction;
  }

  newVar(): Lit {
    if (this.nextVar >= MAX_VARS) throw new RangeError(`more than ${MAX_VARS} variables`);
    // Every gate takes a variable and adds a few clauses: checked here, the limit holds within a gate.
    if (this.clauses.length > MAX_CNF_CLAUSES) throw new WorkLimitExceeded(`the CNF has more than ${MAX_CNF_CLAUSES} clauses`);
    return this.nextVar++;
  }

  isConstant(l: Lit): boolean {
    return l === TRUE_VAR || l === -TRUE_VAR;
  }

  /** Value of a literal under a model indexed by variable (index 0 unused). Constants need no model. */
  value(model: readonly boolean[], l: Lit): boolean {
    if (l === TRUE_VAR) return true;
    if (l === -TRUE_VAR) return false;
    const v = Math.abs(l);
    const b = model[v];
    if (b === undefined) throw new RangeError(`model has no value for variable ${v}`);
    return l > 0 ? b : !b;
  }

  /** Adds a clause after dropping FALSE literals and duplicates; tautologies are skipped. */
  addClause(lits: readonly Lit[]): void {
    const seen = new Set<Lit>();
    for (const l of lits) {
      this.checkLit(l);
      if (l === TRUE_VAR || seen.has(-l)) return;
      if (l !== -TRUE_VAR) seen.add(l);
    }
    if (seen.size === 0) {
      // An empty clause is written as the clause "FALSE", which contradicts the unit clause on TRUE:
      // some DIMACS readers reject a bare "0" line.
      this.contradiction = true;
      this.clauses.push([-TRUE_VAR]);
      return;
    }
    this.clauses.push([...seen]);
  }

  assertLit(l: Lit): void {
    this.addClause([l]);
  }

  /** The clauses so far; the builder may keep growing afterwards. */
  toCnf(): Cnf {
    return { numVars: this.numVars, clauses: this.clauses.slice() };
  }

  not(a: Lit): Lit {
    return -a;
  }

  and(a: Lit, b: Lit): Lit {
    this.checkLit(a);
    this.checkLit(b);
    if (a === -TRUE_VAR || b === -TRUE_VAR || a === -b) return -TRUE_VAR;
    if (a === TRUE_VAR || a === b) return b;
    if (b === TRUE_VAR) return a;
    return a < b ? this.and2(a, b) : this.and2(b, a);
  }

  or(a: Lit, b: Lit): Lit {
    return -this.and(-a, -b);
  }

  orN(lits: readonly Lit[]): Lit {
    return -this.andN(lits.map((l) => -l));
  }

  implies(a: Lit, b: Lit): Lit {
    return this.or(-a, b);
  }

  andN(lits: readonly Lit[]): Lit {
    const inputs = new Set<Lit>();
    for (const l of lits) {
      this.checkLit(l);
      if (l === -TRUE_VAR || inputs.has(-l)) return -TRUE_VAR;
      if (l !== TRUE_VAR) inputs.add(l);
    }
    if (inputs.size === 0) return TRUE_VAR;
    const sorted = [...inputs].sort((x, y) => x - y);
    if (sorted.length === 1) return sorted[0]!;
    if (sorted.length === 2) return this.and2(sorted[0]!, sorted[1]!);
    const key = sorted.join(',');
    const known = this.wideAnds.get(key);
    if (known !== undefined) return known;
    const x = this.newVar();
    for (const l of sorted) this.clauses.push([-x, l]);
    this.clauses.push([x, ...sorted.map((l) => -l)]);
    this.wideAnds.set(key, x);
    return x;
  }

  xor(a: Lit, b: Lit): Lit {
    this.checkLit(a);
    this.checkLit(b);
    if (a === -TRUE_VAR) return b;
    if (b === -TRUE_VAR) return a;
    if (a === TRUE_VAR) return -b;
    if (b === TRUE_VAR) return -a;
    if (a === b) return -TRUE_VAR;
    if (a === -b) return TRUE_VAR;
    // ¬a ⊕ b = ¬(a ⊕ b): hash on variables, put the parity of the signs on the output.
    const flip = a < 0 !== b < 0;
    const [p, q] = [Math.abs(a), Math.abs(b)];
    const out = p < q ? this.xor2(p, q) : this.xor2(q, p);
    return flip ? -out : out;
  }

  iff(a: Lit, b: Lit): Lit {
    return -this.xor(a, b);
  }

  xor3(a: Lit, b: Lit, c: Lit): Lit {
    this.checkLit(a);
    this.checkLit(b);
    this.checkLit(c);
    if (a === TRUE_VAR || a === -TRUE_VAR) return a === TRUE_VAR ? -this.xor(b, c) : this.xor(b, c);
    if (b === TRUE_VAR || b === -TRUE_VAR) return b === TRUE_VAR ? -this.xor(a, c) : this.xor(a, c);
    if (c === TRUE_VAR || c === -TRUE_VAR) return c === TRUE_VAR ? -this.xor(a, b) : this.xor(a, b);
    const [va, vb, vc] = [Math.abs(a), Math.abs(b), Math.abs(c)];
    // v ⊕ v = 0 and v ⊕ ¬v = 1.
    if (va === vb) return a === b ? c : -c;
    if (va === vc) return a === c ? b : -b;
    if (vb === vc) return b === c ? a : -a;
    // Each negated input flips the output: hash on variables, put the parity of the signs on the output.
    const flip = ((a < 0 ? 1 : 0) + (b < 0 ? 1 : 0) + (c < 0 ? 1 : 0)) % 2 === 1;
    const [p, q, r] = sort3(va, vb, vc);
    const out = this.gate3(this.xor3s, p, q, r, (x) => {
      // x is true exactly when an odd number of p, q, r are true: each clause rules out one
      // assignment of the inputs together with the wrong value of x.
      this.clauses.push([-p, q, r, x], [p, -q, r, x], [p, q, -r, x], [-p, -q, -r, x]);
      this.clauses.push([p, q, r, -x], [-p, -q, r, -x], [-p, q, -r, -x], [p, -q, -r, -x]);
    });
    return flip ? -out : out;
  }

  /** Majority of three: the carry of a full adder. */
  maj(a: Lit, b: Lit, c: Lit): Lit {
    this.checkLit(a);
    this.checkLit(b);
    this.checkLit(c);
    if (a === -TRUE_VAR) return this.and(b, c);
    if (b === -TRUE_VAR) return this.and(a, c);
    if (c === -TRUE_VAR) return this.and(a, b);
    if (a === TRUE_VAR) return this.or(b, c);
    if (b === TRUE_VAR) return this.or(a, c);
    if (c === TRUE_VAR) return this.or(a, b);
    if (a === b || a === c) return a;
    if (b === c) return b;
    if (a === -b) return c;
    if (a === -c) return b;
    if (b === -c) return a;
    // maj(¬a,¬b,¬c) = ¬maj(a,b,c): keep at most one negated input so both forms hash alike.
    const flip = (a < 0 ? 1 : 0) + (b < 0 ? 1 : 0) + (c < 0 ? 1 : 0) >= 2;
    const [p, q, r] = sort3ByVariable(flip ? -a : a, flip ? -b : b, flip ? -c : c);
    const out = this.gate3(this.majs, p, q, r, (x) => {
      this.clauses.push([-x, p, q], [-x, p, r], [-x, q, r]);
      this.clauses.push([x, -p, -q], [x, -p, -r], [x, -q, -r]);
    });
    return flip ? -out : out;
  }

  /** If-then-else: c ? t : e. */
  ite(c: Lit, t: Lit, e: Lit): Lit {
    this.checkLit(c);
    this.checkLit(t);
    this.checkLit(e);
    if (c === TRUE_VAR) return t;
    if (c === -TRUE_VAR) return e;
    if (t === e) return t;
    if (t === -e) return this.iff(c, t);
    if (t === TRUE_VAR || t === c) return this.or(c, e);
    if (t === -TRUE_VAR || t === -c) return this.and(-c, e);
    if (e === TRUE_VAR || e === -c) return this.or(-c, t);
    if (e === -TRUE_VAR || e === c) return this.and(c, t);
    if (c < 0) return this.ite(-c, e, t);
    // ite(c, ¬t, ¬e) = ¬ite(c, t, e): keep the then-branch positive.
    const flip = t < 0;
    const [tt, ee] = flip ? [-t, -e] : [t, e];
    const out = this.gate3(this.ites, c, tt, ee, (x) => {
      this.clauses.push([-c, -tt, x], [-c, tt, -x], [c, -ee, x], [c, ee, -x]);
      // Redundant, but lets unit propagation conclude x when both branches agree.
      this.clauses.push([-tt, -ee, x], [tt, ee, -x]);
    });
    return flip ? -out : out;
  }

  halfAdder(a: Lit, b: Lit): AdderBits {
    return { sum: this.xor(a, b), carry: this.and(a, b) };
  }

  fullAdder(a: Lit, b: Lit, c: Lit): AdderBits {
    return { sum: this.xor3(a, b, c), carry: this.maj(a, b, c) };
  }

  /** a ∧ b for normalised inputs (non-constant, a < b, a ≠ −b). */
  private and2(a: Lit, b: Lit): Lit {
    const known = this.ands.get(a, b, 0);
    if (known !== undefined) return known;
    const x = this.newVar();
    this.clauses.push([-x, a], [-x, b], [x, -a, -b]);
    this.ands.set(a, b, 0, x);
    return x;
  }

  /** a ⊕ b for two distinct variables a < b. */
  private xor2(a: number, b: number): Lit {
    const known = this.xors.get(a, b, 0);
    if (known !== undefined) return known;
    const x = this.newVar();
    this.clauses.push([-x, a, b], [-x, -a, -b], [x, -a, b], [x, a, -b]);
    this.xors.set(a, b, 0, x);
    return x;
  }

  private gate3(table: GateTable, a: Lit, b: Lit, c: Lit, define: (out: Lit) => void): Lit {
    const known = table.get(a, b, c);
    if (known !== undefined) return known;
    const out = this.newVar();
    define(out);
    table.set(a, b, c, out);
    return out;
  }

  private checkLit(l: Lit): void {
    if (!Number.isInteger(l) || l === 0 || Math.abs(l) >= this.nextVar) {
      throw new RangeError(`literal ${l} is not a variable of this builder`);
    }
  }
}
