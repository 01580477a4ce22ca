// The text and Graphviz renderings of the IR.
import test from 'ava';
import type { Procedure, Program } from './cfg.js';
import * as F from './formula.js';
import * as L from './linear.js';
import { printEdge, printProgram, printStmt, programToDot } from './print.js';

const pos = (line: number, col = 1) => ({ file: 'p.c', line, col });

// Built by hand (not through the front end) so the printer is tested on its own.
const counter: Procedure = {
  name: 'count',
  params: ['n'],
  locals: ['i', '__ret'],
  returnVar: '__ret',
  entry: 0,
  exit: 4,
  pos: pos(1, 5),
  locations: [
    { id: 0, loopHeader: false, label: 'entry', pos: pos(1, 5) },
    { id: 1, loopHeader: true, label: 'loop', pos: pos(3, 3) },
    { id: 2, loopHeader: false, choice: true },
    { id: 3, loopHeader: false },
    { id: 4, loopHeader: false, label: 'exit' },
  ],
  edges: [
    { id: 0, from: 0, to: 1, stmt: { kind: 'assign', target: 'i', expr: L.constant(0n) }, pos: pos(2) },
    { id: 1, from: 1, to: 2, stmt: { kind: 'assume', cond: F.compare(L.variable('i'), '<', L.variable('n')) }, pos: pos(3) },
    { id: 2, from: 1, to: 3, stmt: { kind: 'assume', cond: F.compare(L.variable('i'), '>=', L.variable('n')) }, pos: pos(3) },
    { id: 3, from: 2, to: 1, stmt: { kind: 'skip' }, pos: pos(4) },
    { id: 4, from: 2, to: 1, stmt: { kind: 'assign', target: 'i', expr: L.addConstant(L.variable('i'), 1n) }, pos: pos(4) },
    { id: 5, from: 3, to: 4, stmt: { kind: 'call', target: '__ret', callee: 'count', args: [L.addConstant(L.variable('n'), -1n), L.constant(2n)] }, pos: pos(6) },
  ],
};

const program: Program = {
  file: 'p.c',
  globals: [{ name: 'g', init: 7n }],
  procedures: new Map([['count', counter]]),
  entry: 'count',
};

test('statements print in C-like syntax', (t) => {
  t.is(printStmt({ kind: 'assign', target: 'x', expr: L.fromTerms([['y', 2n]], -3n) }), 'x := 2 * y - 3');
  t.is(printStmt({ kind: 'havoc', target: 'x' }), 'havoc x');
  t.is(printStmt({ kind: 'havoc', target: 'b', range: { lo: 0n, hi: 1n } }), 'havoc b in [0, 1]');
  t.is(printStmt({ kind: 'assume', cond: F.FALSE }), 'assume(0)');
  t.is(printStmt({ kind: 'assert', cond: F.compare(L.variable('y'), '>', L.constant(0n)) }), 'assert(y >= 1)');
  t.is(printStmt({ kind: 'call', target: null, callee: 'f', args: [] }), 'f()');
  t.is(printStmt({ kind: 'skip' }), 'skip');
  t.is(printEdge(counter.edges[4]!), 'L2 -> L1  [line 4]  i := i + 1');
});

test('printProgram lists globals, procedures, locations with their roles, and edges', (t) => {
  t.is(
    printProgram(program),
    [
      'program p.c  (entry: count)',
      'globals: g = 7',
      '',
      'procedure count(n) returns __ret  [line 1]',
      '  locals: i, __ret',
      '  L0 [entry] at line 1:5',
      '    L0 -> L1  [line 2]  i := 0',
      '  L1 [loop header] at line 3:3',
      '    L1 -> L2  [line 3]  assume(n >= i + 1)',
      '    L1 -> L3  [line 3]  assume(i >= n)',
      '  L2 [choice]',
      '    L2 -> L1  [line 4]  skip',
      '    L2 -> L1  [line 4]  i := i + 1',
      '  L3',
      '    L3 -> L4  [line 6]  __ret := count(n - 1, 2)',
      '  L4 [exit]',
      '',
    ].join('\n'),
  );
});

test('programToDot: one cluster per procedure, escaped labels, marked loop headers and choices', (t) => {
  const dot = programToDot({ ...program, file: 'we"ird.c' });
  t.true(dot.startsWith('digraph "we\\"ird.c" {'));
  t.is(dot.match(/subgraph cluster_/g)?.length, 1);
  t.true(dot.includes('"count:L1" [label="L1", style=bold, color=blue, tooltip="loop header"];'));
  t.true(dot.includes('"count:L2" [label="L2", shape=diamond, tooltip="choice"];'));
  t.true(dot.includes('"count:L2" -> "count:L1" [label="i := i + 1"];'));
  t.true(dot.trimEnd().endsWith('}'));
  t.is(programToDot(program, 'nothing').match(/subgraph/g), null, 'only the requested procedure');
});
