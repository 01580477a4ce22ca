// `farkas constraints` end to end: the VCs and the bilinear system of one schedule step, as text and JSON.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { farkas } from '../testing/farkas-bin.js';

const dir = mkdtempSync(join(tmpdir(), 'farkas-constraints-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const PV1 = 'void PV1(int y) { int x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); }\n';

test("text output lists Fig. 1's three VCs and the constraints with their origins", async (t) => {
  const r = await farkas(['constraints', file('pv1.c', PV1), '--cutset', 'headers']);
  t.is(r.code, 0, r.stderr);
  // The step as verify solves it: the schedule's 6 constant bits widened to fit the program's -50.
  t.regex(r.stdout, /^function PV1; cut-set headers; step 1: template 1x2, widths coefficient 3, constant 7, multiplier 1/);
  t.regex(r.stdout, /unknown invariant over x, y/);
  t.regex(r.stdout, /verification conditions \(3\):/);
  t.regex(r.stdout, /VC 0: I_\d+ && 1 {2}=> {2}I_\d+\[x := -50\]/);
  t.regex(r.stdout, /VC 1: I_\d+ && x < 0 {2}=> {2}I_\d+\[x := x \+ y, y := y \+ 1\]/);
  t.regex(r.stdout, /VC 2: I_\d+ && x >= 0 {2}=> {2}assert y >= 1 \(line 1\)/);
  t.regex(r.stdout, /unknowns: \d+ \(4 coefficients, 2 constants, \d+ multipliers >= 0\)/);
  t.regex(r.stdout, /constraints \(\d+, from \d+ Farkas applications\):/);
  t.regex(r.stdout, / == 0 {4}\[VC 0 .*coefficient of y\]/);
  t.regex(r.stdout, / >= 0 {4}\[VC 2 .*constant\]/);
});

test('--json parses and is consistent with the system', async (t) => {
  const r = await farkas(['constraints', file('pv1-json.c', PV1), '--cutset', 'headers', '--json', '--step', '3']);
  t.is(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout) as {
    function: string;
    cutset: string;
    step: { template: string };
    cutpoints: Array<{ location: number; variables: string[] | null }>;
    verificationConditions: Array<{ from: number; to: number | null; guards: string; conclusion: { assertion?: string; cutpoint?: number; substitution?: Record<string, string> } }>;
    unknowns: Array<{ name: string; kind: string; nonNegative: boolean }>;
    constraints: Array<{ polynomial: string; relation: string; origin: string | null }>;
    farkasApplications: number;
  };
  t.is(json.function, 'PV1');
  t.is(json.cutset, 'headers');
  t.is(json.step.template, '2x2');
  t.is(json.cutpoints.length, 3);
  t.is(json.cutpoints.filter((c) => c.variables !== null).length, 1);
  t.is(json.verificationConditions.length, 3);
  t.deepEqual(json.verificationConditions[1]!.conclusion.substitution, { x: 'x + y', y: 'y + 1' });
  t.is(json.verificationConditions[2]!.conclusion.assertion, 'y >= 1');
  // 2x2 templates: 1·4 + 2·4 + 2·1 Farkas applications (see farkas.test.ts).
  t.is(json.farkasApplications, 14);
  t.is(json.unknowns.filter((u) => u.kind === 'coefficient').length, 8);
  t.true(json.unknowns.filter((u) => u.kind === 'multiplier').every((u) => u.nonNegative));
  const names = new Set(json.unknowns.map((u) => u.name));
  for (const c of json.constraints) {
    t.true(['==', '>='].includes(c.relation));
    t.truthy(c.origin);
    for (const v of c.polynomial.match(/[A-Za-z][A-Za-z0-9_.]*/g) ?? []) t.true(names.has(v), `${v} is a declared unknown`);
  }
});

test('bad options are input errors (exit 3)', async (t) => {
  const f = file('pv1-bad.c', PV1);
  const [step, template, cutset] = await Promise.all([
    farkas(['constraints', f, '--step', '99']),
    farkas(['constraints', f, '--template', 'nope']),
    farkas(['constraints', f, '--cutset', 'bogus']),
  ]);
  t.is(step.code, 3);
  t.regex(step.stderr, /--step must be from 1 to \d+/);
  t.is(template.code, 3);
  t.regex(template.stderr, /unknown template schedule 'nope'/);
  t.is(cutset.code, 3);
  for (const r of [step, template, cutset]) t.false(/\n\s+at /.test(r.stderr));
});
