import test from 'ava';
import { program } from '../ir/testing/builder.js';
import { runProgram } from './index.js';

// The front end's lowering of `x / 3` (truncation toward zero): q := ?; assume(one q fits).
const quotient = program((p) =>
  p.procedure('main', { params: ['x'], returns: true }, (b) =>
    b
      .havoc('q')
      .assume('(x >= 0 && x - 3*q >= 0 && 3*q - x + 2 >= 0) || (x <= -1 && x - 3*q + 2 >= 0 && 3*q - x >= 0)')
      .return('q'),
  ),
);

test('past the stream, a quotient is computed from the assumption that pins it', (t) => {
  for (let x = -10n; x <= 10n; x++) {
    const r = runProgram(quotient, { inputs: new Map([['x', x]]), nondetDefault: null });
    t.deepEqual(r.outcome, { kind: 'exit', returnValue: x / 3n }, `x = ${x}`);
    t.is(r.nondetSolved, 1);
    t.deepEqual(r.nondetConsumed, [x / 3n]);
  }
});

test('a given stream value is used as is, even when it blocks the run', (t) => {
  const r = runProgram(quotient, { inputs: new Map([['x', 7n]]), nondet: [5n] });
  t.is(r.outcome.kind, 'assume-blocked');
  t.is(r.nondetSolved, 0);
});

test('assumptions that leave several values or none do not pin: the default applies', (t) => {
  const several = program((p) => p.procedure('main', { returns: true }, (b) => b.havoc('v').assume('v > 5').return('v')));
  t.is(runProgram(several).outcome.kind, 'assume-blocked');
  t.deepEqual(runProgram(several, { nondetDefault: 9n }).outcome, { kind: 'exit', returnValue: 9n });

  const half = program((p) => p.procedure('main', { params: ['x'], returns: true }, (b) => b.havoc('h').assume('2*h == x').return('h')));
  t.deepEqual(runProgram(half, { inputs: new Map([['x', -8n]]) }).outcome, { kind: 'exit', returnValue: -4n });
  const odd = runProgram(half, { inputs: new Map([['x', 7n]]), nondetDefault: null });
  t.is(odd.outcome.kind, 'nondet-exhausted');
});
