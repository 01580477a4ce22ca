// The constraint engine behind the common Engine interface: `verify` with the common options
// (function, time bound, abort signal) and its own, and its schedule's work as engine statistics.
import type { Program } from '../../ir/cfg.js';
import type { VerifyResult } from '../../problem/result.js';
import { CONSTRAINT_ENGINE, type ConstraintEngineStats, type EngineOptions, type EngineResult } from '../types.js';
import { verify } from './verify.js';

export async function runConstraintEngine(program: Program, options: EngineOptions = {}): Promise<EngineResult> {
  const result = await verify(program, {
    ...options.constraints,
    ...(options.function !== undefined ? { function: options.function } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.deadline ? { deadline: options.deadline } : {}),
  });
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
