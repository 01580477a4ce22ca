import test from 'ava';
import fc from 'fast-check';
import { runProgram, runResultToJson, type RunResult } from '../interpreter/index.js';
import { ProcedureBuilder, ProgramBuilder, stmt } from './testing/builder.js';
import type { Program } from './cfg.js';
import { inlineCalls, recursiveProcedures } from './inline.js';

/** Exercises what inlining must get right: parameters by value, locals read before written (a fresh
 * frame has them at 0, also when the call sits in a loop), nested calls, void calls writing globals,
 * choice and ranged havoc inside a callee, and a recursive callee that must stay a call. */
function sample(): Program {
  return new ProgramBuilder('sample.c')
    .global('g', 3)
    .global('cnt', 0)
    .procedure('abs', { params: ['v'], returns: true, line: 100 }, (b) =>
      b.if(
        'v < 0',
        (th) => th.return('-v'),
        (el) => el.return('v'),
      ),
    )
    .procedure('addg', { params: ['v'], line: 110 }, (b) => b.assign('g', 'g + v').assign('cnt', 'cnt + 1'))
    .procedure('tricky', { params: ['x'], returns: true, locals: ['acc'], line: 120 }, (b) =>
      // acc is never initialised: each call must see 0, as in a fresh frame.
      b.if('x > 0', (th) => th.assign('acc', 'acc + x')).return('acc'),
    )
    .procedure('step', { params: ['x'], returns: true, line: 130 }, (b) =>
      b
        .call('k', 'abs', ['x'])
        .havoc('d', { lo: -3n, hi: 3n })
        .ifChoice((th) => th.call(null, 'addg', ['d']))
        .whileChoice((l) => l.assign('k', 'k + 1'))
        .return('k + d'),
    )
    .procedure('sumTo', { params: ['n'], returns: true, line: 150 }, (b) =>
      b.if(
        'n <= 0',
        (th) => th.return(0),
        (el) => el.call('t', 'sumTo', ['n - 1']).return('t + n'),
      ),
    )
    .procedure('main', { params: ['a', 'b'], returns: true, line: 1 }, (b) =>
      b
        .assign('i', 0)
        .assign('s', 0)
        .while('i < 3', (l) =>
          l.call('t1', 'tricky', ['a - i']).assign('s', 's + t1').call('t2', 'step', ['b']).assign('s', 's + t2').assign('i', 'i + 1'),
        )
        .call('c', 'abs', ['s'])
        .if('c > 40', (th) => th.assign('c', 40))
        .call('r', 'sumTo', ['c'])
        .assert('g < 5')
        .return('c + r'),
    )
    .build();
}

/** What must agree between a run of the original and of the inlined program (procedure names, edge
 * ids and step counts legitimately differ). */
function observable(r: RunResult): unknown {
  const json = runResultToJson(r);
  const o = r.outcome;
  const pos = 'pos' in o && o.pos ? `${o.pos.file}:${o.pos.line}:${o.pos.col}` : null;
  const detail = o.kind === 'exit' ? o.returnValue : o.kind === 'nondet-out-of-range' ? o.value : null;
  return { kind: o.kind, pos, detail, globals: json.globals, nondet: json.nondetConsumed, inputs: json.inputs };
}

test('recursive procedures are those on a call-graph cycle', (t) => {
  const p = new ProgramBuilder()
    .procedure('even', { params: ['n'], returns: true }, (b) => b.if('n == 0', (th) => th.return(1), (el) => el.call('r', 'odd', ['n - 1']).return('r')))
    .procedure('odd', { params: ['n'], returns: true }, (b) => b.if('n == 0', (th) => th.return(0), (el) => el.call('r', 'even', ['n - 1']).return('r')))
    .procedure('leaf', { params: ['n'], returns: true }, (b) => b.call('r', 'even', ['n']).return('r'))
    .procedure('main', { returns: true }, (b) => b.call('x', 'leaf', [5]).return('x'))
    .build();
  t.deepEqual([...recursiveProcedures(p)].sort(), ['even', 'odd']);
  const { program, recursiveCalls } = inlineCalls(p, 'main');
  t.deepEqual(recursiveCalls.map((c) => c.callee), ['even']);
  t.is(runProgram(program).outcome.kind, 'exit');
  t.deepEqual(runProgram(program).outcome, { kind: 'exit', returnValue: 0n });
});

