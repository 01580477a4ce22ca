import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CLI_ENV, DEFAULT_CLI, DEFAULT_SUITE, parseHarnessArgs, type HarnessOptions } from './options.js';
import { runHarness, selectTasks } from './run.js';
import { fakeProgram, writeFakeCli } from './testing/fake-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'farkas-harness-'));
const fake = writeFakeCli(dir);
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const proofStep = { template: 'conj2', widths: { coefficient: 3, constant: 6, multiplier: 2 }, unknowns: 9, constraints: 4, variables: 120, clauses: 4567, encodeMs: 2, satMs: 40, backend: 'minisat', result: 'sat' };
const SAFE = { exit: 0, verdict: 'safe', certified: true, stats: [proofStep], millis: 60 };
const UNSAFE = { exit: 1, verdict: 'unsafe', stats: [] };
const UNKNOWN = { exit: 2, verdict: 'unknown', reason: 'template exhausted', stats: [] };

let suiteCount = 0;
/** A suite folder of sidecar tasks: name → [expected verdict, fake behaviour, extra sidecar lines]. */
function suite(tasks: Record<string, [string, object, string?]>): string {
  const root = join(dir, `suite${suiteCount++}`);
  for (const [name, [verdict, spec, extra]] of Object.entries(tasks)) {
    mkdirSync(join(root, 'lit'), { recursive: true });
    writeFileSync(join(root, 'lit', `${name}.c`), fakeProgram(spec));
    writeFileSync(join(root, 'lit', `${name}.expect.yaml`), `verdict: ${verdict}\nsource: test\n${extra ?? ''}`);
  }
  return root;
}

function options(suites: string[], extra: Partial<HarnessOptions> = {}): HarnessOptions {
  return { suites, indexFiles: [], borderline: false, timeoutSeconds: 30, killGraceSeconds: 5, jobs: 1, json: false, list: false, cli: fake, out: join(dir, `report${suiteCount++}.md`), ...extra };
}

async function run(opts: HarnessOptions): Promise<{ code: number; out: string; err: string; json: any; markdown: string }> {
  let out = '';
  let err = '';
  const code = await runHarness(opts, { out: (s) => (out += s), err: (s) => (err += s) });
  const md = opts.out!;
  const jsonPath = md.replace(/\.md$/, '.json');
  return { code, out, err, markdown: existsSync(md) ? readFileSync(md, 'utf8') : '', json: existsSync(jsonPath) ? JSON.parse(readFileSync(jsonPath, 'utf8')) : undefined };
}

test('an all-correct run exits 0 and saves the Markdown table and the raw JSON', async (t) => {
  const root = suite({
    proved: ['safe', SAFE, 'function: PV1\ncutsets: [paths, headers]\n'],
    bug: ['unsafe', UNSAFE],
    hard: ['safe', UNKNOWN],
    odd: ['safe', { exit: 3, stderr: 'odd.c:2:3: unsupported: pointer type\n' }],
  });
  const r = await run(options([root], { jobs: 2 }));
  t.is(r.code, 0, r.out + r.err);
  t.notRegex(r.out, /!!!/);
  t.regex(r.out, /proved safe: 2 \/ 4 expected-safe/);
  t.regex(r.out, /unsafe found: 1 \/ 1 expected-unsafe/);
  t.regex(r.out, /rejected \(unsupported input\): 1/);
  t.deepEqual(r.json.records.map((x: any) => [x.task, x.cutset, x.status]), [
    ['lit/bug', 'paths', 'unsafe'],
    ['lit/hard', 'paths', 'unknown'],
    ['lit/odd', 'paths', 'rejected'],
    ['lit/proved', 'paths', 'safe'],
    ['lit/proved', 'headers', 'safe'],
  ]);
  // The CLI got the sidecar's function and each cut-set.
  const proved = r.json.records.filter((x: any) => x.task === 'lit/proved');
  t.deepEqual(proved.map((x: any) => x.report.args.slice(4)), [['30', '--cutset', 'paths', '--function', 'PV1'], ['30', '--cutset', 'headers', '--function', 'PV1']]);
  t.regex(r.markdown, /\| lit\/proved \| safe \| safe \| yes \| headers \| conj2 \|  \| 120 \| 4567 \| 0\.04 \|  \| 0\.06 \|/);
  t.regex(r.markdown, /lit\/odd \(paths, rejected\): odd\.c:2:3: unsupported: pointer type/);
});

