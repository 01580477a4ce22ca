// Bit-blasts a bilinear ConstraintSystem: each unknown becomes a bit-vector of its kind's width, each
// polynomial constraint one exact multi-operand adder whose sign bit (>= 0) or all-zero test (== 0)
// is the constraint's literal. Nothing is added that would change the solution set within the widths.
//
// Two levels of API:
// - encodeSystem: assert every constraint and hand back CNF plus a model decoder;
// - SystemEncoder (from encodeUnknowns): unknown vectors and one literal per constraint, for callers
//   that combine constraints with and/or/not before asserting (weakest-precondition search).

import type { ConstraintSystem, PolyConstraint, Polynomial, Unknown, Widths } from '../constraints/system.js';
import type { Cnf } from '../sat/types.js';
import { decodeVec, eqZero, geqZero, signedVar, unsignedVar, WeightedSum, type BitVec, constantVec } from './bitvector.js';
import { CnfBuilder, type Lit } from './cnf-builder.js';

/** Per-unknown deviations from the kind widths: another width, or a fixed value (no variables). */
export interface UnknownOverride {
  readonly width?: number;
  readonly value?: bigint;
}

export interface EncodeOptions {
  /** Encode into an existing builder (to share variables and gates with other circuits). */
  readonly builder?: CnfBuilder;
  readonly overrides?: ReadonlyMap<string, UnknownOverride>;
}

export interface EncodeStats {
  readonly vars: number;
  readonly clauses: number;
}

export interface EncodedSystem {
  readonly cnf: Cnf;
  /** The value of every unknown of the system under a model of `cnf` (model[v] for variable v). */
  decode(model: readonly boolean[]): Map<string, bigint>;
  readonly stats: EncodeStats;
  readonly encoder: SystemEncoder;
}

/** The range an unknown ranges over at a given width (see Widths in constraints/system.ts). */
export function unknownRange(width: number, nonNegative: boolean): readonly [bigint, bigint] {
  if (width === 0) return [0n, 0n];
  if (nonNegative) return [0n, (1n << BigInt(width)) - 1n];
  const half = 1n << BigInt(width - 1);
  return [-half, half - 1n];
}

export function widthFor(unknown: Unknown, widths: Widths, override?: UnknownOverride): number {
  return override?.width ?? widths[unknown.kind];
}

export class SystemEncoder {
  private readonly vectors = new Map<string, BitVec>();
  private readonly pinned = new Map<string, bigint>();

  constructor(
    readonly builder: CnfBuilder,
    unknowns: readonly Unknown[],
    widths: Widths,
    overrides: ReadonlyMap<string, UnknownOverride> = new Map(),
  ) {
    for (const name of overrides.keys()) {
      if (!unknowns.some((u) => u.name === name)) throw new Error(`override for undeclared unknown '${name}'`);
    }
    for (const u of unknowns) {
      if (this.vectors.has(u.name)) throw new Error(`unknown '${u.name}' declared twice`);
      const override = overrides.get(u.name);
      if (override?.value !== undefined) {
        this.pinned.set(u.name, override.value);
        this.vectors.set(u.name, constantVec(builder, override.value));
        continue;
      }
      const width = widthFor(u, widths, override);
      this.vectors.set(u.name, u.nonNegative ? unsignedVar(builder, width) : signedVar(builder, width));
    }
  }

  /** The bit-vector of an unknown. */
  vector(name: string): BitVec {
    const v = this.vectors.get(name);
    if (v === undefined) throw new Error(`constraint mentions undeclared unknown '${name}'`);
    return v;
  }

  /** Whether the unknown has a fixed value (an override), not variables of its own. */
  isPinned(name: string): boolean {
    return this.pinned.has(name);
  }

  /** The exact value of a polynomial as a bit-vector. */
  polynomial(p: Polynomial): BitVec {
    const s = new WeightedSum(this.builder);
    for (const t of p.terms.values()) {
      if (t.vars.length === 0) s.addConstant(t.coeff);
      else if (t.vars.length === 1) s.addScaled(this.vector(t.vars[0]!), t.coeff);
      else if (t.vars.length === 2) s.addProduct(this.vector(t.vars[0]!), this.vector(t.vars[1]!), t.coeff);
      else throw new Error(`monomial of degree ${t.vars.length} in a bilinear system`);
    }
    return s.toVec();
  }

  /** A literal equivalent to the constraint (may be negated or combined before asserting). */
  constraintLiteral(c: PolyConstraint): Lit {
    const value = this.polynomial(c.poly);
    return c.rel === '==' ? eqZero(this.builder, value) : geqZero(this.builder, value);
  }

  /** Asserts a constraint; an equation asserts each bit zero directly rather than through an AND gate. */
  assertConstraint(c: PolyConstraint): void {
    const value = this.polynomial(c.poly);
    if (c.rel === '>=') {
      this.builder.assertLit(geqZero(this.builder, value));
    } else if (value.lo > 0n || value.hi < 0n) {
      this.builder.assertLit(this.builder.FALSE);
    } else {
      for (const bit of value.bits) this.builder.assertLit(-bit);
    }
  }

  decode(model: readonly boolean[]): Map<string, bigint> {
    const out = new Map<string, bigint>();
    for (const [name, vec] of this.vectors) out.set(name, this.pinned.get(name) ?? decodeVec(this.builder, vec, model));
    return out;
  }

  get stats(): EncodeStats {
    return { vars: this.builder.numVars, clauses: this.builder.numClauses };
  }
}

/** Creates the unknowns' bit-vectors without asserting any constraint. */
export function encodeUnknowns(
  unknowns: readonly Unknown[],
  widths: Widths,
  options: EncodeOptions = {},
): SystemEncoder {
  return new SystemEncoder(options.builder ?? new CnfBuilder(), unknowns, widths, options.overrides);
}

/** Bit-blasts the whole system with every constraint asserted. */
export function encodeSystem(
  system: ConstraintSystem,
  widths: Widths,
  builderOrOptions: CnfBuilder | EncodeOptions = {},
): EncodedSystem {
  const options: EncodeOptions = builderOrOptions instanceof CnfBuilder ? { builder: builderOrOptions } : builderOrOptions;
  const encoder = encodeUnknowns(system.unknowns, widths, options);
  for (const c of system.constraints) encoder.assertConstraint(c);
  return {
    cnf: encoder.builder.toCnf(),
    decode: (model) => encoder.decode(model),
    stats: encoder.stats,
    encoder,
  };
}
