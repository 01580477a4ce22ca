// Common driver: builds the engine model, runs one engine's search, and turns every stop (timeout,
// abort, node budget, unsupported input, solver limit) into "unknown" with the reason.
import { EngineContext, SearchStopped } from './context.js';
import { buildModel, Unsupported, type EngineModel } from './model.js';
import { unknownResult } from './result.js';
import type { EngineOptions, EngineResult, InterpolationEngineName } from '../types.js';
import type { Problem } from '../../problem/prepare.js';
import type { Settings } from '../../settings.js';
import { withOverflowNote } from '../../observe/overflow-probe.js';

export type Search = (model: EngineModel, ctx: EngineContext) => Promise<EngineResult>;

export async function runEngine(engine: InterpolationEngineName, search: Search, problem: Problem, settings: Settings, options: EngineOptions = {}): Promise<EngineResult> {
  const ctx = new EngineContext(engine, settings.deadline, options);
  const { program, function: fn } = problem;
  let model: EngineModel;
  try {
    model = buildModel(problem);
  } catch (e) {
    if (e instanceof Unsupported) return unknownResult(ctx, fn, e.message);
    throw e;
  }
  try {
    return withOverflowNote(program, await search(model, ctx));
  } catch (e) {
    if (e instanceof SearchStopped) return unknownResult(ctx, fn, e.message);
    throw e;
  }
}
