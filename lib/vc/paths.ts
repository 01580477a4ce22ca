// Paths(π1, π2): the paths from a cut-point to the next cut-points that pass through no other
// cut-point. A path may also end in a sink (a location without successors other than the exit, e.g.
// after abort()), which carries no obligation beyond the assertions on the way.
import type { Edge, Procedure } from '../ir/cfg.js';
import { MAX_PATHS } from '../limits.js';
import { PathExplosionError, successors } from './cutset.js';

export interface CutPath {
  readonly from: number;
  /** The cut-point reached, or null when the path ends in a sink. */
  readonly to: number | null;
  readonly edges: readonly Edge[];
}

export function enumeratePaths(proc: Procedure, cutpoints: readonly number[], maxPaths = MAX_PATHS): CutPath[] {
  const isCut = new Set(cutpoints);
  const succ = successors(proc);
  const paths: CutPath[] = [];
  for (const start of cutpoints) {
    // Depth-first with an explicit stack: a straight-line path is as deep as it is long.
    const edges: Edge[] = [];
    const onPath = new Set([start]);
    const stack: { readonly loc: number; next: number }[] = [{ loc: start, next: 0 }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const out = succ[frame.loc]!;
      const sink = out.length === 0 && frame.loc !== start;
      if (sink) paths.push({ from: start, to: null, edges: [...edges] });
      if (sink || frame.next >= out.length) {
        if (!sink && paths.length > maxPaths) throw new PathExplosionError(maxPaths, 'the number of paths between cut-points');
        stack.pop();
        if (stack.length > 0) {
          onPath.delete(frame.loc);
          edges.pop();
        }
        continue;
      }
      const e = out[frame.next++]!;
      edges.push(e);
      if (isCut.has(e.to)) {
        if (paths.length >= maxPaths) throw new PathExplosionError(maxPaths, 'the number of paths between cut-points');
        paths.push({ from: start, to: e.to, edges: [...edges] });
        edges.pop();
      } else {
        if (onPath.has(e.to)) throw new Error(`internal: the cut-set misses a cycle through location ${e.to}`);
        onPath.add(e.to);
        stack.push({ loc: e.to, next: 0 });
      }
    }
  }
  return paths;
}
