// Text and JSON renderings of one interpolation engine's result: verify's, plus the engine's search
// statistics.
import type { Program, EngineResult } from '../../lib/index.js';
import { formatVerify, verifyJson } from './verify.js';

export function checkJson(file: string, r: EngineResult, program?: Program): object {
  return { ...verifyJson(file, r, program), engine: r.engineStats.engine, engineStats: r.engineStats };
}

export function formatCheck(file: string, r: EngineResult, program?: Program): string {
  const s = r.engineStats;
  const text = formatVerify(file, r, program).replace(/^cut-set: .*\n/m, '');
  return text.replace(/^time: /m, `engine: ${s.engine}: ${s.nodes} nodes, ${s.refinements} refinements, ${s.restarts} restarts, ${s.covered} covered, ${s.solverCalls} z3 queries\ntime: `);
}
