import test from 'ava';
import { InputError } from '../diagnostics.js';
import { program, ProcedureBuilder, ProgramBuilder, stmt } from '../ir/testing/builder.js';
import type { Program } from '../ir/cfg.js';
import { formatRunResult, runProgram, runResultToJson, type RunResult } from './index.js';

function returned(r: RunResult): bigint | null {
  if (r.outcome.kind !== 'exit') throw new Error(`expected a normal exit, got ${r.outcome.kind}`);
  return r.outcome.returnValue;
}

test('straight-line code computes with exact integers', (t) => {
  const p = program((p) =>
    p.procedure('main', { params: ['a'], returns: true }, (b) =>
      b.assign('x', 'a * 3 + 1').assign('y', '2*x - a').assign('x', '123456789012345678901234567890 + y').return('x - 1'),
    ),
  );
  const r = runProgram(p, { inputs: new Map([['a', 5n]]) });
  // x = 16, y = 27, x = 1234…890 + 27, return that - 1
  t.is(returned(r), 123456789012345678901234567890n + 26n);
  t.is(r.steps, 4);
  t.deepEqual([...r.inputs], [['a', 5n]]);
  t.deepEqual(r.inputsFromNondet, []);
});

test('a loop runs to its exit and counts steps', (t) => {
  const p = program((p) =>
    p.procedure('main', { params: ['n'], returns: true }, (b) =>
      b.assign('i', 0).assign('s', 0).while('i < n', (l) => l.assign('i', 'i + 1').assign('s', 's + i')).return('s'),
    ),
  );
  t.is(returned(runProgram(p, { inputs: new Map([['n', 10n]]) })), 55n);
  t.is(returned(runProgram(p, { inputs: new Map([['n', -3n]]) })), 0n);
});

test('nested loops', (t) => {
  const p = program((p) =>
    p.procedure('main', { params: ['n'], returns: true }, (b) =>
      b
        .assign('c', 0)
        .assign('i', 0)
        .while('i < n', (o) =>
          o.assign('j', 0).while('j < i', (inner) => inner.assign('c', 'c + 1').assign('j', 'j + 1')).assign('i', 'i + 1'),
        )
        .return('c'),
    ),
  );
  for (const n of [0n, 1n, 5n, 12n]) t.is(returned(runProgram(p, { inputs: new Map([['n', n]]) })), (n * (n - 1n)) / 2n);
});

test('choice locations consume one value: non-zero takes the then-branch / loop body', (t) => {
  const p = program((p) =>
    p.procedure('main', { returns: true }, (b) =>
      b
        .assign('x', 0)
        .ifChoice(
          (th) => th.assign('x', 10),
          (el) => el.assign('x', 20),
        )
        .whileChoice((body) => body.assign('x', 'x + 1'))
        .return('x'),
    ),
  );
  t.is(returned(runProgram(p, { nondet: [1n, 0n] })), 10n);
  t.is(returned(runProgram(p, { nondet: [0n, 5n, -1n, 7n, 0n] })), 23n);
  const r = runProgram(p, { nondet: [0n, 5n, -1n, 7n, 0n] });
  t.deepEqual(r.nondetConsumed, [0n, 5n, -1n, 7n, 0n]);
  t.is(r.nondetDefaulted, 0);
});

test('the stream runs out: default value or nondet-exhausted', (t) => {
  const p = program((p) =>
    p.procedure('main', { returns: true }, (b) => b.assign('c', 0).whileChoice((body) => body.assign('c', 'c + 1')).return('c')),
  );
  const withDefault = runProgram(p, { nondet: [1n, 1n, 1n] });
  t.is(returned(withDefault), 3n);
  t.is(withDefault.nondetDefaulted, 1);
  t.deepEqual(withDefault.nondetConsumed, [1n, 1n, 1n, 0n]);

  const strict = runProgram(p, { nondet: [1n, 1n], nondetDefault: null });
  t.is(strict.outcome.kind, 'nondet-exhausted');
  t.deepEqual(strict.nondetConsumed, [1n, 1n]);

  // A non-zero default keeps choosing the loop body until the step limit.
  const forever = runProgram(p, { nondetDefault: 1n, maxSteps: 1000 });
  t.like(forever.outcome, { kind: 'step-limit', limit: 'steps', max: 1000 });
  t.is(forever.steps, 1000);
});

