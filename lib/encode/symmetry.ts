// Symmetry breaking for template unknowns (issue 23, item 3). The conjuncts of a template disjunct
// can be permuted, and so can the disjuncts of a template, without changing the invariant the
// template stands for; the Farkas system treats every position alike (the conclusion's CNF picks one
// atom of each disjunct, a premise is split per disjunct, runs constrain "some disjunct holds"). So
// each solution has a permuted twin for each of the k!^d · d! orders, and a SAT solver proving a step
// unsatisfiable refutes every one of them. Requiring the positions in lexicographic order of their
// unknowns' values keeps exactly one solution per class (sort the conjuncts of each disjunct, then the
// disjuncts) and removes no invariant. A position with a fixed (pinned) unknown is not interchangeable
// with the others and is left out.
import type { Template } from '../constraints/template.js';
import type { BitVec } from './bitvector.js';
import type { CnfBuilder, Lit } from './cnf-builder.js';
import type { SystemEncoder } from './system-encoder.js';

/** Asserts the lexicographic order of a template's conjuncts (within each disjunct) and disjuncts;
 * returns how many orderings were asserted. */
export function orderTemplatePositions(encoder: SystemEncoder, template: Template): number {
  const b = encoder.builder;
  const atomBits = (d: number, c: number): readonly Lit[] | null => {
    const names = [template.constant[d]![c]!, ...template.coefficient[d]![c]!];
    if (names.some((n) => encoder.isPinned(n))) return null;
    return names.flatMap((n) => orderBits(encoder.vector(n)));
  };
  let asserted = 0;
  const disjuncts: (readonly Lit[] | null)[] = [];
  for (let d = 0; d < template.shape.disjuncts; d++) {
    const atoms = Array.from({ length: template.shape.conjuncts }, (_, c) => atomBits(d, c));
    for (let c = 0; c + 1 < atoms.length; c++) {
      const [x, y] = [atoms[c]!, atoms[c + 1]!];
      if (x === null || y === null || x.length !== y.length) continue;
      b.assertLit(lexLeq(b, x, y));
      asserted++;
    }
    disjuncts.push(atoms.some((a) => a === null) ? null : atoms.flat() as Lit[]);
  }
  for (let d = 0; d + 1 < disjuncts.length; d++) {
    const [x, y] = [disjuncts[d]!, disjuncts[d + 1]!];
    if (x === null || y === null || x.length !== y.length) continue;
    b.assertLit(lexLeq(b, x, y));
    asserted++;
  }
  return asserted;
}

/** The bits of a two's-complement vector, most significant first, sign bit flipped: unsigned order
 * of these is the signed order of the values (offset binary). */
export function orderBits(v: BitVec): Lit[] {
  const bits = [...v.bits].reverse();
  bits[0] = -bits[0]!;
  return bits;
}

/** x <= y as unsigned numbers, most significant bit first (equal lengths). */
export function lexLeq(b: CnfBuilder, x: readonly Lit[], y: readonly Lit[]): Lit {
  if (x.length !== y.length) throw new Error(`lexLeq: ${x.length} bits against ${y.length}`);
  // From the least significant bit up: leq_i = (x_i < y_i) ∨ (x_i = y_i ∧ leq_{i+1}).
  let leq: Lit = b.TRUE;
  for (let i = x.length - 1; i >= 0; i--) {
    const less = b.and(-x[i]!, y[i]!);
    leq = b.or(less, b.and(b.iff(x[i]!, y[i]!), leq));
  }
  return leq;
}