test('a wrong verdict is printed loudly and fails the run', async (t) => {
  const root = suite({ fine: ['safe', SAFE], liar: ['unsafe', SAFE], liar2: ['safe', UNSAFE] });
  const r = await run(options([root]));
  t.is(r.code, 1);
  t.regex(r.out, /!!! WRONG VERDICT: lit\/liar \(paths\) is expected unsafe but farkas said safe/);
  t.regex(r.out, /!!! WRONG VERDICT: lit\/liar2 \(paths\) is expected safe but farkas said unsafe/);
  t.regex(r.out, /!!! 2 WRONG VERDICTS/);
  t.is(r.json.totals.wrong, 2);
  t.regex(r.markdown, /\| lit\/liar \| unsafe \| safe \| WRONG \|/);
});

test('internal errors fail the run; a hard-killed run is only inconclusive', async (t) => {
  const crash = suite({ crash: ['safe', { exit: 4, stderr: 'farkas: internal error: oops\n' }] });
  const r1 = await run(options([crash]));
  t.is(r1.code, 1);
  t.regex(r1.out, /!!! ERROR: lit\/crash \(paths\): farkas: internal error: oops/);

  // Alone in its suite: the short deadline would also cut off a slow-starting healthy run on a busy machine.
  const stuck = suite({ stuck: ['safe', { hang: true }] });
  const r2 = await run(options([stuck], { timeoutSeconds: 0.5, killGraceSeconds: 0.5 }));
  t.is(r2.code, 0, r2.out);
  t.deepEqual(r2.json.records.map((x: any) => [x.task, x.status, x.correctness]), [['lit/stuck', 'timeout', 'inconclusive']]);
  t.regex(r2.out, /unknown: 1 \(1 killed at the hard timeout\)/);
});

