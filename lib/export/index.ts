// `farkas verify --emit KIND`: the verification problem in a standard format instead of solving it.
//  - chc:    Horn clauses (SMT-LIB, HORN logic; chc.ts)
//  - smt:    one schedule step's bilinear system after Farkas' lemma (SMT-LIB, QF_NIA; smt.ts)
//  - dimacs: that system bit-blasted to CNF, exactly as handed to the SAT solver (without the extra
//            clauses the engine derives from sampled runs, which only prune)
import type { Program } from '../ir/cfg.js';
import { InputError } from '../diagnostics.js';
import { stepSystem, type StepSystem } from '../engines/constraint/step-system.js';
import { loadSchedule, type Schedule } from '../constraints/schedule.js';
import { encodeUnknowns } from '../encode/system-encoder.js';
import { toDimacs } from '../sat/dimacs.js';
import { AnalysisUnsupported, prepareAnalysis, type PreparedAnalysis } from '../problem/prepare.js';
import { PathExplosionError, type CutsetStrategy } from '../vc/cutset.js';
import { chcOf } from './chc.js';
import { systemToSmt } from './smt.js';

export const EMIT_KINDS = ['chc', 'smt', 'dimacs'] as const;
export type EmitKind = (typeof EMIT_KINDS)[number];

export interface ExportOptions {
  readonly function?: string;
  /** Cut-set of the clauses/system (CHC default 'headers', the others the engine's default 'paths'). */
  readonly cutset?: CutsetStrategy;
  readonly schedule?: string | Schedule;
  /** 1-based schedule step for smt/dimacs (default 1). */
  readonly step?: number;
}

export function exportProblem(program: Program, kind: EmitKind, options: ExportOptions = {}): string {
  if (kind === 'chc') return chcOf(prepared(program, options.function, options.cutset ?? 'headers', `--emit ${kind}`));
  const { prepared: analysis, step, system, index, schedule } = scheduleStep(program, options, `--emit ${kind}`);
  const what = `${analysis.program.file}, function ${analysis.function}, schedule ${schedule.name} step ${index + 1}: template ${step.shape.disjuncts}x${step.shape.conjuncts}, widths ${step.widths.coefficient}/${step.widths.constant}/${step.widths.multiplier}`;
  if (kind === 'smt') return systemToSmt(system, step.widths, what);
  const encoder = encodeUnknowns(system.unknowns, step.widths);
  for (const c of system.constraints) encoder.assertConstraint(c);
  return `c farkas: ${what}\n` + toDimacs(encoder.builder.toCnf());
}

/** The function prepared on a cut-set; what the engine cannot prepare (recursion, too many paths)
 * cannot be shown or exported either: an input error that `what` (the option or command) names. */
function prepared(program: Program, fn: string | undefined, cutset: CutsetStrategy, what: string): PreparedAnalysis {
  try {
    return prepareAnalysis(program, fn, cutset);
  } catch (e) {
    if (e instanceof AnalysisUnsupported || e instanceof PathExplosionError) throw new InputError('unsupported', `${what}: ${e.message} (one procedure's system only: farkas verify summarises recursive procedures)`, null);
    throw e;
  }
}

/** One schedule step's system as verify builds it (constants widened to the program's:
 * step-system.ts), for `--emit smt|dimacs` and `farkas constraints`; a step the schedule does not
 * have is an input error. */
export function scheduleStep(program: Program, options: ExportOptions, what: string): StepSystem & { readonly prepared: PreparedAnalysis; readonly index: number; readonly schedule: Schedule } {
  const analysis = prepared(program, options.function, options.cutset ?? 'paths', what);
  const schedule = typeof options.schedule === 'object' ? options.schedule : loadSchedule(options.schedule);
  const index = (options.step ?? 1) - 1;
  const scheduled = schedule.steps[index];
  if (!scheduled) throw new InputError('error', `--step ${index + 1}: schedule '${schedule.name}' has ${schedule.steps.length} steps, not ${index + 1} (--step must be from 1 to ${schedule.steps.length})`, null);
  return { ...stepSystem(analysis, scheduled), prepared: analysis, index, schedule };
}
