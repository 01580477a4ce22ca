// A schedule lane of the portfolio (or, with one job, the whole sequential search): the registry's
// constraint engine, its answer reported as `farkas verify` reports it.
import type { Problem } from '../problem/prepare.js';
import type { VerifyResult } from '../result.js';
import type { Settings } from '../settings.js';
import { constraintEngine, type VerifySearch } from '../engines/index.js';

export async function runScheduleLane(problem: Problem, settings: Settings, search: VerifySearch): Promise<VerifyResult> {
  // Without the engine statistics: the portfolio's output names an engine (`engine`, `engineStats`)
  // only when an interpolation engine won; a lane's answer is verify's own.
  const { engineStats: _engineStats, ...result } = await constraintEngine.run(problem, settings, { constraints: search });
  return result;
}
