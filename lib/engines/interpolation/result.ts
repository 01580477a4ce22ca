// Turning an engine's outcome into the shared VerifyResult: invariants are reported only after the
// independent checker (lib/check) has proved them; counterexamples only after the interpreter replayed them.
import { locationPos } from '../../ir/cfg.js';
import * as F from '../../ir/formula.js';
import type { Formula } from '../../ir/formula.js';
import { checkInvariants } from '../../certify/certificate.js';
import { simplifyInvariant } from '../../ir/simplify.js';
import { cubeToFormula } from '../../rational/constraints.js';
import type { Counterexample, InvariantReport } from '../../result.js';
import type { EngineContext } from './context.js';
import type { EngineModel } from './model.js';
import type { EngineResult } from '../types.js';
import { guardSafe } from '../../guard/verify-guard.js';

function base(ctx: EngineContext, fn: string) {
  return {
    function: fn,
    cutset: 'headers' as const,
    schedule: ctx.stats.engine,
    cutpoints: 0,
    verificationConditions: 0,
    invariants: [] as InvariantReport[],
    stats: [],
    engineStats: { ...ctx.stats },
  };
}

export function unknownResult(ctx: EngineContext, fn: string, reason: string, invariants: InvariantReport[] = []): EngineResult {
  return { ...base(ctx, fn), invariants, verdict: 'unknown', reason, certified: false, millis: Date.now() - ctx.started };
}

export function unsafeResult(ctx: EngineContext, fn: string, counterexample: Counterexample): EngineResult {
  return { ...base(ctx, fn), verdict: 'unsafe', certified: true, counterexample, millis: Date.now() - ctx.started };
}

/** Certifies loop-header invariants with the independent checker; "safe" only if it proves them all. */
export async function safeResult(ctx: EngineContext, model: EngineModel, invariants: ReadonlyMap<number, Formula>): Promise<EngineResult> {
  const simplified = new Map([...invariants].map(([l, f]) => [l, simplifyInvariant(f)] as const));
  const reports = reportInvariants(model, simplified);
  const check = await checkInvariants(model.program, model.function, simplified, {
    precondition: cubeToFormula(model.precondition),
    deadline: ctx.deadline,
  });
  if (!check.valid) return unknownResult(ctx, model.function, `certificate rejected: ${check.reason ?? 'an obligation was not proved'}`, reports);
  // The model inlined the calls: the original program's runs must keep to the certified claim too.
  guardSafe(model.original, model.function, { proc: model.proc, original: model.proc.locations.map((l) => l.id) }, simplified);
  return { ...base(ctx, model.function), cutpoints: simplified.size, invariants: reports, verdict: 'safe', certified: true, millis: Date.now() - ctx.started };
}

export function reportInvariants(model: EngineModel, invariants: ReadonlyMap<number, Formula>): InvariantReport[] {
  const proc = model.proc;
  return [...invariants]
    .map(([loc, formula]) => {
      const pos = locationPos(proc, loc);
      return { function: model.function, line: pos.line, col: pos.col, expression: F.toC(formula), location: loc, formula };
    })
    .sort((a, b) => a.line - b.line || a.col - b.col || a.location - b.location);
}
