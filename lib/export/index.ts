// `farkas verify --emit KIND`: the verification problem in a standard format instead of solving it.
//  - chc:    Horn clauses (SMT-LIB, HORN logic; chc.ts)
//  - smt:    one schedule step's bilinear system after Farkas' lemma (SMT-LIB, QF_NIA; smt.ts)
//  - dimacs: that system bit-blasted to CNF, exactly as handed to the SAT solver (without the extra
//            clauses the engine derives from sampled runs, which only prune)
import type { Program } from '../ir/cfg.js';
import { InputError } from '../diagnostics.js';
import { stepSystem } from '../engines/constraint/step-system.js';
import { loadSchedule, type Schedule } from '../constraints/schedule.js';
import { encodeUnknowns } from '../encode/system-encoder.js';
import { toDimacs } from '../sat/dimacs.js';
import { AnalysisUnsupported, prepareAnalysis } from '../problem/prepare.js';
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
  try {
    return exportPrepared(program, kind, options);
  } catch (e) {
    // What the engine cannot prepare (recursion, too many paths) cannot be exported either.
    if (e instanceof AnalysisUnsupported || e instanceof PathExplosionError) throw new InputError('unsupported', `--emit ${kind}: ${e.message}`, null);
    throw e;
  }
}

function exportPrepared(program: Program, kind: EmitKind, options: ExportOptions): string {
  if (kind === 'chc') return chcOf(prepareAnalysis(program, options.function, options.cutset ?? 'headers'));
  const prepared = prepareAnalysis(program, options.function, options.cutset ?? 'paths');
  const schedule = typeof options.schedule === 'object' ? options.schedule : loadSchedule(options.schedule);
  const index = (options.step ?? 1) - 1;
  const scheduled = schedule.steps[index];
  if (!scheduled) throw new InputError('error', `schedule '${schedule.name}' has ${schedule.steps.length} steps, not ${index + 1}`, null);
  const { step, system } = stepSystem(prepared, scheduled);
  const what = `${prepared.program.file}, function ${prepared.function}, schedule ${schedule.name} step ${index + 1}: template ${step.shape.disjuncts}x${step.shape.conjuncts}, widths ${step.widths.coefficient}/${step.widths.constant}/${step.widths.multiplier}`;
  if (kind === 'smt') return systemToSmt(system, step.widths, what);
  const encoder = encodeUnknowns(system.unknowns, step.widths);
  for (const c of system.constraints) encoder.assertConstraint(c);
  return `c farkas: ${what}\n` + toDimacs(encoder.builder.toCnf());
}
