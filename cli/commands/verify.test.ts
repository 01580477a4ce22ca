// `farkas verify` end to end: spawns the built CLI on small temporary files and checks the JSON
// contract, the exit codes, diagnostics and --emit-dimacs.
import test from 'ava';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { parseProgram } from '../../lib/frontend/index.js';
import { runProgram } from '../../lib/interpreter/index.js';
import { farkas } from '../testing/farkas-bin.js';

const dir = mkdtempSync(join(tmpdir(), 'farkas-verify-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const PV1 = 'void PV1(int y) { int x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); }\n';
const UNSAFE = 'int main() {\n  int n = __VERIFIER_nondet_int();\n  int i = 0;\n  while (i < n) { i++; }\n  assert(i != 7);\n  return 0;\n}\n';
// A recursive procedure that writes a global: the global is passed in and returned explicitly, and the
// value it returns gets its own summary (`sum!calls`).
const RECURSIVE = 'int calls;\nint sum(int n) { calls = calls + 1; if (n <= 0) return 0; return n + sum(n - 1); }\nint main() { int r = sum(5); assert(r >= 0); return 0; }\n';

interface VerifyJson {
  file: string;
  function: string;
  verdict: string;
  reason?: string;
  certified: boolean;
  cutset: string;
  invariants: Array<{ function: string; line: number; expression: string }>;
  stats: Array<{ template: string; widths: { coefficient: number; constant: number; multiplier: number }; clauses: number; variables: number; result: string; backend: string; propagations?: number; reason?: string }>;
  counterexample?: { inputs: Record<string, string>; nondet: string[]; line: number; replayed: boolean };
}

/** The expression is C over the given variables: it parses back as a return expression. */
function assertValidC(t: import('ava').ExecutionContext, expression: string, variables: readonly string[]): void {
  const used = new Set(expression.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
  for (const v of used) t.true(variables.includes(v), `'${v}' in '${expression}' is not a program variable`);
  t.notThrows(() => parseProgram(`int check(${variables.map((v) => `int ${v}`).join(', ')}) { return (${expression}); }`, 'inv.c'), expression);
}

test('safe: exit 0 and the JSON contract, with invariants that are valid C', async (t) => {
  const f = file('pv1.c', PV1);
  const dimacs = join(dir, 'pv1.cnf');
  const r = await farkas(['verify', f, '--json', '--cutset', 'headers', '--no-observed-bounds', '--emit-dimacs', dimacs]);
  t.is(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout) as VerifyJson;
  t.is(json.verdict, 'safe');
  t.is(json.certified, true);
  t.is(json.file, f);
  t.is(json.function, 'PV1');
  t.is(json.cutset, 'headers');
  t.is(json.reason, undefined);
  t.true(json.invariants.length >= 1);
  for (const inv of json.invariants) {
    t.is(inv.function, 'PV1');
    t.is(inv.line, 1);
    assertValidC(t, inv.expression, ['x', 'y']);
  }
  t.true(json.stats.length >= 1);
  for (const s of json.stats) {
    t.regex(s.template, /^\d+x\d+$/);
    t.true(s.clauses > 0 && s.variables > 0);
    t.is(s.backend, 'minisat');
    t.true(['sat', 'unsat', 'unknown', 'skipped'].includes(s.result));
  }
  // The last step found the invariant, or the observed bounds (split by the loop's branch) proved it.
  const houdini = (json as VerifyJson & { houdini?: { proved: boolean } }).houdini;
  t.true(json.stats[json.stats.length - 1]!.result === 'sat' || houdini?.proved === true, JSON.stringify(houdini));
  // --emit-dimacs: step 1 to FILE, step N > 1 to FILE.N.cnf, each a DIMACS CNF.
  json.stats.forEach((s, i) => {
    const path = i === 0 ? dimacs : `${dimacs}.${i + 1}.cnf`;
    t.true(existsSync(path), path);
    const text = readFileSync(path, 'utf8');
    const header = /^p cnf (\d+) (\d+)$/m.exec(text);
    t.truthy(header, `${path} has a p cnf header`);
    t.is(Number(header![1]), s.variables);
    t.is(Number(header![2]), s.clauses);
    const clauseLines = text.split('\n').filter((l) => /^-?\d/.test(l));
    t.is(clauseLines.length, s.clauses);
    t.true(clauseLines.every((l) => l.trim().endsWith(' 0') || l.trim() === '0'));
  });
});

test('--step-propagations: a step that runs out of propagations says so, and ends the same way on every run', async (t) => {
  const f = file('pv1-propagations.c', PV1);
  const runs = await Promise.all([1, 2].map(() => farkas(['verify', f, '--json', '--jobs', '1', '--no-observed-bounds', '--step-propagations', '1'])));
  const [first, second] = runs.map((r) => {
    t.true(r.code === 0 || r.code === 2, r.stderr);
    return JSON.parse(r.stdout) as VerifyJson;
  });
  // The SAT search ran out; the sample search that follows it (sample-search.ts) answers for the step.
  t.regex(first!.stats[0]!.reason ?? '', /^propagation limit reached \(1 propagations\); then /);
  t.true(first!.stats[0]!.propagations! >= 1);
  const steps = (r: VerifyJson) => r.stats.map((s) => [s.template, s.propagations, s.result, s.reason]);
  t.deepEqual(steps(second!), steps(first!));
  t.is(second!.verdict, first!.verdict);
  // With the default budget the same step is solved.
  const plain = JSON.parse((await farkas(['verify', f, '--json', '--jobs', '1', '--no-observed-bounds'])).stdout) as VerifyJson;
  t.not(plain.stats[0]!.result, 'unknown');
});

test('safe (text output, default path cut-set): invariants listed, exit 0', async (t) => {
  const r = await farkas(['verify', file('pv1-text.c', PV1)]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /function PV1: safe/);
  t.regex(r.stdout, /cut-set: paths/);
  t.regex(r.stdout, /invariants:\n  line 1: /);
});

test('unsafe: exit 1 with a counterexample that fails when replayed', async (t) => {
  const f = file('unsafe.c', UNSAFE);
  const r = await farkas(['verify', f, '--json']);
  t.is(r.code, 1, r.stderr);
  const json = JSON.parse(r.stdout) as VerifyJson;
  t.is(json.verdict, 'unsafe');
  t.is(json.certified, true);
  const ce = json.counterexample!;
  t.truthy(ce);
  t.is(ce.line, 5);
  t.true(ce.replayed);
  const program = parseProgram(UNSAFE, f);
  const replay = runProgram(program, {
    inputs: new Map(Object.entries(ce.inputs).map(([k, v]) => [k, BigInt(v)])),
    nondet: ce.nondet.map((v) => BigInt(v)),
    nondetDefault: null,
  });
  t.is(replay.outcome.kind, 'assertion-failed');
  if (replay.outcome.kind === 'assertion-failed') t.is(replay.outcome.pos.line, 5);
});

test('unsafe after more steps than a run takes by default: the reproduce line names the steps, and it reproduces', async (t) => {
  const f = file('long.c', 'int main() {\n  int x = 0;\n  while (x < 600000) x++;\n  assert(x != 600000);\n  return 0;\n}\n');
  const r = await farkas(['verify', f]);
  t.is(r.code, 1, r.stderr);
  const line = /^reproduce: farkas (run .*)$/m.exec(r.stdout)?.[1];
  t.truthy(line, r.stdout);
  t.regex(line!, /--max-steps \d+/);
  t.notRegex(line!, /--trace/); // a trace of a million steps is a million lines
  const replay = await farkas(line!.split(' '));
  t.regex(replay.stdout, /:4: assertion failed/, replay.stderr);
});

test('recursion writing a global is proved with a summary of the global it returns; a timeout is unknown (exit 2), never certified', async (t) => {
  const [rec, slow] = await Promise.all([
    farkas(['verify', file('rec.c', RECURSIVE), '--json']),
    farkas(['verify', file('pv1-slow.c', PV1), '--json', '--timeout', '0.001']),
  ]);
  t.is(rec.code, 0, rec.stderr);
  const recJson = JSON.parse(rec.stdout) as VerifyJson & { summaries?: Record<string, Array<{ pre: string; post: string }>> };
  t.is(recJson.verdict, 'safe');
  t.true(recJson.certified);
  t.deepEqual(Object.keys(recJson.summaries ?? {}).sort(), ['sum', 'sum!calls']);
  t.is(slow.code, 2, slow.stderr);
  const slowJson = JSON.parse(slow.stdout) as VerifyJson;
  t.is(slowJson.verdict, 'unknown');
  t.false(slowJson.certified);
  t.regex(slowJson.reason ?? '', /timeout/);
});

test('input errors: exit 3 with a positioned message and no stack trace', async (t) => {
  const bad = file('bad.c', 'int main() {\n  int x = ;\n  return 0;\n}\n');
  const good = file('ok.c', PV1);
  const [syntax, cutset, template, missing, timeout] = await Promise.all([
    farkas(['verify', bad, '--json']),
    farkas(['verify', good, '--cutset', 'bogus']),
    farkas(['verify', good, '--template', 'no-such-template']),
    farkas(['verify', join(dir, 'missing.c')]),
    farkas(['verify', good, '--timeout', 'soon']),
  ]);
  for (const r of [syntax, cutset, template, missing, timeout]) {
    t.is(r.code, 3, r.stderr);
    t.false(/\n\s+at .*:\d+:\d+/.test(r.stderr), `stack trace in: ${r.stderr}`);
    t.is(r.stdout, '');
  }
  t.regex(syntax.stderr, new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:\\d+: error: `));
  t.regex(cutset.stderr, /bogus/);
  t.regex(cutset.stderr, /paths|headers/);
  t.regex(template.stderr, /error: unknown template schedule 'no-such-template'/);
  t.regex(missing.stderr, /error: cannot read .*missing\.c/);
  t.regex(timeout.stderr, /--timeout expects a number of seconds/);
});

const ADD = `int Add(int i, int j) {
  int ret;
  if (i <= 0) { ret = j; } else { int b = i - 1; int c = j + 1; ret = Add(b, c); }
  return ret;
}
void IP1() { int x = 5; int y = 3; int result = Add(x, y); assert(result == 8); }
`;

test('Fig. 3(a): recursion proved with a certified summary; --json lists it with \\result, the text output too', async (t) => {
  const f = file('add.c', ADD);
  const [json, text] = await Promise.all([farkas(['verify', f, '--json']), farkas(['verify', f, '--no-progress'])]);
  t.is(json.code, 0, json.stdout + json.stderr);
  const out = JSON.parse(json.stdout) as VerifyJson & { summaries?: Record<string, Array<{ pre: string; post: string }>> };
  t.is(out.verdict, 'safe');
  t.true(out.certified);
  t.is(out.function, 'IP1');
  const pairs = out.summaries?.Add ?? [];
  t.is(pairs.length, 1);
  t.regex(pairs[0]!.post, /\\result/);
  t.is(text.code, 0);
  t.regex(text.stdout, /summaries \(pre => post\):\n {2}Add: .* => .*\\result/);
});

test('--pin LINE:EXPR: a correct pin is certified with the invariants, a wrong one is unknown, bad pins exit 3 with a position', async (t) => {
  const fig1 = file('pin-fig1.c', 'void PV1(int y) {\n  int x = -50;\n  while (x < 0) {\n    x = x + y;\n    y++;\n  }\n  assert(y > 0);\n}\n');
  // The path cut-set's cut-point is before `x = x + y` (line 4), where x < 0 holds.
  const good = await farkas(['verify', fig1, '--pin', '4:x < 0', '--json', '--no-progress']);
  t.is(good.code, 0, good.stderr);
  const json = JSON.parse(good.stdout) as VerifyJson & { pinned: Array<{ line: number; expression: string }> };
  t.is(json.verdict, 'safe');
  t.deepEqual(json.pinned, [{ line: 4, expression: 'x < 0' }]);
  t.true(json.invariants.some((i) => i.line === 4 && i.expression.includes('x < 0')), JSON.stringify(json.invariants));
  const wrong = await farkas(['verify', fig1, '--cutset', 'headers', '--pin', '3:x <= -5', '--no-progress']);
  t.is(wrong.code, 2);
  t.regex(wrong.stdout, /unknown \(the pinned invariant at line 3 \(x <= -5\)/);
  t.regex(wrong.stdout, /pinned \(known conjuncts of the search\): line 3: x <= -5/);
  const noCutpoint = await farkas(['verify', fig1, '--pin', '7:x < 0']);
  t.is(noCutpoint.code, 3);
  t.regex(noCutpoint.stderr, /pin-fig1\.c:7:1: error: --pin: no cut-point at line 7 \(cut-set paths; cut-points at line 4\)/);
  const badExpr = await farkas(['verify', fig1, '--pin', '4:z < 0']);
  t.is(badExpr.code, 3);
  t.regex(badExpr.stderr, /pin-fig1\.c:4:5: error: .*'z' is not a variable in scope/);
  t.notRegex(badExpr.stderr, /\n\s+at /);
  const malformed = await farkas(['verify', fig1, '--pin', 'x < 0']);
  t.is(malformed.code, 3);
  t.regex(malformed.stderr, /--pin expects LINE:EXPR/);
});

// A counter that restarts below 10 and aborts above it: runs from 0..10 never end, the others do.
const RESTARTS = 'extern int __VERIFIER_nondet_int(void);\nextern void abort(void);\nint main() {\n  int x = __VERIFIER_nondet_int();\n  while (x >= 0) {\n    if (x > 10) abort();\n    x = 5;\n  }\n  return 0;\n}\n';

test('verify --property termination: unsafe with a recurrent condition and the run shown, safe with the bounds; exit codes as for reachability', async (t) => {
  const endless = file('restarts.c', RESTARTS);
  const r = await farkas(['verify', endless, '--property', 'termination', '--json', '--timeout', '100']);
  t.is(r.code, 1, r.stderr);
  const json = JSON.parse(r.stdout) as { verdict: string; property: string; certified: boolean; nonTermination: { condition: string; nondet: string[]; stepsShown: number } };
  t.like(json, { verdict: 'unsafe', property: 'termination', certified: true });
  // The run shown is the program's own: replayed here, it goes on past the steps reported.
  const program = parseProgram(RESTARTS, endless, { property: 'termination' });
  const run = runProgram(program, { entry: 'main', nondet: json.nonTermination.nondet.map(BigInt), nondetDefault: null, maxSteps: json.nonTermination.stepsShown });
  t.is(run.outcome.kind, 'step-limit');
  const text = await farkas(['verify', endless, '--property', 'termination', '--timeout', '100']);
  t.regex(text.stdout, /unsafe: a run does not end/);
  t.regex(text.stdout, /where nondet_1 is the value read into x at line 4/);
  const ends = await farkas(['verify', file('ends.c', UNSAFE), '--property', 'termination', '--timeout', '100']);
  t.is(ends.code, 0, ends.stderr);
  t.regex(ends.stdout, /safe: every run ends/);
  t.regex(ends.stdout, /loop at line 4: at most max\(0, nondet_1\) iterations/);
  // A recursion is ranked over its parameters: the text names each procedure's ranking function, --json too.
  const recursive = file('fib.c', 'extern int __VERIFIER_nondet_int(void);\nint fib(int n) { if (n < 1) return 0; if (n == 1) return 1; return fib(n - 1) + fib(n - 2); }\nint main() { int x = __VERIFIER_nondet_int(); if (x > 40) return 0; return fib(x); }\n');
  const fib = await farkas(['verify', recursive, '--property', 'termination', '--timeout', '100']);
  t.is(fib.code, 0, fib.stderr);
  t.regex(fib.stdout, /recursion of fib \(line 2\): ranking function n - 1/);
  const fibJson = JSON.parse((await farkas(['verify', recursive, '--property', 'termination', '--json', '--timeout', '100'])).stdout) as { verdict: string; recursionRankingFunctions: unknown };
  t.deepEqual(fibJson.recursionRankingFunctions, [{ procedure: 'fib', line: 2, ranking: 'n - 1' }]);
  const witness = await farkas(['verify', endless, '--property', 'termination', '--witness', join(dir, 'w.yml')]);
  t.is(witness.code, 3);
  t.regex(witness.stderr, /--witness: not available with --property termination/);
  const templatesAlone = await farkas(['verify', endless, '--property', 'termination', '--no-observed-bounds']);
  t.is(templatesAlone.code, 3);
  t.regex(templatesAlone.stderr, /--no-observed-bounds: not available with --property termination/);
});

test('the default back end races a cadical on PATH on large steps and says which solver answered', async (t) => {
  // A one-step schedule whose step on PV1 has some 55,000 clauses (over RACE_MIN_CLAUSES), and a
  // "cadical" that calls every instance unsatisfiable: its answer is taken (a wrong unsat can only
  // lose a proof: the invariants of any "safe" are still certified by z3).
  const schedule = file('one-large-step.yaml', 'name: large\ndescription: one 2x2 step\nsteps:\n  - { disjuncts: 2, conjuncts: 2, coefficient: 3, constant: 8, multiplier: 2 }\n');
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const cadical = join(bin, 'cadical');
  writeFileSync(cadical, '#!/bin/sh\necho "s UNSATISFIABLE"\nexit 20\n');
  chmodSync(cadical, 0o755);
  const env = { ...process.env, PATH: `${bin}${delimiter}${process.env['PATH'] ?? ''}` };
  const pv1 = file('pv1-race.c', PV1);
  const raced = await farkas(['verify', pv1, '--jobs', '1', '--no-observed-bounds', '--template', schedule], { env });
  t.regex(raced.stdout, /2x2 .* 5\d{4} .* unsat by dimacs:cadical -q/);
  const alone = await farkas(['verify', pv1, '--jobs', '1', '--no-observed-bounds', '--template', schedule, '--backend', 'minisat', '--json'], { env });
  const json = JSON.parse(alone.stdout) as { stats: { backend: string; result: string; clauses: number }[] };
  t.is(json.stats[0]?.backend, 'minisat');
  t.is(json.stats[0]?.result, 'sat');
  t.true((json.stats[0]?.clauses ?? 0) >= 40_000);
});
