// Text and JSON of the ranking functions of a termination proof, shared by verify --property
// termination and nonterm.
import type { RankedLoop, RankedProcedure } from '../../lib/index.js';

/** The ranking functions of a termination proof, one line each (verify --property termination, nonterm). */
export function rankingLines(r: { readonly ranked?: readonly RankedLoop[]; readonly rankedRecursion?: readonly RankedProcedure[] }): string[] {
  return [
    ...(r.ranked ?? []).map((l) =>
      l.phases
        ? `  loop at line ${l.line}: multiphase ranking function ${l.ranking} (in each phase its function is not negative at an iteration's start and falls by at least 1 while the run stays in the phase; a run never goes back to an earlier phase)`
        : `  loop at line ${l.line}: ranking function ${l.ranking} (not negative at each iteration's start, falls by at least 1 in each)`),
    ...(r.rankedRecursion ?? []).map((p) => `  recursion of ${p.procedure} (line ${p.line}): ranking function ${p.ranking} (not negative at each recursive call, at least 1 smaller in the call)`),
  ];
}

export function rankingJson(r: { readonly ranked?: readonly RankedLoop[]; readonly rankedRecursion?: readonly RankedProcedure[] }): object {
  return {
    ...(r.ranked ? { rankingFunctions: r.ranked.map((l) => ({ line: l.line, ranking: l.ranking, ...(l.phases ? { phases: l.phases } : {}), invariants: l.invariants })) } : {}),
    ...(r.rankedRecursion ? { recursionRankingFunctions: r.rankedRecursion.map((p) => ({ procedure: p.procedure, line: p.line, ranking: p.ranking })) } : {}),
  };
}