test('--engine all: every engine on each task, side by side, a wrong engine fails the run', async (t) => {
  const root = suite({ loop: ['safe', { ...SAFE, byCutset: { symbolic: UNSAFE, 'lazy-annotation': UNKNOWN } }] });
  const r = await run(options([root], { engines: ['constraints', 'lazy-abstraction', 'symbolic', 'lazy-annotation'] }));
  t.is(r.code, 1);
  t.deepEqual(r.json.records.map((x: any) => [x.cutset, x.status]), [['paths', 'safe'], ['lazy-abstraction', 'safe'], ['symbolic', 'unsafe'], ['lazy-annotation', 'unknown']]);
  // Interpolation engines run through `farkas check FILE --engine E`.
  t.deepEqual(r.json.records[2].report.args.slice(0, 4), ['check', r.json.records[2].file, '--engine', 'symbolic']);
  t.regex(r.out, /!!! WRONG VERDICT: lit\/loop \(symbolic\)/);
  t.regex(r.out, /per engine:\n  constraints +proved 1\/1/);
  t.regex(r.out, /symbolic +proved 0\/1, unsafe found 0\/0, unknown 0, WRONG 1/);
  t.regex(r.markdown, /## Per engine/);
});

test('--via-chc: each task also through its Horn-clause export, and where the front ends differ', async (t) => {
  const root = suite({
    same: ['safe', SAFE],
    only: ['safe', { ...UNKNOWN, byCutset: { chc: SAFE } }],
    differ: ['unsafe', { ...UNSAFE, byCutset: { chc: SAFE } }],
    recursive: ['safe', { ...SAFE, emit: { exit: 3, stderr: 'r.c:3:1: unsupported: recursion in a Horn-clause export\n' } }],
  });
  const r = await run(options([root], { viaChc: true }));
  t.is(r.code, 1);
  t.deepEqual(r.json.records.map((x: any) => [x.task, x.cutset, x.status]), [
    ['lit/differ', 'paths', 'unsafe'], ['lit/differ', 'chc', 'safe'],
    ['lit/only', 'paths', 'unknown'], ['lit/only', 'chc', 'safe'],
    ['lit/recursive', 'paths', 'safe'], ['lit/recursive', 'chc', 'rejected'],
    ['lit/same', 'paths', 'safe'], ['lit/same', 'chc', 'safe'],
  ]);
  // The CHC run solved the export, an .smt2 file, with the harness's timeout.
  const chc = r.json.records.find((x: any) => x.task === 'lit/same' && x.cutset === 'chc');
  t.regex(chc.report.args[1], /\.smt2$/);
  t.deepEqual(chc.report.args.slice(2), ['--json', '--timeout', '30']);
  t.regex(r.out, /!!! WRONG VERDICT: lit\/differ \(chc\)/);
  t.regex(r.out, /C front end against its Horn-clause export \(4 tasks\): the same verdict on 1; different on 1 \(lit\/differ\)/);
  t.regex(r.out, /a verdict from the C front end only: lit\/recursive/);
  t.regex(r.out, /a verdict from the Horn clauses only: lit\/only/);
  t.deepEqual(r.json.frontEnds.differ, ['lit/differ']);
  t.regex(r.markdown, /## Front ends/);
  t.true('exitCode' in parseHarnessArgs(['--via-chc', '--property', 'termination']));
});

test('filter, limit, a cut-set override and --json output', async (t) => {
  const root = suite({ alpha: ['safe', SAFE], beta: ['safe', SAFE], gamma: ['safe', SAFE, 'cutsets: [headers]\n'] });
  const r = await run(options([root], { filter: 'A', limit: 2, cutsets: ['headers', 'paths'], json: true }));
  t.is(r.code, 0);
  const printed = JSON.parse(r.out);
  t.deepEqual(printed.records.map((x: any) => `${x.task}:${x.cutset}`), ['lit/alpha:headers', 'lit/alpha:paths', 'lit/beta:headers', 'lit/beta:paths']);
  t.regex(r.err, /task +expected +verdict/, 'the table goes to stderr with --json');
});

test('no selected task and bad metadata are usage errors (exit 3)', async (t) => {
  const root = suite({ alpha: ['safe', SAFE] });
  t.is((await run(options([root], { filter: 'zzz' }))).code, 3);
  const noBuild = await run(options([root], { cli: ['node', join(dir, 'missing', 'main.js')] }));
  t.is(noBuild.code, 3);
  t.regex(noBuild.err, /main\.js does not exist \(build first/);
  const bad = suite({ beta: ['maybe', SAFE] });
  const r = await run(options([bad]));
  t.is(r.code, 3);
  t.regex(r.err, /beta\.expect\.yaml: 'verdict' must be safe or unsafe/);
});

test('several suites get their folder name as id prefix', (t) => {
  const a = suite({ one: ['safe', SAFE] });
  const b = suite({ two: ['unsafe', UNSAFE] });
  const ids = selectTasks(options([a, b])).tasks.map((x) => x.id);
  t.deepEqual(ids, [`${a.split('/').pop()}/lit/one`, `${b.split('/').pop()}/lit/two`]);
});

test('argument parsing: defaults, the CLI from the environment or --cli, help and usage errors', (t) => {
  const d = parseHarnessArgs([], {});
  t.true('options' in d && d.options.suites[0] === DEFAULT_SUITE && d.options.timeoutSeconds === 60 && d.options.jobs === 1 && d.options.cli === DEFAULT_CLI);
  const env = parseHarnessArgs(['--cutset', 'headers'], { [CLI_ENV]: 'node fake.js' });
  t.true('options' in env && env.options.cli.join(' ') === 'node fake.js' && env.options.cutsets?.join() === 'headers');
  const flag = parseHarnessArgs(['s1', 's2', '--cli', "node 'a b.js'", '--timeout', '1.5', '--jobs', '3', '--index', 'I.tsv'], { [CLI_ENV]: 'other' });
  t.true('options' in flag);
  if ('options' in flag) {
    t.deepEqual([flag.options.suites, flag.options.cli, flag.options.timeoutSeconds, flag.options.jobs, flag.options.indexFiles], [['s1', 's2'], ['node', 'a b.js'], 1.5, 3, ['I.tsv']]);
  }
  const verifyJobs = parseHarnessArgs(['--verify-jobs', '2'], {});
  t.true('options' in verifyJobs && verifyJobs.options.verifyJobs === 2 && !('verifyJobs' in (d as { options: HarnessOptions }).options));
  const onlyIndex = parseHarnessArgs(['--index', 'I.tsv'], {});
  t.true('options' in onlyIndex && onlyIndex.options.suites.length === 0);
  const engines = parseHarnessArgs(['--engine', 'all'], {});
  t.deepEqual('options' in engines ? engines.options.engines : null, ['constraints', 'lazy-abstraction', 'symbolic', 'lazy-annotation']);
  t.is('options' in d ? d.options.engines : 'no', undefined);
  const help = parseHarnessArgs(['--help'], {});
  t.true('exitCode' in help && help.exitCode === 0 && /Exit status/.test(help.output));
  for (const bad of [['--timeout', '0'], ['--jobs', 'x'], ['--verify-jobs', '0'], ['--cutset', 'loops'], ['--frobnicate']]) {
    const r = parseHarnessArgs(bad, {});
    t.true('exitCode' in r && r.exitCode === 3, bad.join(' '));
  }
});

test('the compiled entry point runs end to end and exits 1 on a wrong verdict', async (t) => {
  const root = suite({ liar: ['unsafe', SAFE] });
  const harness = fileURLToPath(new URL('./harness.js', import.meta.url));
  const out = join(dir, 'e2e.md');
  const error = await promisify(execFile)(process.execPath, [harness, root, '--out', out], { env: { ...process.env, [CLI_ENV]: fake.join(' ') } }).then(
    () => undefined,
    (e: { code: number; stdout: string }) => e,
  );
  t.is(error?.code, 1);
  t.regex(error?.stdout ?? '', /!!! WRONG VERDICT/);
  t.true(existsSync(out) && existsSync(join(dir, 'e2e.json')));
});