test('inlining removes every non-recursive call and keeps the recursive ones', (t) => {
  const p = sample();
  const { program, recursiveCalls } = inlineCalls(p, 'main');
  const main = program.procedures.get('main')!;
  const calls = main.edges.filter((e) => e.stmt.kind === 'call');
  t.true(calls.length > 0);
  t.true(calls.every((e) => e.stmt.kind === 'call' && e.stmt.callee === 'sumTo'));
  t.deepEqual(recursiveCalls.map((c) => c.edge.id).sort(), calls.map((e) => e.id).sort());
  // Other procedures are untouched.
  t.is(program.procedures.get('sumTo'), p.procedures.get('sumTo'));
  // IR invariants: ids are indices, edges connect existing locations, locals are distinct and fresh.
  main.locations.forEach((l, i) => t.is(l.id, i));
  main.edges.forEach((e, i) => {
    t.is(e.id, i);
    t.true(e.from < main.locations.length && e.to < main.locations.length);
  });
  t.is(new Set(main.locals).size, main.locals.length);
  t.true(main.locals.includes('tricky__1__acc'));
  t.false(main.locals.some((v) => p.globals.some((g) => g.name === v)));
  // Loop headers and choice locations of the copies survive: main's loop and step's loop, step's two choices.
  t.is(main.locations.filter((l) => l.loopHeader).length, 1 + 1);
  t.is(main.locations.filter((l) => l.choice).length, 2);
  // Copied edges keep their source positions (tricky's body is at line 120+).
  t.true(main.edges.some((e) => e.pos.line >= 120 && e.pos.line < 130 && e.stmt.kind === 'assume'));
});

test('the inlined program behaves like the original on random inputs and nondet streams', (t) => {
  const p = sample();
  const inlined = inlineCalls(p, 'main').program;
  const kinds = new Set<string>();
  fc.assert(
    fc.property(
      fc.bigInt({ min: -20n, max: 20n }),
      fc.bigInt({ min: -20n, max: 20n }),
      fc.array(fc.bigInt({ min: -4n, max: 4n }), { maxLength: 30 }),
      fc.constantFrom<bigint | null>(0n, 1n, null),
      (a, b, nondet, nondetDefault) => {
        const options = { inputs: new Map([['a', a], ['b', b]]), nondet, nondetDefault, maxSteps: 5_000 };
        const original = runProgram(p, options);
        kinds.add(original.outcome.kind);
        if (original.outcome.kind === 'step-limit') {
          // Inlining never saves steps (a call edge becomes at least a prologue and an epilogue edge).
          t.is(runProgram(inlined, options).outcome.kind, 'step-limit');
        } else {
          // …and costs a bounded number of extra steps per call: give the copy room for them.
          const copy = runProgram(inlined, { ...options, maxSteps: 4 * options.maxSteps });
          t.deepEqual(observable(copy), observable(original));
        }
      },
    ),
    { numRuns: 300, seed: 4 },
  );
  // The property only means something if the runs cover the interesting outcomes.
  for (const k of ['exit', 'assertion-failed', 'nondet-out-of-range', 'nondet-exhausted', 'step-limit']) t.true(kinds.has(k), k);
});

test('a recursive entry keeps its self-calls and inlines its other callees', (t) => {
  const p = new ProgramBuilder()
    .procedure('dec', { params: ['n'], returns: true }, (b) => b.return('n - 1'))
    .procedure('down', { params: ['n'], returns: true }, (b) =>
      b.if('n <= 0', (th) => th.return(0), (el) => el.call('m', 'dec', ['n']).call('r', 'down', ['m']).return('r + 2')),
    )
    .build();
  const { program, recursiveCalls } = inlineCalls(p, 'down');
  t.deepEqual(recursiveCalls.map((c) => c.callee), ['down']);
  t.false(program.procedures.get('down')!.edges.some((e) => e.stmt.kind === 'call' && e.stmt.callee === 'dec'));
  for (const n of [-1n, 0n, 1n, 7n]) {
    const options = { inputs: new Map([['n', n]]) };
    t.deepEqual(runProgram(program, options).outcome, runProgram(p, options).outcome);
  }
});

test('a call edge leaving a choice location keeps its place in the choice order', (t) => {
  const main = new ProcedureBuilder('main', { returns: true });
  const left = main.newLocation();
  main.markChoice(main.entry);
  main.edge(main.entry, left, stmt.call('x', 'seven', [])); // smaller id: taken on non-zero
  main.edge(main.entry, left, stmt.assign('x', 1));
  main.edge(left, main.exit, stmt.assign('retval', 'x'));
  main.close();
  const p = new ProgramBuilder()
    .procedure('seven', { returns: true }, (b) => b.assign('s', 3).return('s + 4'))
    .add(main.build())
    .entry('main')
    .build();
  const { program } = inlineCalls(p);
  t.deepEqual(runProgram(program, { nondet: [1n] }).outcome, { kind: 'exit', returnValue: 7n });
  t.deepEqual(runProgram(program, { nondet: [0n] }).outcome, { kind: 'exit', returnValue: 1n });
  t.deepEqual(runProgram(p, { nondet: [1n] }).outcome, { kind: 'exit', returnValue: 7n });
});