test('havoc ranges: values outside the C type range make the run impossible', (t) => {
  const p = program((p) =>
    p.procedure('main', { returns: true }, (b) => b.at(7).havoc('c', { lo: -128n, hi: 127n }).return('c')),
  );
  t.is(returned(runProgram(p, { nondet: [-128n] })), -128n);
  t.is(returned(runProgram(p, { nondet: [127n] })), 127n);
  const r = runProgram(p, { nondet: [128n] });
  t.like(r.outcome, { kind: 'nondet-out-of-range', value: 128n, range: { lo: -128n, hi: 127n }, pos: { line: 7 } });
  // Unranged havocs take any integer.
  const q = program((p) => p.procedure('main', { returns: true }, (b) => b.havoc('c').return('c')));
  t.is(returned(runProgram(q, { nondet: [10n ** 30n] })), 10n ** 30n);
});

test('missing inputs come from the stream in parameter order and are reported', (t) => {
  const p = program((p) => p.procedure('main', { params: ['a', 'b', 'c'], returns: true }, (b) => b.return('100*a + 10*b + c')));
  const r = runProgram(p, { inputs: new Map([['b', 5n]]), nondet: [1n, 3n] });
  t.is(returned(r), 153n);
  t.deepEqual(r.inputsFromNondet, ['a', 'c']);
  t.deepEqual([...r.inputs], [['a', 1n], ['b', 5n], ['c', 3n]]);
  t.deepEqual(r.nondetConsumed, [1n, 3n]);
});

test('unknown entry or input names are input errors', (t) => {
  const p = program((p) => p.procedure('main', { params: ['a'] }, (b) => b.skip()));
  const e1 = t.throws(() => runProgram(p, { entry: 'nope' }), { instanceOf: InputError });
  t.regex(e1!.message, /unknown function 'nope' \(defined: main\)/);
  const e2 = t.throws(() => runProgram(p, { inputs: new Map([['z', 1n]]) }), { instanceOf: InputError });
  t.regex(e2!.message, /'main' has no parameter 'z' \(parameters: a\)/);
});

test('a failing assertion reports its position, procedure, edge and a trace', (t) => {
  const p = program((p) =>
    p.procedure('main', { params: ['n'] }, (b) =>
      b
        .at(2)
        .assign('x', 0)
        .at(3)
        .while('x < n', (l) => l.at(4).assign('x', 'x + 2'))
        .at(6)
        .assert('x == n'),
    ),
  );
  t.is(runProgram(p, { inputs: new Map([['n', 4n]]) }).outcome.kind, 'exit');
  const r = runProgram(p, { inputs: new Map([['n', 3n]]), recordTrace: true });
  t.like(r.outcome, { kind: 'assertion-failed', procedure: 'main', pos: { file: 'test.c', line: 6 } });
  const main = p.procedures.get('main')!;
  const failed = r.outcome.kind === 'assertion-failed' ? main.edges[r.outcome.edge]! : null;
  t.is(failed?.stmt.kind, 'assert');
  const trace = r.trace!;
  t.is(trace.length, r.steps);
  t.is(trace[trace.length - 1]!.text, 'assert(x == n)');
  t.deepEqual(
    trace.filter((s) => s.values.has('x')).map((s) => s.values.get('x')),
    [0n, 2n, 4n],
  );
  const text = formatRunResult(r, p);
  t.regex(text, /^test\.c:6: assertion failed \(in main\)/);
  t.regex(text, /visited lines: 2 \(3 4\)×2 3 6/);
  t.regex(text, /inputs: n=3/);
});

