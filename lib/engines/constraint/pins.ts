// Pinned invariants (`verify --pin LINE:EXPR`, the UI's `i` key): formulas the user states at a
// cut-point, used by the search as known conjuncts of the invariant there (like the hull equalities).
// A pin is identified by the source line the engine reports for the cut-point: that survives re-runs
// of the same file, whereas location ids do not. The path cut-set may put several cut-points on one
// line (copies of one location on different paths); a pin holds at each of them.
import * as F from '../../ir/formula.js';
import type { Formula } from '../../ir/formula.js';
import { locationPos, type SourcePos } from '../../ir/cfg.js';
import { AnalysisUnsupported, type PreparedAnalysis, type Problem } from '../../problem/prepare.js';
import { PathExplosionError, type CutsetStrategy } from '../../vc/cutset.js';

/** Where the engine reports a cut-point: a location stands before the statement of its first
 * outgoing edge when it has no position itself. */
export function cutpointPosition(prepared: PreparedAnalysis, loc: number): SourcePos {
  const proc = prepared.cut.proc;
  return locationPos(proc, loc);
}

/** The cut-points with unknown invariants, by reported source line. */
export function cutpointsByLine(prepared: PreparedAnalysis): Map<number, number[]> {
  const byLine = new Map<number, number[]>();
  for (const c of prepared.unknownCutpoints) {
    const line = cutpointPosition(prepared, c).line;
    byLine.set(line, [...(byLine.get(line) ?? []), c]);
  }
  return byLine;
}

export interface PinnedFacts {
  /** The pinned formulas by cut-point. */
  readonly facts: Map<number, Formula>;
  /** Lines of pins with no cut-point. */
  readonly unplaced: readonly number[];
}

/** Places pins (by line) on the cut-points of the prepared procedure. */
export function placePins(prepared: PreparedAnalysis, pins: ReadonlyMap<number, Formula>): PinnedFacts {
  const byLine = cutpointsByLine(prepared);
  const facts = new Map<number, Formula>();
  const unplaced: number[] = [];
  for (const [line, formula] of pins) {
    const cutpoints = byLine.get(line);
    if (!cutpoints) unplaced.push(line);
    for (const c of cutpoints ?? []) facts.set(c, F.and(facts.get(c) ?? F.TRUE, formula));
  }
  return { facts, unplaced: unplaced.sort((a, b) => a - b) };
}

/** Conjoins two fact maps cut-point-wise. */
export function conjoinFacts(a: ReadonlyMap<number, Formula>, b: ReadonlyMap<number, Formula>): Map<number, Formula> {
  const out = new Map(a);
  for (const [c, f] of b) out.set(c, F.and(out.get(c) ?? F.TRUE, f));
  return out;
}

/** "line 7: x <= -5" for reasons and reports. */
export function describePins(pins: ReadonlyMap<number, Formula>): string {
  return [...pins].sort(([a], [b]) => a - b).map(([line, f]) => `line ${line}: ${F.toC(f)}`).join('; ');
}

/**
 * The C variables in scope at the cut-points of `line` (C name → IR variable), for reading a pin
 * written in C: the scope the front end recorded at the nearest loop header before the cut-point (the
 * cut-point itself under `--cutset headers`, the head of its loop under the path cut-set). Null when
 * no cut-point is on that line.
 */
export function scopeAtLine(prepared: PreparedAnalysis, line: number): Record<string, string> | null {
  const cutpoints = cutpointsByLine(prepared).get(line);
  if (!cutpoints) return null;
  const proc = prepared.cut.proc;
  const incoming = new Map<number, number[]>();
  for (const e of proc.edges) incoming.set(e.to, [...(incoming.get(e.to) ?? []), e.from]);
  const scope: Record<string, string> = {};
  for (const c of cutpoints) {
    // Breadth-first backwards: the nearest location that records a scope.
    const seen = new Set([c]);
    let frontier = [c];
    let found: Readonly<Record<string, string>> | undefined;
    while (frontier.length > 0 && !found) {
      found = frontier.map((l) => proc.locations[l]?.scope).find((s) => s !== undefined);
      frontier = frontier.flatMap((l) => (incoming.get(l) ?? []).filter((p) => !seen.has(p) && (seen.add(p), true)));
    }
    // Without a recorded scope (no loop on the way back), the procedure's parameters and the globals.
    const fallback = Object.fromEntries([...prepared.preparedProgram.globals.map((g) => g.name), ...proc.params].map((v) => [v, v]));
    for (const [cName, ir] of Object.entries(found ?? fallback)) if (!(cName in scope)) scope[cName] = ir;
  }
  return scope;
}

/** Where the unknown cut-points of the problem's function stand on the cut-set, as results report
 * them; none when it cannot be prepared (recursion, too many paths: verify says why). */
export function cutpointPositions(problem: Problem, cutset: CutsetStrategy): { readonly line: number; readonly col: number }[] {
  try {
    const prepared = problem.analysis(cutset);
    return prepared.unknownCutpoints.map((loc) => cutpointPosition(prepared, loc));
  } catch (e) {
    if (e instanceof AnalysisUnsupported || e instanceof PathExplosionError) return [];
    throw e;
  }
}
