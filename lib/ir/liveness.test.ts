import test from 'ava';
import { ProcedureBuilder, ProgramBuilder, stmt } from './testing/builder.js';
import { liveVariables } from './liveness.js';

const sorted = (s: Set<string> | undefined): string[] => [...(s ?? [])].sort();

test('straight-line code: uses before defs, dead assignments', (t) => {
  const b = new ProcedureBuilder('f', { params: ['a', 'b'], returns: 'r' });
  const l1 = b.newLocation();
  const l2 = b.newLocation();
  const l3 = b.newLocation();
  b.edge(b.entry, l1, stmt.assign('x', 'a + 1')); // x := a + 1
  b.edge(l1, l2, stmt.assign('y', 'b')); // y := b   (y is never read)
  b.edge(l2, l3, stmt.havoc('b')); // b := ?
  b.edge(l3, b.exit, stmt.assign('r', 'x + b'));
  b.close();
  const proc = b.build();
  const p = new ProgramBuilder().add(proc).build();
  const live = liveVariables(p, proc);
  t.deepEqual(sorted(live.get(b.exit)), ['r']);
  t.deepEqual(sorted(live.get(l3)), ['b', 'x']);
  t.deepEqual(sorted(live.get(l2)), ['x']);
  // y is dead, but `y := b` still reads b (liveness, not faintness).
  t.deepEqual(sorted(live.get(l1)), ['b', 'x']);
  t.deepEqual(sorted(live.get(b.entry)), ['a', 'b']);
});

test('loops: a variable read in the loop is live around it; globals are live at the exit', (t) => {
  const p = new ProgramBuilder()
    .global('g')
    .procedure('main', { params: ['n'] }, (b) =>
      b
        .assign('i', 0) // line 1
        .assign('t', 5) // line 2: t is overwritten before any read
        .while('i < n', (l) => l.assign('t', 'i').assign('i', 'i + 1').assign('g', 'g + t'))
        .assert('i >= 0'),
    )
    .build();
  const proc = p.procedures.get('main')!;
  const live = liveVariables(p, proc);
  const head = proc.locations.find((l) => l.loopHeader)!.id;
  t.deepEqual(sorted(live.get(head)), ['g', 'i', 'n']);
  t.deepEqual(sorted(live.get(proc.entry)), ['g', 'n']);
  t.deepEqual(sorted(live.get(proc.exit)), ['g']);
  // After `t := 5` (before the loop) t is dead: the loop overwrites it before reading.
  const afterT = proc.edges.find((e) => e.stmt.kind === 'assign' && e.stmt.target === 't' && e.stmt.expr.constant === 5n)!.to;
  t.false(live.get(afterT)!.has('t'));
});

test('calls use their arguments and every global, and kill only their target', (t) => {
  const p = new ProgramBuilder()
    .global('g')
    .procedure('h', { params: ['v'], returns: true }, (b) => b.return('v + g'))
    .procedure('main', { returns: true }, (b) => b.assign('a', 1).assign('x', 7).call('x', 'h', ['a']).return('x'))
    .build();
  const proc = p.procedures.get('main')!;
  const live = liveVariables(p, proc);
  const call = proc.edges.find((e) => e.stmt.kind === 'call')!;
  t.deepEqual(sorted(live.get(call.from)), ['a', 'g']); // x is overwritten by the call
  t.deepEqual(sorted(live.get(call.to)), ['g', 'x']);
  t.deepEqual(sorted(live.get(proc.exit)), ['g', 'retval']);
});

test('assume and assert read their variables on every branch', (t) => {
  const p = new ProgramBuilder()
    .procedure('main', { params: ['x', 'y', 'z'] }, (b) =>
      b.if(
        'x > 0',
        (th) => th.assert('y == 1'),
        (el) => el.assume('z < 0'),
      ),
    )
    .build();
  const proc = p.procedures.get('main')!;
  t.deepEqual(sorted(liveVariables(p, proc).get(proc.entry)), ['x', 'y', 'z']);
});
