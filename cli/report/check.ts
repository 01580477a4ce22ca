// Text and JSON renderings of one engine's result (`farkas check`, the rows of `verify --cross-check`):
// verify's, plus the engine's search statistics.
import { CONSTRAINT_ENGINE, type Program, type EngineResult, type EngineStats } from '../../lib/index.js';
import { formatVerify, verifyJson } from './verify.js';

export function checkJson(file: string, r: EngineResult, program?: Program): object {
  return { ...verifyJson(file, r, program), engine: r.engineStats.engine, engineStats: r.engineStats };
}

export function formatCheck(file: string, r: EngineResult, program?: Program): string {
  const s = r.engineStats;
  const text = formatVerify(file, r, program);
  // The interpolation engines have no cut-set of their own (they report at the loop headers): the line would mislead.
  const shown = s.engine === CONSTRAINT_ENGINE ? text : text.replace(/^cut-set: .*\n/m, '');
  return shown.replace(/^time: /m, `engine: ${s.engine}: ${statsText(s)}\ntime: `);
}

function statsText(s: EngineStats): string {
  if (s.engine === CONSTRAINT_ENGINE) return `${s.steps} schedule step${s.steps === 1 ? '' : 's'}, ${s.clauses} clauses, ${s.conflicts} SAT conflicts, ${s.propagations} propagations`;
  return `${s.nodes} nodes, ${s.refinements} refinements, ${s.restarts} restarts, ${s.covered} covered, ${s.solverCalls} z3 queries`;
}
