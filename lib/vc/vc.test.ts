// Paths between cut-points and their verification conditions: Fig. 1's three VCs of the paper, and
// the symbolic execution rules (havoc, infeasible assume, assert) on hand-built paths.
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import type { Edge, Stmt } from '../ir/cfg.js';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { cond, lin, stmt } from '../ir/testing/builder.js';
import { prepareCutset } from './cutset.js';
import { enumeratePaths, type CutPath } from './paths.js';
import { pathConditions, UnsupportedInVc, type VerificationCondition } from './vc.js';

const PV1 = 'void PV1(int y) { int x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); }\n';

function pv1(strategy: 'headers' | 'paths') {
  const program = parseProgram(PV1, 'pv1.c');
  const cut = prepareCutset(program.procedures.get('PV1')!, strategy);
  const loop = cut.cutpoints.filter((c) => c !== cut.proc.entry && c !== cut.proc.exit);
  const paths = enumeratePaths(cut.proc, cut.cutpoints);
  const vcs = paths.flatMap((p) => pathConditions(p, (c) => loop.includes(c)));
  return { cut, loop, paths, vcs };
}

function substText(vc: VerificationCondition): Record<string, string> {
  if (vc.conclusion.kind !== 'relation') throw new Error('not a relation conclusion');
  return Object.fromEntries([...vc.conclusion.app.subst].map(([k, v]) => [k, L.toC(v)]));
}

/** Equivalent formulas on a grid of points (x, y in [-60, 60]) — enough for these small examples. */
function sameOnGrid(a: F.Formula, b: F.Formula): boolean {
  for (let x = -60n; x <= 60n; x += 3n) {
    for (let y = -60n; y <= 60n; y += 3n) {
      const env = (v: string) => (v === 'x' ? x : v === 'y' ? y : 0n);
      if (F.evaluate(a, env) !== F.evaluate(b, env)) return false;
    }
  }
  return true;
}

test("Fig. 1 with the header cut-set gives the paper's three VCs", (t) => {
  const { cut, loop, vcs } = pv1('headers');
  t.is(loop.length, 1);
  const I = loop[0]!;
  t.is(vcs.length, 3);
  // true ⇒ I[-50/x]
  const init = vcs.find((v) => v.from === cut.proc.entry)!;
  t.is(init.to, I);
  t.is(init.guards.kind, 'true');
  t.is(init.conclusion.kind, 'relation');
  t.deepEqual(substText(init), { x: '-50' });
  // I ∧ x < 0 ⇒ I[(x+y)/x, (y+1)/y]
  const step = vcs.find((v) => v.from === I && v.conclusion.kind === 'relation')!;
  t.is(step.to, I);
  t.true(sameOnGrid(step.guards, cond('x < 0')));
  t.deepEqual(substText(step), { x: 'x + y', y: 'y + 1' });
  // I ∧ x >= 0 ⇒ y > 0
  const exit = vcs.find((v) => v.conclusion.kind === 'assertion')!;
  t.is(exit.from, I);
  t.is(exit.to, cut.proc.exit);
  t.true(sameOnGrid(exit.guards, cond('x >= 0')));
  if (exit.conclusion.kind !== 'assertion') return t.fail();
  t.true(sameOnGrid(exit.conclusion.formula, cond('y > 0')));
  t.is(exit.conclusion.pos.line, 1);
  t.is(exit.conclusion.pos.file, 'pv1.c');
});

test('Fig. 1 with the path cut-set: the infeasible entry-to-exit path yields no VC', (t) => {
  const { cut, loop, paths, vcs } = pv1('paths');
  t.is(loop.length, 1);
  // entry→cut, cut→cut, cut→exit, and entry→exit (x = -50 then assume(x >= 0): infeasible).
  t.is(paths.length, 4);
  const entryToExit = paths.find((p) => p.from === cut.proc.entry && p.to === cut.proc.exit);
  t.truthy(entryToExit);
  t.deepEqual(pathConditions(entryToExit!, () => true), []);
  t.is(vcs.length, 3);
  const step = vcs.find((v) => v.from === loop[0] && v.to === loop[0])!;
  // The cut-point sits after the loop test: the next test is on the updated x.
  t.true(sameOnGrid(step.guards, cond('x + y < 0')));
  t.deepEqual(substText(step), { x: 'x + y', y: 'y + 1' });
  const exit = vcs.find((v) => v.conclusion.kind === 'assertion')!;
  if (exit.conclusion.kind !== 'assertion') return t.fail();
  t.true(sameOnGrid(exit.guards, cond('x + y >= 0')));
  t.true(sameOnGrid(exit.conclusion.formula, cond('y + 1 > 0')));
});

test('every enumerated path runs from a cut-point to a cut-point through no other cut-point', (t) => {
  for (const strategy of ['headers', 'paths'] as const) {
    const { cut, paths } = pv1(strategy);
    const isCut = new Set(cut.cutpoints);
    for (const p of paths) {
      t.true(isCut.has(p.from));
      t.true(p.edges.length > 0);
      t.is(p.edges[0]!.from, p.from);
      for (let i = 1; i < p.edges.length; i++) {
        t.is(p.edges[i]!.from, p.edges[i - 1]!.to, 'edges are consecutive');
        t.false(isCut.has(p.edges[i]!.from), 'no cut-point inside a path');
      }
      t.not(p.to, null, 'Fig. 1 has no sink');
      t.is(p.edges[p.edges.length - 1]!.to as number | null, p.to);
    }
  }
});

