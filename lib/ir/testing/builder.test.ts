import test from 'ava';
import { cond, lin, program, ProgramBuilder } from './builder.js';
import * as F from '../formula.js';
import * as L from '../linear.js';

test('lin parses linear expressions', (t) => {
  t.true(L.equals(lin('2*x - (y + 3) + -x'), L.fromTerms([['x', 1n], ['y', -1n]], -3n)));
  t.true(L.equals(lin('3 * (a - 2) * 2'), L.fromTerms([['a', 6n]], -12n)));
  t.is(L.toC(lin('x - x + 5')), '5');
  t.throws(() => lin('x * y'), { message: /non-linear/ });
  t.throws(() => lin('x +'), { message: /unexpected end/ });
  t.throws(() => lin('x y'), { message: /trailing input/ });
});

test('cond parses conditions with precedence and parentheses', (t) => {
  const env = (vals: Record<string, bigint>) => (v: string) => vals[v]!;
  const c = cond('x < n && !(y == 0) || (x + 1) * 2 > 10');
  t.true(F.evaluate(c, env({ x: 1n, n: 2n, y: 1n })));
  t.false(F.evaluate(c, env({ x: 1n, n: 2n, y: 0n })));
  t.true(F.evaluate(c, env({ x: 5n, n: 2n, y: 0n })));
  t.is(F.toC(cond('x != 3')), '!(x == 3)');
  t.deepEqual(cond('true'), F.TRUE);
  t.deepEqual(cond('!(false)'), F.TRUE);
  t.throws(() => cond('x'), { message: /expected a comparison/ });
});

test('structured statements build the CFG shapes the front end produces', (t) => {
  const p = new ProgramBuilder('demo.c')
    .global('g', 4)
    .procedure('main', { params: ['n'], returns: true }, (b) =>
      b
        .at(3)
        .assign('i', 0)
        .while('i < n', (l) => l.assign('i', 'i + 1'))
        .ifChoice((th) => th.assign('g', 'g + 1'))
        .return('i'),
    )
    .build();
  t.is(p.entry, 'main');
  t.deepEqual(p.globals, [{ name: 'g', init: 4n }]);
  const main = p.procedures.get('main')!;
  t.deepEqual(main.params, ['n']);
  t.deepEqual([...main.locals].sort(), ['i', 'retval']); // g is a global, n a parameter
  t.is(main.returnVar, 'retval');
  main.locations.forEach((l, i) => t.is(l.id, i));
  main.edges.forEach((e, i) => t.is(e.id, i));
  const heads = main.locations.filter((l) => l.loopHeader);
  t.is(heads.length, 1);
  const headEdges = main.edges.filter((e) => e.from === heads[0]!.id);
  t.deepEqual(headEdges.map((e) => e.stmt.kind), ['assume', 'assume']);
  t.true(main.edges.some((e) => e.to === heads[0]!.id && e.from > heads[0]!.id), 'a back edge');
  const choices = main.locations.filter((l) => l.choice);
  t.is(choices.length, 1);
  t.is(main.edges.filter((e) => e.from === choices[0]!.id).length, 2);
  t.deepEqual(main.edges.find((e) => e.stmt.kind === 'assign' && e.stmt.target === 'i')!.pos, { file: 'demo.c', line: 3, col: 1 });
  t.true(main.edges.some((e) => e.to === main.exit && e.stmt.kind === 'assign' && e.stmt.target === 'retval'));
});

test('the entry defaults to main, else the last procedure', (t) => {
  t.is(program((p) => p.procedure('f', {}, () => {}).procedure('g', {}, () => {})).entry, 'g');
  t.is(program((p) => p.procedure('main', {}, () => {}).procedure('g', {}, () => {})).entry, 'main');
  t.throws(() => program(() => {}), { message: /at least one procedure/ });
});
