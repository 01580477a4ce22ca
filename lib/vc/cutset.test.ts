// Cut-sets on real C programs: the loop-header choice, the Theorem 1 path expansion (one cut-point per
// cyclic loop-body path), faithfulness of the unfolding and the path-explosion limit.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { parseProgram } from '../frontend/index.js';
import type { Procedure } from '../ir/cfg.js';
import { loopHeaders, PathExplosionError, prepareCutset, type PreparedCutset } from './cutset.js';
import { enumeratePaths } from './paths.js';

function procedureOf(source: string, name?: string): Procedure {
  const program = parseProgram(source, 'test.c');
  return program.procedures.get(name ?? program.entry)!;
}

const PV1 = 'void PV1(int y) { int x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); }\n';

// Fig. 2 laid out with the paper's line numbers: π4 is the point just before line 4 (`y++`), π6 before
// line 6 (`y--`).
const PV2 = [
  'int main() { int x = 0; int y = 0;',
  '  while (1) {',
  '    if (x <= 50)',
  '      y++;',
  '    else',
  '      y--;',
  '    if (y < 0)',
  '      break;',
  '    x++;',
  '  }',
  '  assert(x == 102);',
  '  return 0; }',
].join('\n');

const NESTED = `void f(int n) {
  int i = 0;
  while (i < n) {
    int j = 0;
    while (j < i) { j = j + 1; }
    i = i + 1;
  }
}`;

const CHOICE = `void g(int x) {
  while (x < 100) {
    if (*) x = x + 1;
    else x = x + 2;
  }
}`;

/** Every edge of the prepared procedure copies an original edge (same endpoints under `original`, same statement). */
function assertFaithful(t: ExecutionContext, orig: Procedure, cut: PreparedCutset): void {
  t.is(cut.original.length, cut.proc.locations.length);
  cut.proc.locations.forEach((l, i) => t.is(l.id, i));
  cut.proc.edges.forEach((e, i) => t.is(e.id, i));
  t.is(cut.original[cut.proc.entry], orig.entry);
  t.is(cut.original[cut.proc.exit], orig.exit);
  for (const e of cut.proc.edges) {
    const from = cut.original[e.from]!;
    const to = cut.original[e.to]!;
    const match = orig.edges.filter((o) => o.from === from && o.to === to);
    t.true(match.length > 0, `edge ${e.id} (${e.from}->${e.to}) has no original ${from}->${to}`);
    t.true(match.some((o) => JSON.stringify(o.stmt, bigintJson) === JSON.stringify(e.stmt, bigintJson) && o.pos.line === e.pos.line),
      `edge ${e.id} changes the statement of ${from}->${to}`);
  }
  // Every original edge is kept by some copy (nothing dropped), for edges reachable from the entry.
  const reachable = reachableFrom(orig, orig.entry);
  for (const o of orig.edges) {
    if (!reachable.has(o.from)) continue;
    t.true(cut.proc.edges.some((e) => cut.original[e.from] === o.from && cut.original[e.to] === o.to), `original edge ${o.id} lost`);
  }
}

function bigintJson(_k: string, v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Map) return [...v];
  return v;
}

function reachableFrom(proc: Procedure, start: number): Set<number> {
  const seen = new Set([start]);
  const todo = [start];
  while (todo.length > 0) {
    const l = todo.pop()!;
    for (const e of proc.edges) if (e.from === l && !seen.has(e.to)) { seen.add(e.to); todo.push(e.to); }
  }
  return seen;
}

/** True iff removing the cut-points leaves an acyclic graph, i.e. every cycle passes a cut-point. */
function everyCycleCut(proc: Procedure, cutpoints: readonly number[]): boolean {
  const cut = new Set(cutpoints);
  const state = new Map<number, 1 | 2>();
  const visit = (l: number): boolean => {
    state.set(l, 1);
    for (const e of proc.edges) {
      if (e.from !== l || cut.has(e.to)) continue;
      const s = state.get(e.to);
      if (s === 1) return false;
      if (s === undefined && !visit(e.to)) return false;
    }
    state.set(l, 2);
    return true;
  };
  return proc.locations.every((l) => cut.has(l.id) || state.has(l.id) || visit(l.id));
}

