// Boolean combinations of linear constraints. Atoms are normalised to `e >= 0` or `e == 0`
// (over the integers `e > 0` is `e - 1 >= 0`, and `e != 0` is `!(e == 0)`), so every consumer
// handles just two relations.
import * as L from './linear.js';
import type { Linear } from './linear.js';
import { WorkLimitExceeded } from '../limits.js';

export type Relation = '>=' | '==';

export type Formula =
  | { readonly kind: 'true' }
  | { readonly kind: 'false' }
  | { readonly kind: 'atom'; readonly rel: Relation; readonly expr: Linear }
  | { readonly kind: 'not'; readonly arg: Formula }
  | { readonly kind: 'and'; readonly args: readonly Formula[] }
  | { readonly kind: 'or'; readonly args: readonly Formula[] };

export const TRUE: Formula = { kind: 'true' };
export const FALSE: Formula = { kind: 'false' };

/** `expr >= 0`, folded when constant. */
export function geqZero(expr: Linear): Formula {
  if (L.isConstant(expr)) return expr.constant >= 0n ? TRUE : FALSE;
  return { kind: 'atom', rel: '>=', expr };
}

/** `expr == 0`, folded when constant. */
export function eqZero(expr: Linear): Formula {
  if (L.isConstant(expr)) return expr.constant === 0n ? TRUE : FALSE;
  return { kind: 'atom', rel: '==', expr };
}

/**
 * `mt` is m times C's `e / m` (m > 0, truncating toward zero): `e >= 0 && mt <= e <= mt + m - 1 ||
 * e < 0 && mt - m + 1 <= e <= mt`. The front end's quotients and the ghost quotients say this.
 */
export function truncatedMultiple(e: Linear, mt: Linear, m: bigint): Formula {
  const nonNegative = and(geqZero(e), geqZero(L.sub(e, mt)), geqZero(L.addConstant(L.sub(mt, e), m - 1n)));
  const negative = and(geqZero(L.addConstant(L.negate(e), -1n)), geqZero(L.addConstant(L.sub(e, mt), m - 1n)), geqZero(L.sub(mt, e)));
  return or(nonNegative, negative);
}

/** `lo <= e <= hi`: a C type's range, as the front end assumes it after a value is chosen. */
export function inRange(e: Linear, range: { readonly lo: bigint; readonly hi: bigint }): Formula {
  return and(compare(e, '>=', L.constant(range.lo)), compare(e, '<=', L.constant(range.hi)));
}

export type Comparison = '<' | '<=' | '>' | '>=' | '==' | '!=';

/** `a op b` as a normalised formula. */
export function compare(a: Linear, op: Comparison, b: Linear): Formula {
  switch (op) {
    case '>=': return geqZero(L.sub(a, b));
    case '<=': return geqZero(L.sub(b, a));
    case '>': return geqZero(L.addConstant(L.sub(a, b), -1n));
    case '<': return geqZero(L.addConstant(L.sub(b, a), -1n));
    case '==': return eqZero(L.sub(a, b));
    case '!=': return not(eqZero(L.sub(a, b)));
  }
}

export function not(f: Formula): Formula {
  switch (f.kind) {
    case 'true': return FALSE;
    case 'false': return TRUE;
    case 'not': return f.arg;
    default: return { kind: 'not', arg: f };
  }
}

export function and(...args: Formula[]): Formula {
  const flat: Formula[] = [];
  for (const a of args) {
    if (a.kind === 'false') return FALSE;
    if (a.kind === 'true') continue;
    if (a.kind === 'and') flat.push(...a.args);
    else flat.push(a);
  }
  if (flat.length === 0) return TRUE;
  if (flat.length === 1) return flat[0]!;
  return { kind: 'and', args: flat };
}

export function or(...args: Formula[]): Formula {
  const flat: Formula[] = [];
  for (const a of args) {
    if (a.kind === 'true') return TRUE;
    if (a.kind === 'false') continue;
    if (a.kind === 'or') flat.push(...a.args);
    else flat.push(a);
  }
  if (flat.length === 0) return FALSE;
  if (flat.length === 1) return flat[0]!;
  return { kind: 'or', args: flat };
}

export function implies(a: Formula, b: Formula): Formula {
  return or(not(a), b);
}

/** Rebuild bottom-up, mapping each atom's expression. */
export function mapAtoms(f: Formula, fn: (rel: Relation, expr: Linear) => Formula): Formula {
  switch (f.kind) {
    case 'true':
    case 'false':
      return f;
    case 'atom': return fn(f.rel, f.expr);
    case 'not': return not(mapAtoms(f.arg, fn));
    case 'and': return and(...f.args.map((a) => mapAtoms(a, fn)));
    case 'or': return or(...f.args.map((a) => mapAtoms(a, fn)));
  }
}

export function substitute(f: Formula, subst: ReadonlyMap<string, Linear>): Formula {
  return mapAtoms(f, (rel, e) => {
    const s = L.substitute(e, subst);
    return rel === '>=' ? geqZero(s) : eqZero(s);
  });
}

