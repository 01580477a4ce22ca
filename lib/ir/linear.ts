// Linear expressions over integer program variables with exact bigint coefficients.
// Immutable plain data: `coeffs` never holds a zero coefficient, so structural equality is
// semantic equality. Every engine (front end, interpreter, VC generator, checker) shares this type.

export interface Linear {
  readonly coeffs: ReadonlyMap<string, bigint>;
  readonly constant: bigint;
}

const EMPTY: ReadonlyMap<string, bigint> = new Map();

export function constant(c: bigint | number): Linear {
  return { coeffs: EMPTY, constant: BigInt(c) };
}

export function variable(name: string, coefficient: bigint = 1n): Linear {
  if (coefficient === 0n) return constant(0n);
  return { coeffs: new Map([[name, coefficient]]), constant: 0n };
}

export function fromTerms(terms: Iterable<[string, bigint]>, c: bigint = 0n): Linear {
  const coeffs = new Map<string, bigint>();
  for (const [v, k] of terms) {
    const sum = (coeffs.get(v) ?? 0n) + k;
    if (sum === 0n) coeffs.delete(v);
    else coeffs.set(v, sum);
  }
  return { coeffs, constant: c };
}

export function add(a: Linear, b: Linear): Linear {
  return fromTerms([...a.coeffs, ...b.coeffs], a.constant + b.constant);
}

export function scale(a: Linear, k: bigint): Linear {
  if (k === 0n) return constant(0n);
  if (k === 1n) return a;
  return { coeffs: new Map([...a.coeffs].map(([v, c]) => [v, c * k])), constant: a.constant * k };
}

export function negate(a: Linear): Linear {
  return scale(a, -1n);
}

export function sub(a: Linear, b: Linear): Linear {
  return add(a, negate(b));
}

export function addConstant(a: Linear, k: bigint): Linear {
  return { coeffs: a.coeffs, constant: a.constant + k };
}

export function isConstant(a: Linear): boolean {
  return a.coeffs.size === 0;
}

export function coefficientOf(a: Linear, v: string): bigint {
  return a.coeffs.get(v) ?? 0n;
}

export function variablesOf(a: Linear): string[] {
  return [...a.coeffs.keys()];
}

/** Simultaneous substitution of linear expressions for variables. */
export function substitute(a: Linear, subst: ReadonlyMap<string, Linear>): Linear {
  let result = constant(a.constant);
  for (const [v, k] of a.coeffs) {
    const replacement = subst.get(v);
    result = add(result, replacement ? scale(replacement, k) : variable(v, k));
  }
  return result;
}

export function rename(a: Linear, renaming: (v: string) => string): Linear {
  return fromTerms([...a.coeffs].map(([v, k]) => [renaming(v), k] as [string, bigint]), a.constant);
}

/** Value under a total assignment; throws if a variable has no value (a caller bug, not user input). */
export function evaluate(a: Linear, env: (v: string) => bigint): bigint {
  let sum = a.constant;
  for (const [v, k] of a.coeffs) sum += k * env(v);
  return sum;
}

export function equals(a: Linear, b: Linear): boolean {
  if (a.constant !== b.constant || a.coeffs.size !== b.coeffs.size) return false;
  for (const [v, k] of a.coeffs) if (b.coeffs.get(v) !== k) return false;
  return true;
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

export function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** ⌊a / b⌋ (b ≠ 0): bigint `/` truncates toward zero. */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

/** ⌈a / b⌉ (b ≠ 0). */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return -floorDiv(-a, b);
}

/** gcd of the variable coefficients (0 for a constant expression). */
export function coefficientGcd(a: Linear): bigint {
  let g = 0n;
  for (const k of a.coeffs.values()) g = gcd(g, k);
  return g;
}

/** Deterministic key, e.g. for structural hashing and deduplication. */
export function key(a: Linear): string {
  const terms = [...a.coeffs].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return terms.map(([v, k]) => `${k}*${v}`).join('+') + '#' + a.constant;
}

/** C syntax: `2 * x - y + 3`. Variables are printed in a stable (sorted) order. */
export function toC(a: Linear, name: (v: string) => string = (v) => v): string {
  const terms = [...a.coeffs].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  let out = '';
  for (const [v, k] of terms) {
    const mag = abs(k);
    const body = mag === 1n ? name(v) : `${mag} * ${name(v)}`;
    if (out === '') out = k < 0n ? `-${body}` : body;
    else out += k < 0n ? ` - ${body}` : ` + ${body}`;
  }
  if (out === '') return a.constant.toString();
  if (a.constant > 0n) out += ` + ${a.constant}`;
  else if (a.constant < 0n) out += ` - ${-a.constant}`;
  return out;
}