test('assume blocked and deterministic branches', (t) => {
  const p = program((p) =>
    p.procedure('main', { params: ['x'], returns: true }, (b) =>
      b
        .at(1)
        .if(
          'x > 0',
          (th) => th.assign('y', 1),
          (el) => el.assign('y', -1),
        )
        .at(5)
        .assume('y != x')
        .return('y'),
    ),
  );
  t.is(returned(runProgram(p, { inputs: new Map([['x', 3n]]) })), 1n);
  t.is(returned(runProgram(p, { inputs: new Map([['x', -3n]]) })), -1n);
  const r = runProgram(p, { inputs: new Map([['x', 1n]]) });
  t.like(r.outcome, { kind: 'assume-blocked', procedure: 'main', pos: { line: 5 } });
  t.regex(formatRunResult(r, p), /test\.c:5: run blocked/);
});

test('two enabled edges at a deterministic location are an internal IR error', (t) => {
  const b = new ProcedureBuilder('main', { params: ['x'] });
  const mid = b.newLocation();
  b.edge(b.entry, mid, stmt.assume('x >= 0'));
  b.edge(b.entry, mid, stmt.assume('x <= 0'));
  b.edge(mid, b.exit, stmt.skip());
  b.close();
  const p = new ProgramBuilder().add(b.build()).build();
  t.is(runProgram(p, { inputs: new Map([['x', 1n]]) }).outcome.kind, 'exit');
  t.is(runProgram(p, { inputs: new Map([['x', -1n]]) }).outcome.kind, 'exit');
  const e = t.throws(() => runProgram(p, { inputs: new Map([['x', 0n]]) }));
  t.regex(e!.message, /internal IR error: location 0 of main is not a choice location but edges 0 and 1 are both enabled/);
});

test('a location without outgoing edges (other than the exit) blocks the run', (t) => {
  const b = new ProcedureBuilder('main', {});
  b.edge(b.entry, b.newLocation({ line: 9 }), stmt.skip(), 8);
  b.close();
  const p = new ProgramBuilder().add(b.build()).build();
  t.like(runProgram(p).outcome, { kind: 'assume-blocked', pos: { line: 9 } });
});

test('globals are shared with callees and start at their initial values', (t) => {
  const p = new ProgramBuilder()
    .global('g', 7)
    .global('calls', 0)
    .procedure('bump', { params: ['d'], returns: true }, (b) => b.assign('calls', 'calls + 1').assign('g', 'g + d').return('g'))
    .procedure('main', { returns: true }, (b) => b.call('r', 'bump', [3]).call(null, 'bump', ['r']).return('g + r'))
    .build();
  const r = runProgram(p);
  // g: 7 → 10 (r = 10) → 20; result 30
  t.is(returned(r), 30n);
  t.deepEqual([...r.globals], [['g', 20n], ['calls', 2n]]);
});

test('calls are by value: the callee cannot change the caller’s variables', (t) => {
  const p = new ProgramBuilder()
    .procedure('clobber', { params: ['x'], returns: true }, (b) => b.assign('x', 'x + 100').return('x'))
    .procedure('main', { returns: true }, (b) => b.assign('x', 1).call('y', 'clobber', ['x']).return('10 * x + y'))
    .build();
  t.is(returned(runProgram(p)), 10n + 101n);
});

function mcCarthy(): Program {
  return new ProgramBuilder()
    .procedure('M', { params: ['n'], returns: true }, (b) =>
      b.if(
        'n > 100',
        (th) => th.return('n - 10'),
        (el) => el.call('t', 'M', ['n + 11']).call('u', 'M', ['t']).return('u'),
      ),
    )
    .procedure('main', { returns: true }, (b) => b.call('a', 'M', [19]).call('c', 'M', [119]).return('a + c'))
    .build();
}

test('recursion: McCarthy 91', (t) => {
  const p = mcCarthy();
  t.is(returned(runProgram(p, { entry: 'M', inputs: new Map([['n', 19n]]) })), 91n);
  t.is(returned(runProgram(p, { entry: 'M', inputs: new Map([['n', 119n]]) })), 109n);
  t.is(returned(runProgram(p)), 200n);
  for (let n = -20n; n <= 101n; n += 7n) t.is(returned(runProgram(p, { entry: 'M', inputs: new Map([['n', n]]) })), 91n);
});

