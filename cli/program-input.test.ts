// What the commands read (cli/program-input.ts): --data-model, --property (a name or an SV-COMP .prp
// file), and an SV-COMP task (.yml) as the input file; end to end through the built CLI, with the
// answer's semantics stated in its text, JSON and witness.
import test from 'ava';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { propertyOfPrp } from './program-input.js';
import { InputError } from '../lib/diagnostics.js';
import { farkas } from './testing/farkas-bin.js';

const dir = mkdtempSync(join(tmpdir(), 'farkas-input-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

// Safe only when long is 64-bit: under ILP32, 2^31 converted to long wraps to a negative value.
const LONG = 'extern int __VERIFIER_nondet_int(void);\nint main() {\n  long x = 2147483648LL + __VERIFIER_nondet_int() % 2;\n  __VERIFIER_assert(x > 0);\n  return 0;\n}\n';
// Under ILP32, x + 1 overflows long: undefined behaviour, which reachability assumes absent.
const LONG_SUM = 'int main() {\n  long x = 2147483647L;\n  x = x + 1;\n  __VERIFIER_assert(x > 0);\n  return 0;\n}\n';
// Every assertion holds; x + 1 overflows for x = INT_MAX.
const OVERFLOW = 'extern int __VERIFIER_nondet_int(void);\nint main() {\n  int x = __VERIFIER_nondet_int();\n  int y = x + 1;\n  __VERIFIER_assert(1);\n  return y;\n}\n';

test('--data-model: long is 32-bit under ILP32 (the default) and 64-bit under LP64', async (t) => {
  const f = file('long.c', LONG);
  const ilp32 = await farkas(['verify', f, '--json']);
  t.is(ilp32.code, 1, ilp32.stderr);
  t.like(JSON.parse(ilp32.stdout), { verdict: 'unsafe', dataModel: 'ILP32', property: 'unreach-call', premises: ['no signed overflow'] });
  const lp64 = await farkas(['verify', f, '--data-model', 'LP64', '--json']);
  t.is(lp64.code, 0, lp64.stderr);
  t.like(JSON.parse(lp64.stdout), { verdict: 'safe', dataModel: 'LP64' });
  const run = await farkas(['run', f, '--data-model', 'LP64']);
  t.is(run.code, 0, run.stdout);
  // The premise of reachability: a run that overflows is outside the answer, and the output says where.
  const sum = await farkas(['verify', file('long-sum.c', LONG_SUM)]);
  t.is(sum.code, 0, sum.stderr);
  t.regex(sum.stdout, /note: a sampled run overflows a signed type at line 3: undefined behaviour/);
  const bad = await farkas(['verify', f, '--data-model', 'LP128']);
  t.is(bad.code, 3);
  t.regex(bad.stderr, /--data-model.*LP128/);
});

test('the text output states the semantics; a correctness witness states the data model and the premise', async (t) => {
  const f = file('long64.c', LONG);
  const witness = join(dir, 'long64.yml');
  const r = await farkas(['verify', f, '--data-model', 'LP64', '--witness', witness]);
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /semantics: C integers \(LP64\); signed overflow, undefined behaviour, is assumed absent/);
  const [entry] = parseYaml(readFileSync(witness, 'utf8')) as [{ metadata: { task: { data_model: string; specification: string }; producer: { configuration: string } } }];
  t.is(entry.metadata.task.data_model, 'LP64');
  t.is(entry.metadata.task.specification, 'G ! call(reach_error())');
  t.regex(entry.metadata.producer.configuration, /premise: no signed overflow/);
});

test('--property no-overflow: a replayed overflowing run is unsafe; for reachability the same program is safe', async (t) => {
  const f = file('overflow.c', OVERFLOW);
  const reach = await farkas(['verify', f, '--json']);
  t.is(reach.code, 0, reach.stderr);
  t.like(JSON.parse(reach.stdout), { verdict: 'safe', property: 'unreach-call' });
  const overflow = await farkas(['verify', f, '--property', 'no-overflow']);
  t.is(overflow.code, 1, overflow.stderr);
  t.regex(overflow.stdout, /property: no signed overflow \(C integers, ILP32\)/);
  t.regex(overflow.stdout, /nondet 2147483647; a signed operation overflows at line 4 \(replayed by the interpreter\)/);
  const prp = file('properties/no-overflow.prp', 'CHECK( init(main()), LTL(G ! overflow) )\n');
  const viaFile = await farkas(['verify', f, '--property', prp, '--json']);
  t.like(JSON.parse(viaFile.stdout), { verdict: 'unsafe', property: 'no-overflow', premises: [] });
  // `farkas run` reports the overflow at its line whatever the property.
  const run = await farkas(['run', f, '--nondet', '2147483647']);
  t.is(run.code, 2);
  t.regex(run.stdout, /overflow\.c:4: signed overflow/);
});

test('a task .yml is read for its program, property and data model; --property overrides it', async (t) => {
  file('task/long.c', LONG);
  const reach = file('task/properties/unreach-call.prp', 'CHECK( init(main()), LTL(G ! call(reach_error())) )\n');
  file('task/properties/no-overflow.prp', 'CHECK( init(main()), LTL(G ! overflow) )\n');
  file('task/properties/termination.prp', 'CHECK( init(main()), LTL(F end) )\n');
  const yml = file('task/long.yml', [
    "format_version: '2.0'",
    "input_files: 'long.c'",
    'properties:',
    '  - property_file: properties/termination.prp',
    '    expected_verdict: true',
    '  - property_file: properties/unreach-call.prp',
    '    expected_verdict: true',
    '  - property_file: properties/no-overflow.prp',
    '    expected_verdict: true',
    'options:',
    '  language: C',
    '  data_model: LP64',
    '',
  ].join('\n'));
  const r = await farkas(['verify', yml, '--json']);
  t.is(r.code, 0, r.stderr);
  t.like(JSON.parse(r.stdout), { file: join(dir, 'task/long.c'), verdict: 'safe', dataModel: 'LP64', property: 'unreach-call' });
  const ilp = await farkas(['verify', yml, '--data-model', 'ILP32', '--json']);
  t.like(JSON.parse(ilp.stdout), { verdict: 'unsafe', dataModel: 'ILP32' });
  const noOverflow = await farkas(['verify', yml, '--property', 'no-overflow', '--json']);
  t.like(JSON.parse(noOverflow.stdout), { verdict: 'safe', property: 'no-overflow' });
  // The task's termination property, by name or by its .prp file; only verify checks it.
  const ends = await farkas(['verify', yml, '--property', join(dir, 'task/properties/termination.prp'), '--json', '--timeout', '100']);
  t.is(ends.code, 0, ends.stderr);
  t.like(JSON.parse(ends.stdout), { verdict: 'safe', property: 'termination', certified: true });
  const wp = await farkas(['wp', yml, '--property', 'termination']);
  t.is(wp.code, 3);
  t.regex(wp.stderr, /checks unreach-call and no-overflow, not termination \(use 'farkas verify --property termination'\)/);
  t.truthy(reach);
});

test('property files: the LTL formula decides; unsupported or malformed ones are input errors', (t) => {
  t.is(propertyOfPrp('CHECK( init(main()), LTL(G ! call(reach_error())) )\n', 'a.prp'), 'unreach-call');
  t.is(propertyOfPrp('CHECK( init(main()), LTL(G ! overflow) )', 'b.prp'), 'no-overflow');
  t.is(propertyOfPrp('CHECK( init(main()), LTL(F end) )', 't.prp'), 'termination');
  t.throws(() => propertyOfPrp('CHECK( init(main()), LTL(G valid-free) )', 'm.prp'), { instanceOf: InputError, message: /m\.prp: property LTL\(G valid-free\)/ });
  t.throws(() => propertyOfPrp('nonsense', 'n.prp'), { instanceOf: InputError, message: /not an SV-COMP property file/ });
});

test('bad --property values and tasks are input errors (exit 3)', async (t) => {
  const f = file('ok.c', 'int main() { return 0; }\n');
  const name = await farkas(['verify', f, '--property', 'memsafety']);
  t.is(name.code, 3);
  t.regex(name.stderr, /--property expects 'unreach-call', 'no-overflow', 'termination' or an SV-COMP \.prp file, got 'memsafety'/);
  const missing = await farkas(['verify', f, '--property', join(dir, 'absent.prp')]);
  t.is(missing.code, 3);
  t.regex(missing.stderr, /cannot read/);
  const noProperty = file('np/task.yml', "format_version: '2.0'\ninput_files: 'ok.c'\nproperties: []\n");
  const r = await farkas(['verify', noProperty]);
  t.is(r.code, 3);
  t.regex(r.stderr, /lists no property farkas checks/);
  const notYaml = file('bad.yml', 'input_files: [unclosed\n');
  t.is((await farkas(['cfg', notYaml])).code, 3);
});
