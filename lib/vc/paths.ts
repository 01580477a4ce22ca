// Paths(π1, π2): the paths from a cut-point to the next cut-points that pass through no other
// cut-point. A path may also end in a sink (a location without successors other than the exit, e.g.
// after abort()), which carries no obligation beyond the assertions on the way.
import type { Edge, Procedure } from '../ir/cfg.js';
import { PathExplosionError, successors } from './cutset.js';

export interface CutPath {
  readonly from: number;
  /** The cut-point reached, or null when the path ends in a sink. */
  readonly to: number | null;
  readonly edges: readonly Edge[];
}

export function enumeratePaths(proc: Procedure, cutpoints: readonly number[], maxPaths = 50000): CutPath[] {
  const isCut = new Set(cutpoints);
  const succ = successors(proc);
  const paths: CutPath[] = [];
  for (const start of cutpoints) {
    const walk = (loc: number, edges: Edge[], onPath: Set<number>): void => {
      const out = succ[loc]!;
      if (out.length === 0 && loc !== start) {
        paths.push({ from: start, to: null, edges: [...edges] });
        return;
      }
      for (const e of out) {
        edges.push(e);
        if (isCut.has(e.to)) {
          if (paths.length >= maxPaths) throw new PathExplosionError(maxPaths, 'the number of paths between cut-points');
          paths.push({ from: start, to: e.to, edges: [...edges] });
        } else {
          if (onPath.has(e.to)) throw new Error(`internal: the cut-set misses a cycle through location ${e.to}`);
          onPath.add(e.to);
          walk(e.to, edges, onPath);
          onPath.delete(e.to);
        }
        edges.pop();
      }
      if (paths.length > maxPaths) throw new PathExplosionError(maxPaths, 'the number of paths between cut-points');
    };
    walk(start, [], new Set([start]));
  }
  return paths;
}