test('recursion: factorial by repeated addition', (t) => {
  const p = new ProgramBuilder()
    .procedure('mul', { params: ['a', 'b'], returns: true }, (b) =>
      b.assign('r', 0).assign('i', 0).while('i < b', (l) => l.assign('r', 'r + a').assign('i', 'i + 1')).return('r'),
    )
    .procedure('fact', { params: ['n'], returns: true }, (b) =>
      b.if(
        'n <= 1',
        (th) => th.return(1),
        (el) => el.call('f', 'fact', ['n - 1']).call('p', 'mul', ['n', 'f']).return('p'),
      ),
    )
    .build();
  t.is(returned(runProgram(p, { entry: 'fact', inputs: new Map([['n', 7n]]) })), 5040n);
});

test('deep recursion (100,000 frames) does not overflow the JS stack', (t) => {
  const p = new ProgramBuilder()
    .procedure('sum', { params: ['n'], returns: true }, (b) =>
      b.if(
        'n <= 0',
        (th) => th.return(0),
        (el) => el.call('r', 'sum', ['n - 1']).return('r + n'),
      ),
    )
    .build();
  const n = 100_000n;
  t.is(returned(runProgram(p, { entry: 'sum', inputs: new Map([['n', n]]) })), (n * (n + 1n)) / 2n);
  const limited = runProgram(p, { entry: 'sum', inputs: new Map([['n', n]]), maxCallDepth: 500 });
  t.like(limited.outcome, { kind: 'step-limit', limit: 'call-depth', max: 500 });
});

test('call and return steps appear in the trace with depths', (t) => {
  const p = new ProgramBuilder()
    .procedure('inc', { params: ['v'], returns: true }, (b) => b.return('v + 1'))
    .procedure('main', { returns: true }, (b) => b.call('y', 'inc', [41]).return('y'))
    .build();
  const r = runProgram(p, { recordTrace: true });
  t.is(returned(r), 42n);
  t.deepEqual(
    r.trace!.map((s) => [s.kind, s.procedure, s.depth, s.text, Object.fromEntries(s.values)]),
    [
      ['call', 'main', 0, 'y = inc(41)', { v: 41n }],
      ['edge', 'inc', 1, 'retval = v + 1', { retval: 42n }],
      ['return', 'main', 0, 'return from inc', { y: 42n }],
      ['edge', 'main', 0, 'retval = y', { retval: 42n }],
    ],
  );
  t.is(r.steps, 3);
});

test('a replay with the consumed values reproduces the run exactly', (t) => {
  const p = program((p) =>
    p.procedure('main', { params: ['n'], returns: true }, (b) =>
      b
        .assign('s', 0)
        .whileChoice((l) =>
          l.havoc('d', { lo: -5n, hi: 5n }).ifChoice(
            (th) => th.assign('s', 's + d'),
            (el) => el.assign('s', 's - n'),
          ),
        )
        .assert('s < 7')
        .return('s'),
    ),
  );
  const first = runProgram(p, { nondet: [2n, 1n, 4n, 1n, 1n, 3n, 1n, 9n, 0n, 3n, 0n], recordTrace: true });
  const replay = runProgram(p, { inputs: first.inputs, nondet: first.nondetConsumed.slice(first.inputsFromNondet.length), nondetDefault: null, recordTrace: true });
  const expected = runResultToJson(first);
  t.deepEqual(runResultToJson(replay), { ...expected, inputsFromNondet: [], nondetConsumed: (expected.nondetConsumed as string[]).slice(1), nondetDefault: null });
  t.is(first.outcome.kind, 'assertion-failed'); // n = 2; s = 4 + 3 = 7 fails s < 7
});

test('JSON output uses decimal strings for bigints', (t) => {
  const p = program((p) => p.procedure('main', { params: ['a'], returns: true }, (b) => b.return('a * 1000000000000')));
  const json = runResultToJson(runProgram(p, { inputs: new Map([['a', 123456789n]]), recordTrace: true }));
  t.deepEqual(json.outcome, { kind: 'exit', returnValue: '123456789000000000000' });
  t.deepEqual(json.inputs, { a: '123456789' });
  t.notThrows(() => JSON.stringify(json));
});

