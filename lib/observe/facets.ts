// Facets of the convex hull of observed states, two and three variables at a time: bounds with
// coefficients other than ±1 (the speedometer's d <= s + 5*t), which octagonal candidates cannot
// state. Each is the line (plane) through two (three) observed points that has every observed point
// on one side, so it is a tight bound of the observations; whether it holds of every run is for the
// checker (Houdini) to decide.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { State } from './samples.js';

/** Largest coefficient kept in a facet (steeper ones fit the sample's edge, not the program). */
const MAX_COEFFICIENT = 16n;

type Point = readonly bigint[];

/** Facets `n·v <= c` of the observed states' hull over each two and each three of `variables`. */
export function hullFacets(variables: readonly string[], states: readonly State[]): Formula[] {
  const out = new Map<string, Formula>();
  const add = (names: readonly string[]): void => {
    for (const f of facetsOf(names, states)) out.set(F.toC(f), f);
  };
  for (let i = 0; i < variables.length; i++) {
    for (let j = i + 1; j < variables.length; j++) {
      add([variables[i]!, variables[j]!]);
      for (let k = j + 1; k < variables.length; k++) add([variables[i]!, variables[j]!, variables[k]!]);
    }
  }
  return [...out.values()];
}

/** Facets over two or three variables: planes (lines) through 3 (2) extreme points with every point on one side. */
function facetsOf(names: readonly string[], states: readonly State[]): Formula[] {
  const dim = names.length;
  const points = distinct(states.map((s): Point => names.map((v) => s.get(v) ?? 0n)));
  if (points.length <= dim) return [];
  // The hull's vertices are among the points extreme in some direction; those in the directions of
  // {-1, 0, 1}^dim are the candidates (a few dozen), and every point is checked against each plane.
  const corners = extremePoints(points, dim);
  const facets = new Map<string, Formula>();
  const tryPlane = (through: readonly Point[]): void => {
    const normal = dim === 2 ? lineNormal(through[0]!, through[1]!) : planeNormal(through[0]!, through[1]!, through[2]!);
    if (normal === null) return;
    const level = dot(normal, through[0]!);
    let above = false;
    let below = false;
    // The corners first: most planes through three of them already cut through the others.
    for (const p of [...corners, ...points]) {
      const v = dot(normal, p);
      if (v > level) above = true;
      else if (v < level) below = true;
      if (above && below) return; // the plane cuts through the points: no facet
    }
    if (!above && !below) return; // all points on the plane: an equality, the affine hull's job
    const sign = above ? -1n : 1n; // oriented so that every point has n·p <= level
    const expr = L.fromTerms(names.map((v, idx) => [v, normal[idx]! * sign] as [string, bigint]), 0n);
    const f = F.compare(expr, '<=', L.constant(level * sign));
    facets.set(F.toC(f), f);
  };
  for (let a = 0; a < corners.length; a++) {
    for (let b = a + 1; b < corners.length; b++) {
      if (dim === 2) tryPlane([corners[a]!, corners[b]!]);
      else for (let c = b + 1; c < corners.length; c++) tryPlane([corners[a]!, corners[b]!, corners[c]!]);
    }
  }
  return [...facets.values()];
}

function distinct(points: readonly Point[]): Point[] {
  const seen = new Map<string, Point>();
  for (const p of points) seen.set(p.join(','), p);
  return [...seen.values()];
}

/** For each direction in {-1, 0, 1}^dim \ {0}: the first and last point (in input order) maximising it. */
function extremePoints(points: readonly Point[], dim: number): Point[] {
  const directions: Point[] = [[]];
  for (let i = 0; i < dim; i++) directions.splice(0, directions.length, ...directions.flatMap((d) => [-1n, 0n, 1n].map((x) => [...d, x])));
  const chosen = new Map<string, Point>();
  for (const d of directions) {
    if (d.every((x) => x === 0n)) continue;
    let best = dot(d, points[0]!);
    let first = points[0]!;
    let last = points[0]!;
    for (const p of points) {
      const v = dot(d, p);
      if (v > best) {
        best = v;
        first = p;
        last = p;
      } else if (v === best) last = p;
    }
    chosen.set(first.join(','), first);
    chosen.set(last.join(','), last);
  }
  return [...chosen.values()];
}

