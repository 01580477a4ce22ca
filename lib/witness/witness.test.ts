import test from 'ava';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { parseProgram } from '../frontend/index.js';
import { verify } from '../index.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { InputError } from '../diagnostics.js';
import { witnessFor } from './index.js';
import { checkCorrectnessWitness } from './check.js';
import { witnessMetadata } from './metadata.js';
import { violationEntry } from './violation.js';
import { sourceMap } from './source-map.js';
import { witnessYaml } from './correctness.js';
import { parseCExpression } from './c-expression.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

test.after.always(async () => {
  await shutdownZ3();
});

const FIG1 = 'benchmarks/paper/fig1.c';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Json = Record<string, unknown>;

function keys(o: unknown): string[] {
  return Object.keys(o as Json).sort();
}

/** The metadata block of format 2.0, field by field. */
function assertMetadata(t: import('ava').ExecutionContext, metadata: Json, file: string, source: string): void {
  t.deepEqual(keys(metadata), ['creation_time', 'format_version', 'producer', 'task', 'uuid']);
  t.is(metadata.format_version, '2.0');
  t.regex(metadata.uuid as string, UUID);
  t.false(Number.isNaN(Date.parse(metadata.creation_time as string)));
  t.regex(metadata.creation_time as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  const producer = metadata.producer as Json;
  t.is(producer.name, 'farkas');
  t.is(typeof producer.version, 'string');
  const task = metadata.task as Json;
  t.deepEqual(keys(task), ['data_model', 'input_file_hashes', 'input_files', 'language', 'specification']);
  t.deepEqual(task.input_files, [file]);
  t.deepEqual(task.input_file_hashes, { [file]: createHash('sha256').update(source).digest('hex') });
  t.is(task.specification, 'G ! call(reach_error())');
  t.true(['ILP32', 'LP64'].includes(task.data_model as string));
  t.is(task.language, 'C');
}

test('correctness witness of fig1: invariant_set with a loop_invariant at the while keyword, format 2.0 field by field', async (t) => {
  const source = readFileSync(FIG1, 'utf8');
  const program = parseProgram(source, FIG1);
  const result = await verify(Problem.of(program), resolveSettings());
  t.is(result.verdict, 'safe');
  const outcome = await witnessFor({ program, file: FIG1, source, result });
  if (outcome.kind === 'none') return t.fail(outcome.reason);
  t.is(outcome.kind, 'correctness');
  const doc = parseYaml(outcome.text) as Json[];
  t.true(Array.isArray(doc));
  t.is(doc.length, 1);
  const entry = doc[0]!;
  t.deepEqual(keys(entry), ['content', 'entry_type', 'metadata']);
  t.is(entry.entry_type, 'invariant_set');
  assertMetadata(t, entry.metadata as Json, 'fig1.c', source);
  const content = entry.content as Json[];
  t.is(content.length, 1);
  t.deepEqual(keys(content[0]), ['invariant']);
  const inv = content[0]!.invariant as Json;
  t.deepEqual(keys(inv), ['format', 'location', 'type', 'value']);
  t.is(inv.type, 'loop_invariant');
  t.is(inv.format, 'c_expression');
  const loc = inv.location as Json;
  t.deepEqual(keys(loc), ['column', 'file_name', 'function', 'line']);
  t.is(loc.file_name, 'fig1.c');
  t.is(loc.function, 'PV1');
  t.true(Number.isInteger(loc.line) && Number.isInteger(loc.column));
  // Line and column (both 1-based) point at the loop keyword.
  const lineText = source.split('\n')[(loc.line as number) - 1]!;
  t.true(lineText.slice((loc.column as number) - 1).startsWith('while'));
  // The paper's disjunctive invariant, over the variables in scope (x, y), as a C expression.
  t.is(inv.value, 'x < 0 || y >= 1');
});

test('a correctness witness read back (C expressions through the front end) proves fig1 in the certificate checker', async (t) => {
  const source = readFileSync(FIG1, 'utf8');
  const program = parseProgram(source, FIG1);
  const outcome = await witnessFor({ program, file: FIG1, source, result: await verify(Problem.of(program), resolveSettings()) });
  if (outcome.kind === 'none') return t.fail(outcome.reason);
  const check = await checkCorrectnessWitness(program, 'PV1', outcome.text);
  t.true(check.valid, check.reason);
  t.is(check.invariants, 1);
  // A weaker invariant (true at the loop, but not strong enough for the assertion) is rejected.
  const weakened = outcome.text.replace('x < 0 || y >= 1', 'x <= 0 || y >= -100');
  t.not(weakened, outcome.text);
  const rejected = await checkCorrectnessWitness(program, 'PV1', weakened);
  t.false(rejected.valid);
  // So is an invariant at a place where there is no loop.
  const misplaced = outcome.text.replace(/line: 6/, 'line: 7');
  t.false((await checkCorrectnessWitness(program, 'PV1', misplaced)).valid);
});

test('a proof with ghost quotients gives a witness that states i == 3 * (i / 3), read back through the ghosted program', async (t) => {
  const source = readFileSync('lib/ir/testing/multiple-of-three.c', 'utf8');
  const program = parseProgram(source, 'multiple.c');
  const outcome = await witnessFor({ program, file: 'multiple.c', source, result: await verify(Problem.of(program), resolveSettings({ timeoutMs: 60_000 })) });
  if (outcome.kind !== 'correctness') return t.fail(outcome.kind === 'none' ? outcome.reason : outcome.kind);
  t.regex(outcome.text, /i == 3 \* \(i \/ 3\)/);
  t.true((await checkCorrectnessWitness(program, 'main', outcome.text)).valid);
  // i % 3 == 1 is no invariant; a division the program never takes (i / 7) is not read.
  t.false((await checkCorrectnessWitness(program, 'main', outcome.text.replace(/i == 3 \* \(i \/ 3\)/, 'i % 3 == 1'))).valid);
  await t.throwsAsync(() => checkCorrectnessWitness(program, 'main', outcome.text.replace(/i == 3 \* \(i \/ 3\)/, 'i == 7 * (i / 7)')), { instanceOf: InputError, message: /division and modulo/ });
});

test('C expressions of witnesses: only variables in scope, only side-effect-free linear expressions', (t) => {
  const scope = { x: 'x', y: 'y_1' };
  const f = parseCExpression('x + 2*y <= 3 && !(x == y)', scope, 'w.c');
  t.deepEqual([...new Set([...JSON.stringify(f, (_k, v) => (typeof v === 'bigint' ? String(v) : v instanceof Map ? [...v] : v)).matchAll(/"(x|y_1)"/g)].map((m) => m[1]))].sort(), ['x', 'y_1']);
  t.throws(() => parseCExpression('z > 0', scope, 'w.c'), { instanceOf: InputError, message: /'z' is not a variable in scope/ });
  t.throws(() => parseCExpression('x = 1', scope, 'w.c'), { instanceOf: InputError });
  t.throws(() => parseCExpression('x > 0; y > 0', scope, 'w.c'), { instanceOf: InputError });
});

test('violation witness of off-by-one: assumption on the input, the loop branchings of the replayed run, the target', async (t) => {
  const file = 'benchmarks/literature/off-by-one.c';
  const source = readFileSync(file, 'utf8');
  const program = parseProgram(source, file);
  const result = await verify(Problem.of(program), resolveSettings());
  t.is(result.verdict, 'unsafe');
  const outcome = await witnessFor({ program, file, source, result });
  if (outcome.kind === 'none') return t.fail(outcome.reason);
  const doc = parseYaml(outcome.text) as Json[];
  t.is(doc.length, 1);
  t.deepEqual(keys(doc[0]), ['content', 'entry_type', 'metadata']);
  t.is(doc[0]!.entry_type, 'violation_sequence');
  assertMetadata(t, doc[0]!.metadata as Json, 'off-by-one.c', source);
  const waypoints = (doc[0]!.content as Json[]).map((s) => {
    t.deepEqual(keys(s), ['segment']);
    const segment = s.segment as Json[];
    t.is(segment.length, 1);
    return segment[0]!.waypoint as Json;
  });
  for (const w of waypoints) {
    t.is(w.action, 'follow');
    t.deepEqual(keys(w.location), ['column', 'file_name', 'function', 'line']);
  }
  const n = result.counterexample!.inputs.get('n')!;
  const [first, ...rest] = waypoints;
  t.is(first!.type, 'assumption');
  t.deepEqual(first!.constraint, { value: `n == ${n}`, format: 'c_expression' });
  t.like(first!.location as Json, { line: 3, column: 3, function: 'off_by_one' });
  const target = rest.pop()!;
  t.is(target.type, 'target');
  t.like(target.location as Json, { line: 8, column: 3 });
  // while (i <= n) { i++; } from i = 0: the body runs n + 1 times, then the loop exits.
  t.true(rest.every((w) => w.type === 'branching' && (w.location as Json).line === 5 && (w.location as Json).column === 3));
  t.deepEqual(rest.map((w) => (w.constraint as Json).value), [...Array(Number(n) + 1).fill('true'), 'false']);
});

test('violation witness with nondet values: assumption at the next statement, branching at the if keyword', (t) => {
  const file = 'nondet.c';
  const source = [
    'extern int __VERIFIER_nondet_int(void);',
    'extern void reach_error(void);',
    'int main() {',
    '  int x = __VERIFIER_nondet_int();',
    '  int y = 2 * x;',
    '  if (y > 10) {',
    '    reach_error();',
    '  }',
    '  return 0;',
    '}',
  ].join('\n');
  const program = parseProgram(source, file);
  const entry = violationEntry(witnessMetadata({ file, source }), program, file, 'main', { inputs: new Map(), nondet: [7n], line: 7, replayed: true }, sourceMap(source, file));
  if ('reason' in entry) return t.fail(entry.reason);
  const waypoints = entry.entry.content.map((s) => s.segment[0]!.waypoint);
  t.deepEqual(waypoints.map((w) => [w.type, w.location.line, w.location.column]), [['assumption', 5, 3], ['branching', 6, 3], ['target', 7, 5]]);
  t.deepEqual(waypoints[0]!.type === 'assumption' ? waypoints[0]!.constraint.value : null, 'x == 7');
  t.deepEqual(waypoints[1]!.type === 'branching' ? waypoints[1]!.constraint.value : null, 'true');
  // A counterexample that does not fail is not turned into a witness.
  const harmless = violationEntry(witnessMetadata({ file, source }), program, file, 'main', { inputs: new Map(), nondet: [1n], line: 7, replayed: true }, sourceMap(source, file));
  t.true('reason' in harmless);
  t.regex(witnessYaml([entry.entry]), /entry_type: violation_sequence/);
});
