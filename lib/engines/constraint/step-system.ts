// One schedule step's constraint system for a prepared problem: the step with its template constants
// widened to the program's own constants, a template per unknown cut-point, and the bilinear system
// Farkas' lemma leaves over their unknowns. verify solves it, `farkas constraints` prints it and
// `verify --emit smt|dimacs` exports it: built here once, so the three always agree.
import type { Formula } from '../../ir/formula.js';
import type { Template } from '../../constraints/template.js';
import type { ScheduleStep } from '../../constraints/schedule.js';
import type { ConstraintSystem } from '../../constraints/system.js';
import { buildFarkasSystem } from '../../constraints/farkas.js';
import { constantBitsNeeded, templatesFor, type PreparedAnalysis } from '../../problem/prepare.js';
import type { Deadline } from '../../limits.js';
import type { FixedVariables } from '../../observe/equalities.js';

export interface StepSystem {
  /** The schedule step as solved: its constant width at least what the program's constants need. */
  readonly step: ScheduleStep;
  readonly templates: ReadonlyMap<number, Template>;
  readonly system: ConstraintSystem;
  /** Farkas' lemma applications (premise cube × conclusion clause) made. */
  readonly applications: number;
}

export interface StepSystemOptions {
  /** Known conjuncts of the invariants (pins, hull equalities): the invariant is fact ∧ template. */
  readonly facts?: ReadonlyMap<number, Formula>;
  /** The variables the facts' equalities fix at a cut-point (equalities.ts, fixedVariables): the
   * template there has no coefficients for them, since fact ∧ a row over all variables is fact ∧ a
   * row over the others (with other, possibly larger, coefficients: so the attempt without the facts
   * stays the complete one), and where the cut-point is left those with integer values are replaced
   * by them (farkas.ts). */
  readonly fixed?: ReadonlyMap<number, FixedVariables>;
  /** The user's deadline: building stops with DeadlineExceeded past it. */
  readonly deadline?: Deadline;
}

/** Template constants are widened to fit the program's own constants (bounds like 1000000). */
export function widenedStep(prepared: PreparedAnalysis, step: ScheduleStep): ScheduleStep {
  return { ...step, widths: { ...step.widths, constant: Math.max(step.widths.constant, constantBitsNeeded(prepared)) } };
}

export function stepSystem(prepared: PreparedAnalysis, scheduled: ScheduleStep, options: StepSystemOptions = {}): StepSystem {
  const step = widenedStep(prepared, scheduled);
  const templates = templatesFor(prepared, step.shape, options.fixed && new Map([...options.fixed].map(([c, f]) => [c, f.fixed])));
  const { system, applications } = buildFarkasSystem({
    vcs: prepared.vcs,
    templates,
    known: new Map([[prepared.cut.proc.entry, prepared.precondition]]),
    ...(options.facts ? { strengthening: options.facts } : {}),
    ...(options.fixed ? { eliminations: new Map([...options.fixed].map(([c, f]) => [c, f.values])) } : {}),
    ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
  });
  return { step, templates, system, applications };
}
