// A schedule lane of the portfolio (or, with one job, the whole sequential search): the registry's
// constraint engine, its answer reported as `farkas verify` reports it.
import type { Program } from '../ir/cfg.js';
import type { VerifyResult } from '../problem/result.js';
import { constraintEngine, type EngineOptions } from '../engines/index.js';

export async function runScheduleLane(program: Program, options: EngineOptions): Promise<VerifyResult> {
  // Without the engine statistics: the portfolio's output names an engine (`engine`, `engineStats`)
  // only when an interpolation engine won; a lane's answer is verify's own.
  const { engineStats: _engineStats, ...result } = await constraintEngine.run(program, options);
  return result;
}
