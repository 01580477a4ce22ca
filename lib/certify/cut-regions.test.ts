import test from 'ava';
import { program } from '../ir/testing/builder.js';
import type { Procedure } from '../ir/cfg.js';
import { findUncutCycle, reachableFrom, regionOf, successorEdges } from './cut-regions.js';

/** Two nested loops: while (i < n) { j = 0; while (j < i) j++; i++; } */
const nested: Procedure = program((p) =>
  p.procedure('nested', { params: ['n'] }, (b) => {
    b.assign('i', 0).while('i < n', (outer) => {
      outer.assign('j', 0).while('j < i', (inner) => inner.assign('j', 'j + 1')).assign('i', 'i + 1');
    });
  }),
).procedures.get('nested')!;

const headers = nested.locations.filter((l) => l.loopHeader).map((l) => l.id);

function isCycle(proc: Procedure, cycle: number[]): boolean {
  return cycle.every((loc, i) => proc.edges.some((e) => e.from === loc && e.to === cycle[(i + 1) % cycle.length]));
}

test('the inner loop header cuts every cycle (each outer iteration passes it); the outer one alone does not', (t) => {
  const succ = successorEdges(nested);
  const reachable = reachableFrom(succ, nested.entry);
  const [outer, inner] = headers as [number, number];
  t.is(findUncutCycle(succ, reachable, new Set([nested.entry, outer, inner])), null);
  t.is(findUncutCycle(succ, reachable, new Set([nested.entry, inner])), null);
  const cycle = findUncutCycle(succ, reachable, new Set([nested.entry, outer]));
  t.truthy(cycle);
  t.true(isCycle(nested, cycle!), `not a cycle: ${cycle}`);
  t.true(cycle!.includes(inner));
  t.is(findUncutCycle(succ, reachable, new Set([nested.entry])) !== null, true);
  // Any location of the inner loop cuts it, not only its header.
  const innerBody = nested.edges.find((e) => e.stmt.kind === 'assign' && e.stmt.target === 'j' && e.stmt.expr.coeffs.size === 1)!.from;
  t.is(findUncutCycle(succ, reachable, new Set([nested.entry, outer, innerBody])), null);
});

test('regions stop at cut-points and list interior locations in topological order', (t) => {
  const succ = successorEdges(nested);
  const cuts = new Set([nested.entry, ...headers]);
  const [outer, inner] = headers as [number, number];
  const fromEntry = regionOf(succ, nested.entry, cuts);
  t.deepEqual(fromEntry.targets, [outer]);
  const fromOuter = regionOf(succ, outer, cuts);
  // The outer header reaches the inner header (loop body) and the exit (loop end), never itself directly.
  t.deepEqual(fromOuter.targets, [inner]);
  t.true(fromOuter.interior.includes(nested.exit));
  const fromInner = regionOf(succ, inner, cuts);
  t.deepEqual(fromInner.targets, [outer, inner].sort((a, b) => a - b));
  for (const region of [fromEntry, fromOuter, fromInner]) {
    const position = new Map(region.interior.map((loc, i) => [loc, i]));
    for (const e of region.edges) {
      t.true(e.from === region.start || position.has(e.from));
      if (position.has(e.from) && position.has(e.to)) t.true(position.get(e.from)! < position.get(e.to)!);
    }
  }
});

test('edges out of the exit are never followed', (t) => {
  const pos = { file: 't.c', line: 1, col: 1 };
  // entry 0 -> 1 -> exit 2, plus 2 -> 1: a cycle only if control could leave the exit.
  const proc: Procedure = {
    name: 'f', params: [], locals: [], returnVar: null, entry: 0, exit: 2, pos,
    locations: [0, 1, 2].map((id) => ({ id, loopHeader: false })),
    edges: [
      { id: 0, from: 0, to: 1, stmt: { kind: 'skip' }, pos },
      { id: 1, from: 1, to: 2, stmt: { kind: 'skip' }, pos },
      { id: 2, from: 2, to: 1, stmt: { kind: 'skip' }, pos },
    ],
  };
  const succ = successorEdges(proc);
  t.is(findUncutCycle(succ, reachableFrom(succ, 0), new Set([0])), null);
  t.deepEqual(regionOf(succ, 0, new Set([0])).interior, [1, 2]);
});
