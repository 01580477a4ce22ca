// The exact arithmetic problem Farkas' lemma leaves behind: polynomial constraints of degree <= 2
// (bilinear: template coefficient × multiplier) over bounded integer unknowns. Program variables are
// gone. This is the contract between the constraint generator and the bit-blaster.

export type UnknownKind = 'coefficient' | 'constant' | 'multiplier';

export interface Unknown {
  readonly name: string;
  readonly kind: UnknownKind;
  /** Multipliers of inequalities are non-negative; template coefficients and multipliers of
   * equalities range over both signs. */
  readonly nonNegative: boolean;
}

/** A monomial is a sorted list of 0, 1 or 2 unknown names; its key is the names joined by '*'. */
export interface Term {
  readonly vars: readonly string[];
  readonly coeff: bigint;
}

export interface Polynomial {
  /** key (sorted var names joined by '*', '' for the constant) → term; no zero coefficients */
  readonly terms: ReadonlyMap<string, Term>;
}

export interface PolyConstraint {
  readonly poly: Polynomial;
  /** poly == 0, or poly >= 0 */
  readonly rel: '==' | '>=';
  /** Where it came from, for `farkas constraints` output (e.g. "VC 3 (line 5 -> line 7), clause 2, coefficient of x"). */
  readonly origin?: string;
}

export interface ConstraintSystem {
  readonly unknowns: readonly Unknown[];
  readonly constraints: readonly PolyConstraint[];
}

/** Bit widths per kind of unknown: a signed unknown of width w ranges over [-2^(w-1), 2^(w-1) - 1],
 * a non-negative one over [0, 2^w - 1]. */
export interface Widths {
  readonly coefficient: number;
  readonly constant: number;
  readonly multiplier: number;
}

export function monomialKey(vars: readonly string[]): string {
  return [...vars].sort().join('*');
}

export function polyFromTerms(terms: Iterable<Term>): Polynomial {
  const map = new Map<string, Term>();
  for (const t of terms) {
    if (t.vars.length > 2) throw new Error(`monomial of degree ${t.vars.length} in a bilinear system`);
    const vars = [...t.vars].sort();
    const k = monomialKey(vars);
    const sum = (map.get(k)?.coeff ?? 0n) + t.coeff;
    if (sum === 0n) map.delete(k);
    else map.set(k, { vars, coeff: sum });
  }
  return { terms: map };
}

export function evaluatePoly(p: Polynomial, value: (name: string) => bigint): bigint {
  let sum = 0n;
  for (const t of p.terms.values()) {
    let prod = t.coeff;
    for (const v of t.vars) prod *= value(v);
    sum += prod;
  }
  return sum;
}

/** Whether an assignment satisfies every constraint exactly (used to double-check SAT models). */
export function satisfies(system: ConstraintSystem, value: (name: string) => bigint): boolean {
  return system.constraints.every((c) => {
    const v = evaluatePoly(c.poly, value);
    return c.rel === '==' ? v === 0n : v >= 0n;
  });
}

export function polyToString(p: Polynomial): string {
  const parts: string[] = [];
  for (const t of [...p.terms.values()].sort((a, b) => (monomialKey(a.vars) < monomialKey(b.vars) ? -1 : 1))) {
    const mag = t.coeff < 0n ? -t.coeff : t.coeff;
    const body = t.vars.length === 0 ? `${mag}` : mag === 1n ? t.vars.join('*') : `${mag}*${t.vars.join('*')}`;
    parts.push(parts.length === 0 ? (t.coeff < 0n ? `-${body}` : body) : t.coeff < 0n ? `- ${body}` : `+ ${body}`);
  }
  return parts.length === 0 ? '0' : parts.join(' ');
}
