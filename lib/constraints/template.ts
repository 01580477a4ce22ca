// Templates for unknown invariants (paper 004, Section 4, step 1): at a cut-point π a DNF of
// `disjuncts` × `conjuncts` linear inequalities Σ a·v + b >= 0 over the variables live at π, with
// unknown integer coefficients a and constants b. Instantiated under a pending substitution, an atom
// becomes a parametric linear expression: linear in the program variables, with coefficients that
// are linear expressions over the unknowns.
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import * as F from '../ir/formula.js';
import { normaliseInequality } from '../ir/simplify.js';
import type { Formula } from '../ir/formula.js';
import { MAX_DNF_CUBES } from '../limits.js';
import { polyFromTerms, type PolyConstraint, type Term } from './system.js';

export interface TemplateShape {
  readonly disjuncts: number;
  readonly conjuncts: number;
}

/** Σ_w coeffs[w]·w + constant, where each coefficient is a linear expression over unknowns. */
export interface ParamLinear {
  readonly coeffs: ReadonlyMap<string, Linear>;
  readonly constant: Linear;
}

/** A parametric atom `expr >= 0` (templates and normalised known constraints alike). */
export type ParamAtom = ParamLinear;

export interface Template {
  readonly cutpoint: number;
  readonly variables: readonly string[];
  readonly shape: TemplateShape;
  /** unknown names: coefficient[d][c][i] for variables[i], constant[d][c] */
  readonly coefficient: readonly (readonly (readonly string[])[])[];
  readonly constant: readonly (readonly string[])[];
}

export function makeTemplate(cutpoint: number, variables: readonly string[], shape: TemplateShape, prefix = 'I'): Template {
  return { ...makeNamedTemplate(`${prefix}${cutpoint}`, variables, shape), cutpoint };
}

/** A template whose unknowns are named `NAME.d.c.v` / `NAME.d.c.const` (summaries use cut-point -1). */
export function makeNamedTemplate(name: string, variables: readonly string[], shape: TemplateShape): Template {
  const coefficient: string[][][] = [];
  const constant: string[][] = [];
  for (let d = 0; d < shape.disjuncts; d++) {
    coefficient.push([]);
    constant.push([]);
    for (let c = 0; c < shape.conjuncts; c++) {
      coefficient[d]!.push(variables.map((v) => `${name}.${d}.${c}.${v}`));
      constant[d]!.push(`${name}.${d}.${c}.const`);
    }
  }
  return { cutpoint: -1, variables, shape, coefficient, constant };
}

export function templateUnknowns(t: Template): { coefficients: string[]; constants: string[] } {
  return { coefficients: t.coefficient.flat(2), constants: t.constant.flat() };
}

/** The template's disjuncts, each a list of atoms, under the substitution σ. */
export function instantiate(t: Template, subst: ReadonlyMap<string, Linear>): ParamAtom[][] {
  return t.coefficient.map((conj, d) =>
    conj.map((coeffNames, c) => {
      const coeffs = new Map<string, Linear>();
      let constant: Linear = L.variable(t.constant[d]![c]!);
      t.variables.forEach((v, i) => {
        const image = subst.get(v) ?? L.variable(v);
        const a = coeffNames[i]!;
        for (const [w, k] of image.coeffs) coeffs.set(w, L.add(coeffs.get(w) ?? L.constant(0n), L.variable(a, k)));
        if (image.constant !== 0n) constant = L.add(constant, L.variable(a, image.constant));
      });
      return { coeffs, constant };
    }),
  );
}

/** A known atom `e >= 0` as a parametric atom (constant coefficients), tightened over the
 * integers: divided by its coefficients' gcd g, the constant rounded down (2x - 101 >= 0 is
 * x - 51 >= 0). Equivalent over the integers, and each multiplier then needs g times less. */
export function knownAtom(expr: Linear): ParamAtom {
  const e = normaliseInequality(expr);
  return {
    coeffs: new Map([...e.coeffs].map(([w, k]) => [w, L.constant(k)] as [string, Linear])),
    constant: L.constant(e.constant),
  };
}

/** -e - 1 >= 0: the integer negation of `e >= 0`. */
export function negateAtom(a: ParamAtom): ParamAtom {
  return {
    coeffs: new Map([...a.coeffs].map(([w, k]) => [w, L.negate(k)] as [string, Linear])),
    constant: L.addConstant(L.negate(a.constant), -1n),
  };
}

/** Known formula → DNF over `>=` atoms (an equality becomes two inequalities). */
export function knownDnf(f: Formula): ParamAtom[][] {
  return F.dnf(f, MAX_DNF_CUBES).map((cube) => cube.flatMap((atom) => geqAtoms(atom)));
}

/** Known formula → CNF over `>=` atoms. */
export function knownCnf(f: Formula): ParamAtom[][] {
  // CNF(f) = negation of DNF(¬f), clause by clause.
  return F.dnf(F.not(f), MAX_DNF_CUBES).map((cube) => cube.flatMap((atom) => negatedAtomDisjunction(atom)));
}

function geqAtoms(atom: Formula): ParamAtom[] {
  if (atom.kind !== 'atom') throw new Error(`internal: expected an atom, got ${atom.kind}`);
  if (atom.rel === '>=') return [knownAtom(atom.expr)];
  return [knownAtom(atom.expr), knownAtom(L.negate(atom.expr))];
}

/** The disjunction of `>=` atoms equivalent to ¬atom over the integers. */
function negatedAtomDisjunction(atom: Formula): ParamAtom[] {
  if (atom.kind !== 'atom') throw new Error(`internal: expected an atom, got ${atom.kind}`);
  const e = atom.expr;
  if (atom.rel === '>=') return [knownAtom(L.addConstant(L.negate(e), -1n))];
  return [knownAtom(L.addConstant(e, -1n)), knownAtom(L.addConstant(L.negate(e), -1n))];
}

/** Invariant from solved unknowns: the DNF with its values plugged in (not yet simplified). */
export function decodeTemplate(t: Template, value: (unknown: string) => bigint): Formula {
  return F.or(
    ...t.coefficient.map((conj, d) =>
      F.and(
        ...conj.map((names, c) =>
          F.geqZero(L.fromTerms(t.variables.map((v, i) => [v, value(names[i]!)] as [string, bigint]), value(t.constant[d]![c]!))),
        ),
      ),
    ),
  );
}

/** "The template holds at this concrete state": per disjunct, one linear constraint per conjunct. */
export function templateAtState(t: Template, state: ReadonlyMap<string, bigint>): PolyConstraint[][] {
  return t.coefficient.map((conj, d) =>
    conj.map((names, c) => {
      const terms: Term[] = [{ vars: [t.constant[d]![c]!], coeff: 1n }];
      t.variables.forEach((v, i) => terms.push({ vars: [names[i]!], coeff: state.get(v) ?? 0n }));
      return { poly: polyFromTerms(terms), rel: '>=' as const, origin: `template at a reached state of cut-point ${t.cutpoint}` };
    }),
  );
}