// Hand-built paths: each edge gets a distinct line so positions can be checked.
function path(stmts: Stmt[], to: number | null = 1): CutPath {
  const edges: Edge[] = stmts.map((s, i) => ({ id: i, from: i === 0 ? 0 : 100 + i, to: i === stmts.length - 1 && to !== null ? to : 101 + i, stmt: s, pos: { file: 't.c', line: 10 + i, col: 1 } }));
  return { from: 0, to, edges };
}

test('havoc introduces a fresh variable for each havoc', (t) => {
  const p = path([stmt.havoc('x'), stmt.assume('x >= 5'), stmt.havoc('x'), stmt.assign('x', 'x + y'), stmt.havoc('z')]);
  const [vc, ...rest] = pathConditions(p, () => true);
  t.is(rest.length, 0);
  if (vc?.conclusion.kind !== 'relation') return t.fail();
  const s = vc.conclusion.app.subst;
  const x = s.get('x')!;
  const z = s.get('z')!;
  const guardVars = [...F.variablesOf(vc.guards)];
  t.is(guardVars.length, 1);
  const h0 = guardVars[0]!;
  // x := h1 + y with h1 a second fresh name; the first havoc's value is only in the guard.
  const xVars = L.variablesOf(x);
  t.is(xVars.length, 2);
  t.true(xVars.includes('y'));
  const h1 = xVars.find((v) => v !== 'y')!;
  const h2 = L.variablesOf(z)[0]!;
  const fresh = new Set([h0, h1, h2]);
  t.is(fresh.size, 3, 'three havocs, three distinct fresh variables');
  for (const h of fresh) t.false(['x', 'y', 'z'].includes(h), `${h} must not be a program variable`);
  t.is(F.toC(vc.guards), `${h0} >= 5`);
  t.false(s.has('y'), 'y is untouched');
});

test('an infeasible assume stops the path: nothing after it is an obligation', (t) => {
  const p = path([stmt.assert('y >= 0'), stmt.assign('x', 3), stmt.assume('x <= 2'), stmt.assert('y >= 100')]);
  const vcs = pathConditions(p, () => true);
  t.is(vcs.length, 1, 'only the assertion before the infeasible assume');
  const only = vcs[0]!;
  t.is(only.conclusion.kind, 'assertion');
  if (only.conclusion.kind !== 'assertion') return;
  t.is(F.toC(only.conclusion.formula), 'y >= 0');
  t.is(only.conclusion.pos.line, 10);
});

test('an assert yields its own VC and is assumed afterwards', (t) => {
  const p = path([stmt.assume('x >= 1'), stmt.assign('x', 'x - 1'), stmt.assert('x + y >= 0'), stmt.assign('y', 'y + 1'), stmt.assert('y > 0')]);
  const vcs = pathConditions(p, (c) => c === 1);
  t.is(vcs.length, 3);
  const [first, second, final] = vcs as [VerificationCondition, VerificationCondition, VerificationCondition];
  if (first.conclusion.kind !== 'assertion' || second.conclusion.kind !== 'assertion') return t.fail();
  // assert(x + y >= 0) after x := x - 1, under x >= 1
  t.true(L.equals(first.conclusion.formula.kind === 'atom' ? first.conclusion.formula.expr : L.constant(0n), lin('x - 1 + y')));
  t.is(F.toC(first.guards), 'x >= 1');
  t.is(first.conclusion.pos.line, 12);
  // The second assertion may use the first: guards = x >= 1 ∧ x - 1 + y >= 0
  t.true(sameOnGrid(second.guards, cond('x >= 1 && x - 1 + y >= 0')));
  t.true(sameOnGrid(second.conclusion.formula, cond('y + 1 > 0')));
  // The relation at the end carries all three guards and the final substitution.
  t.is(final.conclusion.kind, 'relation');
  t.true(sameOnGrid(final.guards, cond('x >= 1 && x - 1 + y >= 0 && y + 1 > 0')));
  t.deepEqual(substText(final), { x: 'x - 1', y: 'y + 1' });
  // A known target (relationAt false) gives no relation obligation.
  t.is(pathConditions(p, () => false).length, 2);
  // An assertion that is trivially true after substitution gives none either.
  t.is(pathConditions(path([stmt.assign('x', 5), stmt.assert('x > 0')]), () => false).length, 0);
});

test('a path ending in a sink has no relation obligation; a call is rejected', (t) => {
  const sink = path([stmt.assert('x > 0'), stmt.assume('false')], null);
  t.is(pathConditions(sink, () => true).length, 1);
  t.throws(() => pathConditions(path([stmt.call('r', 'f', ['x'])]), () => true), { instanceOf: UnsupportedInVc, message: /f/ });
});

test('a summarised call binds the parameters to the arguments, globals to their values, the result to a fresh variable', (t) => {
  const p: CutPath = path([stmt.assign('x', 'x + 1'), stmt.call('r', 'f', ['x', '2']), stmt.assert('r >= x')]);
  const summaryOf = (callee: string) => (callee === 'f' ? { params: ['a', 'b'], globals: ['g'], returnName: 'f!ret' } : undefined);
  const vcs = pathConditions(p, () => false, summaryOf);
  t.is(vcs.length, 1);
  const call = vcs[0]!.calls![0]!;
  t.is(call.callee, 'f');
  const bound = Object.fromEntries([...call.subst].map(([k, v]) => [k, L.toC(v)]));
  t.deepEqual(bound, { a: 'x + 1', b: '2', g: 'g', 'f!ret': 'r!h0' });
  const conclusion = vcs[0]!.conclusion;
  t.true(conclusion.kind === 'assertion' && F.toC(conclusion.formula).includes('r!h0'));
  // Without a summary the call is still rejected.
  t.throws(() => pathConditions(p, () => false), { instanceOf: UnsupportedInVc });
});