/** The normal of the line through two points, coprime; null when they coincide or it is too steep. */
function lineNormal(a: Point, b: Point): Point | null {
  return reduced([-(b[1]! - a[1]!), b[0]! - a[0]!]);
}

/** The normal of the plane through three points, coprime; null when they are collinear or it is too steep. */
function planeNormal(a: Point, b: Point, c: Point): Point | null {
  const u = [b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!];
  const v = [c[0]! - a[0]!, c[1]! - a[1]!, c[2]! - a[2]!];
  return reduced([u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!]);
}

function reduced(n: readonly bigint[]): Point | null {
  const g = n.reduce((acc, x) => L.gcd(acc, x), 0n);
  if (g === 0n) return null;
  const out = n.map((x) => x / g);
  return out.some((x) => x > MAX_COEFFICIENT || x < -MAX_COEFFICIENT) ? null : out;
}

function dot(n: Point, p: Point): bigint {
  let sum = 0n;
  for (let i = 0; i < n.length; i++) sum += n[i]! * p[i]!;
  return sum;
}

/**
 * The exact hull of the states' projection onto each pair of `variables` (Andrew's monotone chain,
 * O(n log n) a pair, where hullFacets tries lines through extreme points): its edges whose normals
 * are not within ±1 (octagons state those), at most `maxPerPair` a pair, the smallest normals
 * first. For many states and splits of them (the derived states of Horn clauses, per phase).
 */
export function planarFacets(variables: readonly string[], states: readonly State[], maxPerPair: number): Formula[] {
  const out: Formula[] = [];
  for (let i = 0; i < variables.length; i++) {
    for (let j = i + 1; j < variables.length; j++) {
      const names = [variables[i]!, variables[j]!];
      const hull = convexHull(distinct(states.map((s): Point => names.map((v) => s.get(v) ?? 0n))));
      if (hull.length < 3) continue; // a point or a segment: the affine hull's job
      const facets: { size: bigint; formula: Formula }[] = [];
      hull.forEach((p, k) => {
        // Counter-clockwise, the hull lies left of each edge p→q: n·r >= n·p for n = (q - p) turned left.
        const normal = lineNormal(p, hull[(k + 1) % hull.length]!);
        if (normal === null || normal.every((x) => x >= -1n && x <= 1n)) return;
        const expr = L.fromTerms(names.map((v, idx) => [v, normal[idx]!] as [string, bigint]), 0n);
        facets.push({ size: normal.reduce((acc, x) => acc + (x < 0n ? -x : x), 0n), formula: F.compare(expr, '>=', L.constant(dot(normal, p))) });
      });
      facets.sort((u, v) => (u.size < v.size ? -1 : u.size > v.size ? 1 : 0));
      out.push(...facets.slice(0, maxPerPair).map((f) => f.formula));
    }
  }
  return out;
}

/** The vertices of the points' convex hull, counter-clockwise; collinear points left out. */
export function convexHull(points: readonly Point[]): Point[] {
  const sorted = [...points].sort((p, q) => (p[0]! !== q[0]! ? (p[0]! < q[0]! ? -1 : 1) : p[1]! < q[1]! ? -1 : p[1]! > q[1]! ? 1 : 0));
  if (sorted.length <= 2) return sorted;
  const cross = (o: Point, a: Point, b: Point): bigint => (a[0]! - o[0]!) * (b[1]! - o[1]!) - (a[1]! - o[1]!) * (b[0]! - o[0]!);
  const chain = (ps: readonly Point[]): Point[] => {
    const out: Point[] = [];
    for (const p of ps) {
      while (out.length >= 2 && cross(out[out.length - 2]!, out[out.length - 1]!, p) <= 0n) out.pop();
      out.push(p);
    }
    out.pop();
    return out;
  };
  return [...chain(sorted), ...chain([...sorted].reverse())];
}