test('watch: the first k states at a watched loop head and the last one, as a full trace shows them', async (t) => {
  const { statesAlong } = await import('../observe/samples.js');
  const p = program((p) =>
    p.procedure('main', { params: ['n'], returns: true }, (b) =>
      b.assign('i', 0).assign('s', 0).while('i < n', (l) => l.assign('i', 'i + 1').assign('s', 's + i')).return('s'),
    ),
  );
  const proc = p.procedures.get('main')!;
  const heads = new Set(proc.locations.filter((l) => l.loopHeader).map((l) => l.id));
  t.is(heads.size, 1);
  const inputs = new Map([['n', 10n]]);
  const traced = statesAlong(p, 'main', runProgram(p, { inputs, recordTrace: true }), heads);
  const watched = runProgram(p, { inputs, watch: { locations: heads, firstAndLast: 3 } }).watched!;
  const [head] = [...heads];
  const all = traced.get(head!)!;
  t.is(all.length, 11);
  t.deepEqual(watched.get(head!)!.map((s) => [...s]), [...all.slice(0, 3), all[10]!].map((s) => [...s]));
  // Without a limit every visit is kept.
  t.deepEqual(runProgram(p, { inputs, watch: { locations: heads } }).watched!.get(head!)!.map((s) => [...s]), all.map((s) => [...s]));
});

test('watch corners: the first and last visits and those where the change between visits turns', (t) => {
  // Three phases at the loop head: x steps by 1 (y fixed), then by 2 with y, then the exit state.
  const p = program((p) =>
    p.procedure('main', { params: ['n'], returns: true }, (b) =>
      b.assign('x', 0).assign('y', 0)
        .while('x < n', (l) => l.if('x < 5', (th) => th.assign('x', 'x + 1'), (el) => el.assign('x', 'x + 2').assign('y', 'y + 1')))
        .return('y'),
    ),
  );
  const heads = new Set(p.procedures.get('main')!.locations.filter((l) => l.loopHeader).map((l) => l.id));
  const [head] = [...heads];
  const inputs = new Map([['n', 20n]]);
  const all = runProgram(p, { inputs, watch: { locations: heads } }).watched!.get(head!)!;
  const xs = (states: readonly ReadonlyMap<string, bigint>[]) => states.map((s) => `${s.get('x')},${s.get('y')}`);
  t.deepEqual(xs(all), ['0,0', '1,0', '2,0', '3,0', '4,0', '5,0', '7,1', '9,2', '11,3', '13,4', '15,5', '17,6', '19,7', '21,8']);
  // The path turns at 5,0 (steps (1,0), then (2,1)); the visits between kept ones lie on segments.
  t.deepEqual(xs(runProgram(p, { inputs, watch: { locations: heads, corners: 64 } }).watched!.get(head!)!), ['0,0', '5,0', '21,8']);
  // At most `corners` states besides the last visit.
  const zigzag = program((p) =>
    p.procedure('main', { params: ['n'], returns: true }, (b) =>
      b.assign('x', 0).assign('y', 0).while('x < n', (l) => l.assign('x', 'x + 1').assign('y', '1 - y')).return('y'),
    ),
  );
  const zigzagHeads = new Set(zigzag.procedures.get('main')!.locations.filter((l) => l.loopHeader).map((l) => l.id));
  const every = runProgram(zigzag, { inputs, watch: { locations: zigzagHeads } }).watched!.get([...zigzagHeads][0]!)!;
  t.deepEqual(xs(runProgram(zigzag, { inputs, watch: { locations: zigzagHeads, corners: 64 } }).watched!.get([...zigzagHeads][0]!)!), xs(every));
  t.deepEqual(xs(runProgram(zigzag, { inputs, watch: { locations: zigzagHeads, corners: 3 } }).watched!.get([...zigzagHeads][0]!)!), [...xs(every).slice(0, 3), '20,0']);
});

test('interrupted ends a run as at its step limit', (t) => {
  const p = program((p) => p.procedure('main', { params: [], returns: true }, (b) => b.assign('x', 0).while('x < 1000000000', (l) => l.assign('x', 'x + 1')).return('x')));
  let asked = 0;
  const run = runProgram(p, { maxSteps: 10_000_000, interrupted: () => ++asked >= 3 });
  t.is(run.outcome.kind, 'step-limit');
  t.is(asked, 3);
  t.true(run.steps < 300_000);
});