export function variablesOf(f: Formula, into: Set<string> = new Set()): Set<string> {
  switch (f.kind) {
    case 'atom':
      for (const v of f.expr.coeffs.keys()) into.add(v);
      break;
    case 'not':
      variablesOf(f.arg, into);
      break;
    case 'and':
    case 'or':
      for (const a of f.args) variablesOf(a, into);
      break;
    default:
      break;
  }
  return into;
}

export function evaluate(f: Formula, env: (v: string) => bigint): boolean {
  switch (f.kind) {
    case 'true': return true;
    case 'false': return false;
    case 'atom': {
      const v = L.evaluate(f.expr, env);
      return f.rel === '>=' ? v >= 0n : v === 0n;
    }
    case 'not': return !evaluate(f.arg, env);
    case 'and': return f.args.every((a) => evaluate(a, env));
    case 'or': return f.args.some((a) => evaluate(a, env));
  }
}

/**
 * Negation normal form over the integers: negations pushed to atoms and removed
 * (`!(e >= 0)` is `-e - 1 >= 0`; `!(e == 0)` is `e - 1 >= 0 || -e - 1 >= 0`).
 * The result contains only 'true', 'false', atoms, 'and' and 'or'.
 */
export function nnf(f: Formula, negated = false): Formula {
  switch (f.kind) {
    case 'true': return negated ? FALSE : TRUE;
    case 'false': return negated ? TRUE : FALSE;
    case 'atom':
      if (!negated) return f;
      if (f.rel === '>=') return geqZero(L.addConstant(L.negate(f.expr), -1n));
      return or(geqZero(L.addConstant(f.expr, -1n)), geqZero(L.addConstant(L.negate(f.expr), -1n)));
    case 'not': return nnf(f.arg, !negated);
    case 'and': {
      const parts = f.args.map((a) => nnf(a, negated));
      return negated ? or(...parts) : and(...parts);
    }
    case 'or': {
      const parts = f.args.map((a) => nnf(a, negated));
      return negated ? and(...parts) : or(...parts);
    }
  }
}

/** Disjunctive normal form as a list of cubes (conjunctions of atoms); [] is false, [[]] is true.
 * With `maxCubes`, a DNF (or a part of it) of more cubes throws WorkLimitExceeded. */
export function dnf(f: Formula, maxCubes = Infinity): Formula[][] {
  const g = nnf(f);
  const check = (cubes: number): void => {
    if (cubes > maxCubes) throw new WorkLimitExceeded(`a formula has more than ${maxCubes} cases in disjunctive normal form`);
  };
  const go = (h: Formula): Formula[][] => {
    switch (h.kind) {
      case 'true': return [[]];
      case 'false': return [];
      case 'atom': return [[h]];
      case 'or': {
        const cubes = h.args.flatMap(go);
        check(cubes.length);
        return cubes;
      }
      case 'and': {
        let acc: Formula[][] = [[]];
        for (const a of h.args) {
          const cubes = go(a);
          check(acc.length * cubes.length);
          const next: Formula[][] = [];
          for (const left of acc) for (const right of cubes) next.push([...left, ...right]);
          acc = next;
        }
        return acc;
      }
      case 'not': throw new Error('nnf left a negation');
    }
  };
  return go(g);
}

/** C syntax, e.g. `x + 2 <= y && !(z == 0)`: an atom `e >= 0` prints as `positive-part >= negative-part`. */
export function toC(f: Formula, name: (v: string) => string = (v) => v): string {
  const atomC = (rel: Relation, e: Linear): string => {
    const pos = L.fromTerms([...e.coeffs].filter(([, k]) => k > 0n));
    const neg = L.fromTerms([...e.coeffs].filter(([, k]) => k < 0n).map(([v, k]) => [v, -k] as [string, bigint]));
    const c = e.constant;
    const k = (x: bigint) => L.constant(x);
    // Variables on one side where possible: `x + y >= 3`, `y <= -1`, `x - y == 0` as `x == y`.
    if (L.isConstant(neg)) return `${L.toC(pos, name)} ${rel} ${L.toC(k(-c), name)}`;
    // `x < 0` reads better than `x <= -1` (the same over the integers).
    if (L.isConstant(pos) && rel === '>=' && c === -1n) return `${L.toC(neg, name)} < 0`;
    if (L.isConstant(pos)) return `${L.toC(neg, name)} ${rel === '>=' ? '<=' : '=='} ${L.toC(k(c), name)}`;
    if (c < 0n) return `${L.toC(pos, name)} ${rel} ${L.toC(L.addConstant(neg, -c), name)}`;
    return `${L.toC(L.addConstant(pos, c), name)} ${rel} ${L.toC(neg, name)}`;
  };
  const go = (h: Formula, parent: 'and' | 'or' | 'not' | 'top'): string => {
    switch (h.kind) {
      case 'true': return '1';
      case 'false': return '0';
      case 'atom': return atomC(h.rel, h.expr);
      case 'not': return `!(${go(h.arg, 'not')})`;
      case 'and': {
        const s = h.args.map((a) => go(a, 'and')).join(' && ');
        return parent === 'top' || parent === 'and' ? s : `(${s})`;
      }
      case 'or': {
        const s = h.args.map((a) => go(a, 'or')).join(' || ');
        return parent === 'top' || parent === 'or' ? s : `(${s})`;
      }
    }
  };
  return go(f, 'top');
}
