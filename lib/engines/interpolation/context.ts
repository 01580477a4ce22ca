// Per-run bookkeeping shared by the engines: the deadline and abort signal, statistics, and integer
// satisfiability / entailment through z3 (with cheap syntactic shortcuts first).
import type { CheckLimits } from '../../certify/lia-solver.js';
import { ENGINE_MAX_NODES, ENGINE_QUERY_WORK, type Deadline } from '../../limits.js';
import * as F from '../../ir/formula.js';
import type { Formula } from '../../ir/formula.js';
import { isSatisfiable } from '../../certify/lia.js';
import { atomKey, cubeToFormula, negateAtom, normalizeCube, type Atom } from '../../rational/constraints.js';
import { farkasCertificate } from '../../rational/farkas-certificate.js';
import type { EngineOptions, InterpolationEngineName, InterpolationEngineStats } from '../types.js';

/** Thrown inside an engine to stop the search; becomes "unknown" with its message. */
export class SearchStopped extends Error {}

export class EngineContext {
  readonly started = Date.now();
  readonly deadline: Deadline;
  readonly maxNodes: number;
  readonly stats: InterpolationEngineStats;

  constructor(engine: InterpolationEngineName, deadline: Deadline, options: EngineOptions) {
    this.deadline = deadline;
    this.maxNodes = options.maxNodes ?? ENGINE_MAX_NODES;
    this.stats = { engine, nodes: 0, refinements: 0, restarts: 0, covered: 0, solverCalls: 0 };
  }

  /** Stops the search on timeout, abort or node budget. */
  checkBudget(): void {
    if (this.deadline.aborted) throw new SearchStopped('aborted');
    if (this.deadline.passed) throw new SearchStopped(this.deadline.timeoutReason());
    if (this.stats.nodes > this.maxNodes) throw new SearchStopped(`node limit (${this.maxNodes}) reached`);
  }

  /** Limits of one z3 query: its work (the same on any machine) and the user's deadline. */
  queryLimits(): CheckLimits {
    return { work: ENGINE_QUERY_WORK, ...this.deadline.timeLimit };
  }

  /** Satisfiable over the integers; 'unknown' answers are passed on to the caller to decide soundly. */
  async satisfiable(f: Formula): Promise<'sat' | 'unsat' | 'unknown'> {
    if (f.kind === 'false') return 'unsat';
    if (f.kind === 'true') return 'sat';
    this.checkBudget();
    this.stats.solverCalls++;
    return (await isSatisfiable(f, this.queryLimits())).status;
  }

  /**
   * a ⇒ b, decided without z3: syntactically, else atom by atom with Farkas certificates (an
   * implication over the reals, of integer-normalised atoms, holds over the integers). False means
   * "not shown", the sound direction for coverage and subsumption; `entailsExactly` asks z3.
   */
  entails(a: readonly Atom[] | 'false', b: readonly Atom[] | 'false'): boolean {
    if (a === 'false') return true;
    this.checkBudget();
    return realEntails(a, b);
  }

  /** a ⇒ b over the integers (z3 after the cheap test); false when z3 cannot tell. */
  async entailsExactly(a: readonly Atom[] | 'false', b: readonly Atom[] | 'false'): Promise<boolean> {
    if (this.entails(a, b)) return true;
    if (a === 'false') return true;
    if (b === 'false') return (await this.satisfiable(cubeToFormula(a))) === 'unsat';
    return (await this.satisfiable(F.and(cubeToFormula(a), F.not(cubeToFormula(b))))) === 'unsat';
  }
}

/** a ⇒ b shown by Farkas certificates of a ∧ ¬β for every atom β of b (exact; may miss integer-only entailments). */
export function realEntails(a: readonly Atom[], b: readonly Atom[] | 'false'): boolean {
  const premise = normalizeCube(a);
  if (premise === null) return true;
  if (b === 'false') return farkasCertificate(premise) !== null;
  const have = new Set(premise.map(atomKey));
  for (const beta of b) {
    if (have.has(atomKey(beta))) continue;
    for (const cube of negateAtom(beta)) {
      const atoms = normalizeCube([...premise, ...cube]);
      if (atoms !== null && farkasCertificate(atoms) === null) return false;
    }
  }
  return true;
}