function firstLine(proc: Procedure, loc: number): number | undefined {
  return proc.edges.find((e) => e.from === loc)?.pos.line;
}

test('headers: Fig. 1 has entry, exit and the loop header as cut-points', (t) => {
  const proc = procedureOf(PV1);
  const headers = loopHeaders(proc);
  t.is(headers.size, 1);
  const [header] = [...headers];
  t.true(proc.locations[header!]!.loopHeader);
  const cut = prepareCutset(proc, 'headers');
  t.is(cut.proc, proc, 'the header strategy does not copy the procedure');
  t.deepEqual(cut.cutpoints, [proc.entry, header!, proc.exit].sort((a, b) => a - b));
  t.true(everyCycleCut(cut.proc, cut.cutpoints));
  t.false(everyCycleCut(cut.proc, [proc.entry, proc.exit]), 'without the header the loop is uncut');
});

test('loopHeaders finds back-edge targets even when the front end did not mark them', (t) => {
  const proc = procedureOf(PV1);
  const unmarked: Procedure = { ...proc, locations: proc.locations.map((l) => ({ ...l, loopHeader: false })) };
  t.deepEqual([...loopHeaders(unmarked)], [...loopHeaders(proc)]);
});

test('paths: Fig. 2 gets one cut-point per cyclic loop-body path, before y++ and before y--', (t) => {
  const proc = procedureOf(PV2);
  t.is(loopHeaders(proc).size, 1);
  const cut = prepareCutset(proc, 'paths');
  const inner = cut.cutpoints.filter((c) => c !== cut.proc.entry && c !== cut.proc.exit);
  t.is(inner.length, 2);
  t.deepEqual(inner.map((c) => firstLine(cut.proc, c)).sort(), [4, 6]);
  t.true(cut.cutpoints.includes(cut.proc.entry) && cut.cutpoints.includes(cut.proc.exit));
  t.deepEqual([...cut.cutpoints], [...cut.cutpoints].sort((a, b) => a - b));
  // The header itself is no longer needed: both cyclic paths are cut below it.
  const header = [...loopHeaders(proc)][0]!;
  t.false(cut.cutpoints.some((c) => cut.original[c] === header));
  t.true(everyCycleCut(cut.proc, cut.cutpoints));
  assertFaithful(t, proc, cut);
  // With the header choice, Fig. 2 has a single loop cut-point.
  const byHeader = prepareCutset(proc, 'headers');
  t.is(byHeader.cutpoints.length, 3);
});

test('paths: Fig. 1 is a faithful unfolding with one loop cut-point before x = x + y', (t) => {
  const proc = procedureOf(PV1);
  const cut = prepareCutset(proc, 'paths');
  const inner = cut.cutpoints.filter((c) => c !== cut.proc.entry && c !== cut.proc.exit);
  t.is(inner.length, 1);
  // First the premise that x + y does not overflow (a statement only concrete runs check), then the assignment.
  const first = cut.proc.edges.find((e) => e.from === inner[0]);
  t.like(first?.stmt, { kind: 'assume', premise: true });
  t.is(cut.proc.edges.find((e) => e.from === first?.to)?.stmt.kind, 'assign');
  t.true(everyCycleCut(cut.proc, cut.cutpoints));
  assertFaithful(t, proc, cut);
  t.notThrows(() => enumeratePaths(cut.proc, cut.cutpoints));
});

