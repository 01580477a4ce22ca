// The constraint engine behind the common Engine interface: `verify` with its own options, and its
// schedule's work as engine statistics.
import type { Problem } from '../../problem/prepare.js';
import type { VerifyResult } from '../../result.js';
import type { Settings } from '../../settings.js';
import { CONSTRAINT_ENGINE, type ConstraintEngineStats, type EngineOptions, type EngineResult } from '../types.js';
import { verify } from './verify.js';

export async function runConstraintEngine(problem: Problem, settings: Settings, options: EngineOptions = {}): Promise<EngineResult> {
  const result = await verify(problem, settings, options.constraints);
  return { ...result, engineStats: constraintStats(result) };
}

function constraintStats(result: VerifyResult): ConstraintEngineStats {
  let clauses = 0;
  let conflicts = 0;
  let propagations = 0;
  for (const step of result.stats) {
    clauses += step.clauses;
    conflicts += step.conflicts ?? 0;
    propagations += step.propagations ?? 0;
  }
  return { engine: CONSTRAINT_ENGINE, steps: result.stats.length, clauses, conflicts, propagations };
}
