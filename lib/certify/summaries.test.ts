// The certificate checker's `summaries` option: assume-guarantee proofs for recursive procedures.
import test from 'ava';
import { parseProgram } from '../frontend/index.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { returnName } from '../ir/summary-names.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { checkInvariants, type SummaryPairCertificate } from './certificate.js';

test.after.always(async () => {
  await shutdownZ3();
});

const ADD = `int Add(int i, int j) {
  int ret;
  if (i <= 0) { ret = j; } else { int b = i - 1; int c = j + 1; ret = Add(b, c); }
  return ret;
}
void IP1() { int x = 5; int y = 3; int result = Add(x, y); assert(result == 8); }
`;

const MCCARTHY = `int M(int n) { if (n > 100) return n - 10; return M(M(n + 11)); }
void IP2() { int result = M(19) + M(119); assert(result == 200); }
`;

const v = (name: string) => L.variable(name);
const geq = (a: L.Linear, k: number) => F.geqZero(L.addConstant(a, BigInt(-k))); // a >= k
const leq = (a: L.Linear, k: number) => F.geqZero(L.addConstant(L.negate(a), BigInt(k))); // a <= k
const eq = (a: L.Linear, b: L.Linear) => F.eqZero(L.sub(a, b));

function pair(pre: Formula, post: Formula): SummaryPairCertificate {
  return { pre, post, invariants: new Map() };
}

test('Fig. 3(a): the pair i >= 0 => \\result == i + j proves Add and IP1', async (t) => {
  const program = parseProgram(ADD, 'add.c');
  const summaries = new Map([['Add', [pair(geq(v('i'), 0), eq(v(returnName('Add')), L.add(v('i'), v('j'))))]]]);
  const result = await checkInvariants(program, 'IP1', new Map(), { summaries });
  t.true(result.valid, result.reason);
  // IP1's assertion, and Add's body: the exit postcondition on both branches.
  t.true(result.obligations.some((o) => o.kind === 'safety'));
  t.true(result.obligations.some((o) => o.kind === 'exit'));
});

test('Fig. 3(a): a post-condition the body does not establish is refuted, naming the procedure and pair', async (t) => {
  const program = parseProgram(ADD, 'add.c');
  // \result == j holds in the base case only.
  const summaries = new Map([['Add', [pair(geq(v('i'), 0), eq(v(returnName('Add')), v('j')))]]]);
  const result = await checkInvariants(program, 'IP1', new Map(), { summaries });
  t.false(result.valid);
  t.regex(result.reason ?? '', /'Add' under pair 1/);
  t.true(result.obligations.some((o) => o.kind === 'exit' && o.status === 'refuted'));
});

test('Fig. 3(a): a valid summary too weak for the caller fails the caller\'s assertion', async (t) => {
  const program = parseProgram(ADD, 'add.c');
  // i <= 0 => \result == j is true of Add, but says nothing about Add(5, 3).
  const summaries = new Map([['Add', [pair(leq(v('i'), 0), eq(v(returnName('Add')), v('j')))]]]);
  const result = await checkInvariants(program, 'IP1', new Map(), { summaries });
  t.false(result.valid);
  t.regex(result.reason ?? '', /function 'IP1'/);
  t.notRegex(result.reason ?? '', /'Add' under pair/);
});

test('McCarthy 91: two pairs together prove IP2; either pair alone does not', async (t) => {
  const program = parseProgram(MCCARTHY, 'm91.c');
  const ret = v(returnName('M'));
  const p1 = pair(F.and(geq(v('n'), 101), leq(v('n'), 119)), eq(ret, L.addConstant(v('n'), -10n)));
  const p2 = pair(leq(v('n'), 100), eq(ret, L.constant(91n)));
  const both = await checkInvariants(program, 'IP2', new Map(), { summaries: new Map([['M', [p1, p2]]]) });
  t.true(both.valid, both.reason);
  const onlySecond = await checkInvariants(program, 'IP2', new Map(), { summaries: new Map([['M', [p2]]]) });
  t.false(onlySecond.valid);
});

test('calls without a summary, summaries of procedures that write globals, and foreign variables are rejected', async (t) => {
  const program = parseProgram(ADD, 'add.c');
  const none = await checkInvariants(program, 'IP1', new Map(), { summaries: new Map() });
  t.false(none.valid);
  t.regex(none.reason ?? '', /call of 'Add'/);
  const foreign = await checkInvariants(program, 'IP1', new Map(), { summaries: new Map([['Add', [pair(geq(v('x'), 0), F.TRUE)]]]) });
  t.false(foreign.valid);
  t.regex(foreign.reason ?? '', /'x', not an input/);
  const writer = parseProgram('int g;\nint f(int n) { g = n; if (n <= 0) return 0; return f(n - 1); }\nvoid main() { int r = f(3); assert(r == 0); }\n', 'w.c');
  const result = await checkInvariants(writer, 'main', new Map(), { summaries: new Map([['f', [pair(F.TRUE, eq(v(returnName('f')), L.constant(0n)))]]]) });
  t.false(result.valid);
  t.regex(result.reason ?? '', /writes global 'g'/);
});

test('a summarised procedure with an assertion is rejected: calls outside every pre-condition would go unchecked', async (t) => {
  const program = parseProgram('int f(int n) { assert(n >= 0); if (n <= 0) return 0; return f(n - 1); }\nvoid main() { int r = f(-5); }\n', 'a.c');
  // f's body is proved under n >= 0 and main's call assumes only n >= 0 => ..., yet main fails f's assertion.
  const result = await checkInvariants(program, 'main', new Map(), { summaries: new Map([['f', [pair(geq(v('n'), 0), F.TRUE)]]]) });
  t.false(result.valid);
  t.regex(result.reason ?? '', /contains an assertion/);
});