test('nested loops: both strategies cut every cycle and the expansion is faithful', (t) => {
  const proc = procedureOf(NESTED);
  const headers = loopHeaders(proc);
  t.is(headers.size, 2);
  for (const strategy of ['headers', 'paths'] as const) {
    const cut = prepareCutset(proc, strategy);
    t.true(everyCycleCut(cut.proc, cut.cutpoints), strategy);
    assertFaithful(t, proc, cut);
    const paths = enumeratePaths(cut.proc, cut.cutpoints);
    t.true(paths.length > 0);
  }
  const paths = prepareCutset(proc, 'paths');
  const inner = paths.cutpoints.filter((c) => c !== paths.proc.entry && c !== paths.proc.exit);
  // Cyclic paths: inner body back to the inner header, and inner exit → i = i + 1 → outer header.
  t.true(inner.length >= 2);
  const lines = new Set(inner.map((c) => firstLine(paths.proc, c)));
  t.true(lines.has(5), 'a cut-point inside the inner loop body');
  t.true(lines.has(6), 'a cut-point on the path through i = i + 1');
});

test('paths: a nondeterministic if (*) in a loop gives two cut-points and keeps the choice semantics', (t) => {
  const proc = procedureOf(CHOICE);
  const choice = proc.locations.find((l) => l.choice);
  t.truthy(choice, 'the front end marks the if (*) location as a choice');
  const cut = prepareCutset(proc, 'paths');
  const inner = cut.cutpoints.filter((c) => c !== cut.proc.entry && c !== cut.proc.exit);
  t.is(inner.length, 2);
  t.deepEqual(inner.map((c) => firstLine(cut.proc, c)).sort(), [3, 4]);
  t.true(everyCycleCut(cut.proc, cut.cutpoints));
  assertFaithful(t, proc, cut);
  // Copies of the choice location stay choices, and the then-branch keeps the smaller edge id.
  const copies = cut.proc.locations.filter((l) => cut.original[l.id] === choice!.id);
  t.true(copies.length > 0);
  const origOut = proc.edges.filter((e) => e.from === choice!.id).sort((a, b) => a.id - b.id);
  for (const c of copies) {
    t.true(c.choice === true);
    const out = cut.proc.edges.filter((e) => e.from === c.id).sort((a, b) => a.id - b.id);
    t.is(out.length, 2);
    t.deepEqual(out.map((e) => cut.original[e.to]), origOut.map((e) => e.to));
  }
});

test('paths: 20 sequential if/else in a loop body exceed a small location limit', (t) => {
  const body = Array.from({ length: 20 }, (_, k) => `    if (x > ${k}) y = y + 1; else y = y - 1;`).join('\n');
  const source = `void h(int x, int y) {\n  while (x < 1000) {\n${body}\n    x = x + 1;\n  }\n}\n`;
  const proc = procedureOf(source);
  const error = t.throws(() => prepareCutset(proc, 'paths', { maxLocations: 500 }), { instanceOf: PathExplosionError });
  t.is(error?.limit, 500);
  t.regex(error?.message ?? '', /500/);
  t.regex(error?.message ?? '', /--cutset headers/);
  // The default limit also stops 2^20 paths instead of running out of memory.
  t.throws(() => prepareCutset(proc, 'paths'), { instanceOf: PathExplosionError });
  // The header cut-set does not expand; enumerating its 2^20 paths hits the path limit.
  const headers = prepareCutset(proc, 'headers');
  t.is(headers.cutpoints.length, 3);
  t.throws(() => enumeratePaths(headers.proc, headers.cutpoints, 1000), { instanceOf: PathExplosionError });
});

test('paths: a loop-free procedure keeps only entry and exit and stays faithful', (t) => {
  const proc = procedureOf('int f(int a) { int r = 0; if (a > 0) r = a; else r = -a; assert(r >= 0); return r; }');
  const cut = prepareCutset(proc, 'paths');
  t.deepEqual(cut.cutpoints, [cut.proc.entry, cut.proc.exit].sort((a, b) => a - b));
  assertFaithful(t, proc, cut);
  t.is(enumeratePaths(cut.proc, cut.cutpoints).length, 2);
});
