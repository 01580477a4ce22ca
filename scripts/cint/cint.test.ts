// The gcc-differential tester (scripts/cint/, issue 18) in CI: a fixed set of random programs over all
// integer types must behave in farkas's interpreter exactly as compiled by gcc; and the tester's own
// parts — the generator, the two texts, the batch runner, the verdicts — are checked on their own, so
// that "no difference" means something.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { CProgram, Decl, Expr, Stmt } from './ast.js';
import { checkPrograms, isFailure, judge, type FarkasResult } from './compare.js';
import { classifyUb, runGccBatch, type GccProgramResult } from './gcc.js';
import { generateProgram } from './generate.js';
import { farkasText, gccText, literalText, printBody } from './print.js';
import { evaluate } from './reference.js';
import type { DataModel, IntType } from './types.js';
import { runPrograms } from '../gcc-differential.js';

test.before(() => {
  try {
    execFileSync('gcc', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('the gcc-differential tests need gcc on PATH');
  }
});

// ---- The acceptance test of issue 18 -----------------------------------------------------------------
// 600 programs (300 ILP32, 300 LP64; seed 18) over all integer types: farkas must agree with gcc on
// every one (same final globals, or the same signed overflow on the same line). Run it alone with
//   npx tsc -p tsconfig.json && npx ava dist/scripts/cint/cint.test.js --match '*issue 18*'
// and investigate a failure with the CLI, which saves each failing program:
//   node dist/scripts/gcc-differential.js --count 600 --seed 18 --data-model both
test('issue 18: farkas agrees with gcc on 600 random programs over all integer types (ILP32 and LP64)', async (t) => {
  const report = await checkPrograms(runPrograms(600, 18, 'both', 'all'), { batch: 100 });
  const failing = report.programs.filter((r) => isFailure(r.verdict));
  for (const r of failing.slice(0, 10)) t.log(`${r.id} ${r.verdict}: ${r.detail.join('; ')}`);
  t.log(Object.entries(report.counts).map(([v, n]) => `${v} ${n}`).join(', '));
  t.is(failing.length, 0);
  // The set exercises what it is meant to: most programs run to the end, and some overflow.
  t.true(report.counts.agree >= 450);
  t.true(report.counts['ub-agree'] + report.counts['ub-differ'] > 0);
});

// ---- The generator -------------------------------------------------------------------------------------

test('the generator is deterministic for a seed and index, and programs differ across them', (t) => {
  for (const dataModel of ['ILP32', 'LP64'] as const) {
    for (let k = 0; k < 20; k++) {
      const a = generateProgram(5, k, { dataModel });
      const b = generateProgram(5, k, { dataModel });
      t.is(farkasText(a), farkasText(b));
      t.is(gccText(a), gccText(b));
      t.deepEqual([...a.inputs], [...b.inputs]);
    }
  }
  t.not(farkasText(generateProgram(5, 0, { dataModel: 'LP64' })), farkasText(generateProgram(6, 0, { dataModel: 'LP64' })));
  t.not(farkasText(generateProgram(5, 0, { dataModel: 'LP64' })), farkasText(generateProgram(5, 1, { dataModel: 'LP64' })));
});

test('generated programs stay in the supported subset and keep their shape', (t) => {
  for (let k = 0; k < 100; k++) {
    const p = generateProgram(9, k, { dataModel: k % 2 === 0 ? 'ILP32' : 'LP64' });
    const text = farkasText(p);
    t.false(/[^&]&[^&]|[^|]\|[^|]|\^/.test(text), text); // no bitwise & | ^
    t.regex(text, /^void f\(/m);
    for (const q of [...p.params, ...p.locals]) t.true(p.globals.some((g) => g.name === `r_${q.name}` && g.type === q.type));
    const only = farkasText(generateProgram(9, k, { dataModel: 'ILP32', types: 'signed-only' }));
    t.false(/unsigned|~|<<|>>|\d[lL]*[uU]/.test(only), only);
  }
});

test('the gcc text compiles stand-alone and prints what the batch prints', async (t) => {
  const programs = [0, 1, 2, 3, 4, 5].map((k) => generateProgram(21, k, { dataModel: k % 2 === 0 ? 'ILP32' : 'LP64' }));
  const batch = await runGccBatch(programs);
  const dir = mkdtempSync(join(tmpdir(), 'cint-test-'));
  try {
    programs.forEach((p, k) => {
      const src = join(dir, `p${k}.c`);
      const exe = join(dir, `p${k}`);
      writeFileSync(src, gccText(p));
      execFileSync('gcc', ['-O0', '-fsanitize=undefined', '-w', '-o', exe, src]);
      // stderr into stdout, as the batch runner does: the reports between the values.
      const out = execFileSync('sh', ['-c', `'${exe}' 2>&1`], { env: { ...process.env, UBSAN_OPTIONS: 'print_stacktrace=0' } }).toString();
      const values = new Map<string, bigint>();
      const reportLines: number[] = [];
      for (const line of out.split('\n')) {
        const value = /^(\w+)=(-?\d+)$/.exec(line);
        const report = /:(\d+):\d+: runtime error: /.exec(line);
        if (value) values.set(value[1]!, BigInt(value[2]!));
        if (report) reportLines.push(Number(report[1]));
      }
      t.is(values.size, p.globals.length, p.id);
      t.deepEqual(values, batch[k]!.values, p.id);
      t.deepEqual(reportLines, batch[k]!.ub.map((u) => u.line), p.id);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ILP32 gcc text: long as int, unsigned long as unsigned int, single l suffixes dropped', (t) => {
  const lit = (suffix: string, base: 'dec' | 'hex' = 'dec') => ({ kind: 'lit' as const, value: 42n, base, suffix });
  for (const [suffix, gcc] of [['L', ''], ['l', ''], ['uL', 'u'], ['LU', 'U'], ['ul', 'u'], ['LL', 'LL'], ['ull', 'ull'], ['LLU', 'LLU'], ['u', 'u'], ['', '']] as const) {
    t.is(literalText(lit(suffix), 'gcc', 'ILP32'), `42${gcc}`);
    t.is(literalText(lit(suffix), 'gcc', 'LP64'), `42${suffix}`);
    t.is(literalText(lit(suffix), 'farkas', 'ILP32'), `42${suffix}`);
  }
  t.is(literalText(lit('L', 'hex'), 'gcc', 'ILP32'), '0x2a');
  let seen = 0;
  for (let k = 0; k < 40; k++) {
    const p = generateProgram(3, k, { dataModel: 'ILP32' });
    const gcc = gccText(p).replace(/\blong long\b/g, '');
    t.false(/\blong\b/.test(gcc), gcc);
    t.false(/\d[uU]?[lL][uU]?\b/.test(gcc), gcc);
    if (/\blong\b/.test(farkasText(p).replace(/\blong long\b/g, ''))) seen++;
  }
  t.true(seen > 5);
});

// ---- Hand-written programs -----------------------------------------------------------------------------

const v = (name: string): Expr => ({ kind: 'var', name });
const n = (value: bigint, suffix = ''): Expr => ({ kind: 'lit', value, base: 'dec', suffix });

function handProgram(id: string, dataModel: DataModel, globals: Decl[], params: { name: string; type: IntType }[], body: Stmt[], inputs: [string, bigint][]): CProgram {
  const types = new Map<string, IntType>([...globals, ...params].map((d) => [d.name, d.type]));
  return { id, dataModel, globals, params, locals: [], body, inputs: new Map(inputs), types };
}

test('the batch runner attributes values and sanitizer reports to their program and line', async (t) => {
  const fine = handProgram('fine', 'LP64', [{ name: 'g0', type: 'uint', init: null }], [{ name: 'a0', type: 'int' }],
    [{ kind: 'assign', op: '=', target: 'g0', value: { kind: 'binary', op: '-', left: v('a0'), right: n(2n) } }], [['a0', 1n]]);
  const overflowStmt: Stmt = { kind: 'assign', op: '=', target: 'g0', value: { kind: 'binary', op: '+', left: v('a0'), right: n(1n) } };
  const overflow = handProgram('overflow', 'ILP32', [{ name: 'g0', type: 'long', init: null }], [{ name: 'a0', type: 'long' }],
    [{ kind: 'assign', op: '=', target: 'g0', value: v('a0') }, overflowStmt, { kind: 'assign', op: '-=', target: 'g0', value: n(3n) }], [['a0', 2147483647n]]);
  const shiftStmt: Stmt = { kind: 'assign', op: '<<=', target: 'g0', value: n(31n) };
  const shift = handProgram('shift', 'LP64', [{ name: 'g0', type: 'int', init: n(3n) }], [{ name: 'a0', type: 'short' }], [shiftStmt], [['a0', 0n]]);
  const [a, b, c, d] = await runGccBatch([fine, overflow, shift, fine]);
  t.deepEqual(a!.ub, []);
  t.deepEqual([...a!.values!], [['g0', 4294967295n]]);
  t.deepEqual(d, a);
  t.is(b!.ub.length, 2); // the overflow, and then the - 3 it led to (the run goes on)
  t.is(b!.ub[0]!.kind, 'overflow');
  t.is(b!.ub[0]!.line, printBody(overflow, { flavour: 'farkas' }).lineOf.get(overflowStmt)!);
  t.regex(farkasText(overflow).split('\n')[b!.ub[0]!.line - 1]!, /g0 = \(a0 \+ 1\);/);
  t.is(c!.ub[0]!.kind, 'shift');
  t.is(c!.ub[0]!.line, printBody(shift, { flavour: 'farkas' }).lineOf.get(shiftStmt)!);
  // The reference evaluator sees the same.
  const ref = evaluate(overflow, printBody(overflow, { flavour: 'farkas' }).lineOf);
  t.like(ref, { kind: 'ub', ub: 'overflow', line: b!.ub[0]!.line });
  t.like(evaluate(fine, printBody(fine, { flavour: 'farkas' }).lineOf), { kind: 'exit' });
});

test('sanitizer messages: signed overflow (also negation and INT_MIN / -1) is modelled, shifts are not', (t) => {
  t.is(classifyUb("signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'"), 'overflow');
  t.is(classifyUb("negation of -2147483648 cannot be represented in type 'int'; cast to an unsigned type to negate this value to itself"), 'overflow');
  t.is(classifyUb("division of -2147483648 by -1 cannot be represented in type 'int'"), 'overflow');
  t.is(classifyUb('left shift of negative value -1'), 'shift');
  t.is(classifyUb("shift exponent 40 is too large for 32-bit type 'int'"), 'shift');
  t.is(classifyUb('load of value 2, which is not a valid value for type'), 'other');
});

test('the reference evaluator: conversions, mixed signedness, promotions, data models', (t) => {
  // g0 = (-1 < 1u); g1 = (unsigned char)300 + 0; g2 = (a0 * 65537) with a0 unsigned short 65535 (int overflow)
  const run = (dm: DataModel, type: IntType, value: Expr) => {
    const p = handProgram('ref', dm, [{ name: 'g0', type, init: null }], [{ name: 'a0', type: 'ushort' }],
      [{ kind: 'assign', op: '=', target: 'g0', value }], [['a0', 65535n]]);
    return evaluate(p, printBody(p, { flavour: 'farkas' }).lineOf);
  };
  const minusOne: Expr = { kind: 'unary', op: '-', arg: n(1n) };
  t.like(run('ILP32', 'int', { kind: 'binary', op: '<', left: minusOne, right: n(1n, 'u') }), { kind: 'exit', globals: new Map([['g0', 0n]]) });
  // -1 < 1L: long is 32-bit under ILP32 (1L is then signed: true), and with 1UL: unsigned long, false.
  t.like(run('ILP32', 'int', { kind: 'binary', op: '<', left: minusOne, right: n(1n, 'UL') }), { globals: new Map([['g0', 0n]]) });
  // -1L < 1U: under LP64 long holds every unsigned int, so the comparison is signed.
  t.like(run('LP64', 'int', { kind: 'binary', op: '<', left: { kind: 'unary', op: '-', arg: n(1n, 'L') }, right: n(1n, 'U') }), { globals: new Map([['g0', 1n]]) });
  t.like(run('ILP32', 'int', { kind: 'binary', op: '<', left: { kind: 'unary', op: '-', arg: n(1n, 'L') }, right: n(1n, 'U') }), { globals: new Map([['g0', 0n]]) });
  t.like(run('LP64', 'uchar', n(300n)), { globals: new Map([['g0', 44n]]) });
  t.like(run('LP64', 'schar', n(200n)), { globals: new Map([['g0', -56n]]) });
  t.like(run('LP64', 'bool', n(256n)), { globals: new Map([['g0', 1n]]) });
  t.like(run('LP64', 'int', { kind: 'binary', op: '*', left: v('a0'), right: n(65537n) }), { kind: 'ub', ub: 'overflow' });
  t.like(run('LP64', 'uint', { kind: 'binary', op: '*', left: v('a0'), right: n(65537n, 'u') }), { globals: new Map([['g0', 4294967295n]]) });
  t.like(run('LP64', 'int', { kind: 'binary', op: '/', left: { kind: 'unary', op: '-', arg: v('a0') }, right: n(2n) }), { globals: new Map([['g0', -32767n]]) });
  t.like(run('LP64', 'int', { kind: 'binary', op: '>>', left: { kind: 'unary', op: '-', arg: v('a0') }, right: n(1n) }), { globals: new Map([['g0', -32768n]]) });
});

test('verdicts: a wrong value, a missed or an invented overflow are failures', (t) => {
  let k = 0;
  let p = generateProgram(1, k, { dataModel: 'LP64' });
  let ref = evaluate(p, printBody(p, { flavour: 'farkas' }).lineOf);
  while (ref.kind !== 'exit') {
    p = generateProgram(1, ++k, { dataModel: 'LP64' });
    ref = evaluate(p, printBody(p, { flavour: 'farkas' }).lineOf);
  }
  const gcc: GccProgramResult = { values: ref.globals, ub: [], crashed: null, compileError: null, otherOutput: [] };
  const farkas = (outcome: string, globals: ReadonlyMap<string, bigint>, line: number | null = null): FarkasResult => ({ kind: 'run', outcome, line, globals });
  t.is(judge(p, gcc, farkas('exit', ref.globals), ref).verdict, 'agree');
  const wrong = new Map(ref.globals);
  wrong.set('g0', ref.globals.get('g0')! + 1n);
  t.is(judge(p, gcc, farkas('exit', wrong), ref).verdict, 'differ');
  t.is(judge(p, gcc, farkas('overflow', ref.globals, 3), ref).verdict, 'ub-differ');
  t.is(judge(p, gcc, farkas('assume-blocked', ref.globals), ref).verdict, 'differ');
  t.is(judge(p, gcc, { kind: 'rejected', message: 'unsupported' }, ref).verdict, 'differ');
  // gcc's overflow on a line: farkas must stop there.
  const ub = { line: 7, col: 3, kind: 'overflow' as const, message: 'signed integer overflow: …' };
  const refUb = { kind: 'ub' as const, ub: 'overflow' as const, line: 7, message: '…', wrapped: false };
  const gccUb: GccProgramResult = { ...gcc, ub: [ub] };
  t.is(judge(p, gccUb, farkas('overflow', ref.globals, 7), refUb).verdict, 'ub-agree');
  t.is(judge(p, gccUb, farkas('overflow', ref.globals, 8), refUb).verdict, 'ub-differ');
  t.is(judge(p, gccUb, farkas('exit', ref.globals), refUb).verdict, 'ub-differ');
  t.is(judge(p, { ...gcc, ub: [{ ...ub, kind: 'shift' }] }, farkas('exit', ref.globals), { ...refUb, ub: 'shift' }).verdict, 'skipped-ub-other');
  // gcc and the reference disagree: the tester is at fault.
  t.is(judge(p, gccUb, farkas('overflow', ref.globals, 7), ref).verdict, 'tester-error');
  t.is(judge(p, { ...gcc, values: wrong }, farkas('exit', wrong), ref).verdict, 'tester-error');
  // The prepared program's run is judged the same way; where only it differs, the program fails.
  t.like(judge(p, gcc, farkas('exit', ref.globals), ref, farkas('exit', ref.globals)), { verdict: 'agree', prepared: { verdict: 'agree' } });
  const prepared = judge(p, gcc, farkas('exit', ref.globals), ref, farkas('exit', wrong));
  t.like(prepared, { verdict: 'differ', prepared: { verdict: 'differ' } });
  t.regex(prepared.detail[0]!, /^prepared program: g0: gcc -?\d+, farkas -?\d+$/);
  t.like(judge(p, gcc, farkas('exit', ref.globals), ref, null), { verdict: 'agree', prepared: { verdict: null } });
});

test('the prepared programs (prepareAnalysis, paths cut-set) of a few random programs agree with gcc too', async (t) => {
  const report = await checkPrograms(runPrograms(40, 19, 'both', 'all'), { batch: 40, prepared: true });
  const failing = report.programs.filter((r) => isFailure(r.verdict));
  for (const r of failing.slice(0, 5)) t.log(`${r.id} ${r.verdict}: ${r.detail.join('; ')}`);
  t.is(failing.length, 0);
  t.true(report.preparedCounts!.agree >= 15, `${report.preparedCounts!.agree} prepared programs agree`);
});
