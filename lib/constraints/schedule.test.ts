// Search schedules: the built-in ones by name, a user's YAML file by path, and every kind of bad file
// as an InputError with a message that says what is wrong.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../diagnostics.js';
import { DEFAULT_SCHEDULE, listSchedules, loadSchedule, parseSchedule } from './schedule.js';

const dir = mkdtempSync(join(tmpdir(), 'farkas-schedule-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

test('the built-in schedules load by name; paper starts where the paper does', (t) => {
  t.true(listSchedules().includes('paper'));
  t.true(listSchedules().includes('conjunctive'));
  const paper = loadSchedule('paper');
  t.is(paper.name, 'paper');
  t.true(paper.description.length > 0);
  t.true(paper.steps.length >= 3);
  // Section 4: 1 disjunct × 2 conjuncts, coefficients 3 bits, constants 6 bits, multipliers 1 bit.
  t.deepEqual(paper.steps[0]!.shape, { disjuncts: 1, conjuncts: 2 });
  t.deepEqual(paper.steps[0]!.widths, { coefficient: 3, constant: 6, multiplier: 1 });
  t.true(paper.steps.some((s) => s.shape.disjuncts > 1), 'the paper schedule grows disjuncts too');
  t.is(loadSchedule().name, DEFAULT_SCHEDULE);
  const conjunctive = loadSchedule('conjunctive');
  t.is(conjunctive.name, 'conjunctive');
  t.true(conjunctive.steps.length > 0);
  t.true(conjunctive.steps.every((s) => s.shape.disjuncts === 1));
});

test('a YAML file given by path is loaded, with an optional per-step timeout', (t) => {
  const path = file('mine.yaml', [
    'name: mine',
    'description: two steps',
    'steps:',
    '  - { disjuncts: 1, conjuncts: 1, coefficient: 2, constant: 4, multiplier: 1 }',
    '  - disjuncts: 2',
    '    conjuncts: 3',
    '    coefficient: 4',
    '    constant: 8',
    '    multiplier: 2',
    '    timeout: 5',
  ].join('\n'));
  const s = loadSchedule(path);
  t.is(s.name, 'mine');
  t.is(s.description, 'two steps');
  t.deepEqual(s.steps.map((x) => x.shape), [{ disjuncts: 1, conjuncts: 1 }, { disjuncts: 2, conjuncts: 3 }]);
  t.deepEqual(s.steps[1]!.widths, { coefficient: 4, constant: 8, multiplier: 2 });
  t.is(s.steps[0]!.timeLimitMs, undefined);
  t.is(s.steps[1]!.timeLimitMs, 5000);
  // Without a name the file path stands in.
  t.is(loadSchedule(file('anon.yaml', 'steps: [{ disjuncts: 1, conjuncts: 1, coefficient: 2, constant: 4, multiplier: 1 }]')).name, join(dir, 'anon.yaml'));
});

function inputError(t: import('ava').ExecutionContext, run: () => unknown, pattern: RegExp): void {
  const e = t.throws(run, { instanceOf: InputError });
  t.regex(e?.message ?? '', pattern);
  // Diagnostics print as `…: error: …` and carry no stack-trace-like text.
  t.regex(e?.message ?? '', /error: /);
  t.false((e?.message ?? '').includes('\n    at '));
}

test('an unknown schedule name or missing file is an InputError listing the built-ins', (t) => {
  inputError(t, () => loadSchedule('no-such-schedule'), /unknown template schedule 'no-such-schedule'.*paper/);
  inputError(t, () => loadSchedule(join(dir, 'missing.yaml')), /unknown template schedule/);
});

test('bad YAML, missing steps and out-of-range numbers are InputErrors naming the file and the field', (t) => {
  inputError(t, () => loadSchedule(file('bad.yaml', 'steps: [ { disjuncts: 1,\n  - : :')), /bad\.yaml: not valid YAML/);
  inputError(t, () => loadSchedule(file('scalar.yaml', '42')), /scalar\.yaml: expected a mapping with a "steps" list/);
  inputError(t, () => loadSchedule(file('nosteps.yaml', 'name: x\n')), /nosteps\.yaml: "steps" must be a non-empty list/);
  inputError(t, () => loadSchedule(file('empty.yaml', 'steps: []\n')), /"steps" must be a non-empty list/);
  inputError(t, () => loadSchedule(file('notmap.yaml', 'steps: [3]\n')), /step 1 must be a mapping/);
  const step = (fields: string) => `steps:\n  - { disjuncts: 1, conjuncts: 1, coefficient: 3, constant: 6, multiplier: 1 }\n  - { ${fields} }\n`;
  inputError(t, () => loadSchedule(file('zero.yaml', step('disjuncts: 0, conjuncts: 1, coefficient: 3, constant: 6, multiplier: 1'))), /step 2: "disjuncts" must be an integer from 1 to 8/);
  inputError(t, () => loadSchedule(file('wide.yaml', step('disjuncts: 1, conjuncts: 1, coefficient: 33, constant: 6, multiplier: 1'))), /step 2: "coefficient" must be an integer from 1 to 32/);
  inputError(t, () => loadSchedule(file('frac.yaml', step('disjuncts: 1, conjuncts: 1.5, coefficient: 3, constant: 6, multiplier: 1'))), /step 2: "conjuncts" must be an integer/);
  inputError(t, () => loadSchedule(file('text.yaml', step('disjuncts: 1, conjuncts: 1, coefficient: 3, constant: "six", multiplier: 1'))), /step 2: "constant" must be an integer/);
  inputError(t, () => loadSchedule(file('nomult.yaml', step('disjuncts: 1, conjuncts: 1, coefficient: 3, constant: 6'))), /step 2: "multiplier" must be an integer/);
  inputError(t, () => loadSchedule(file('timeout.yaml', step('disjuncts: 1, conjuncts: 1, coefficient: 3, constant: 6, multiplier: 1, timeout: -1'))), /step 2: "timeout" must be an integer/);
  // parseSchedule reports against the name it is given.
  inputError(t, () => parseSchedule('steps: 3', 'inline'), /^error: inline: "steps" must be a non-empty list/);
});

test('a step may set the number of summary pairs; the paper schedule ends with two-pair steps', (t) => {
  const s = parseSchedule('steps:\n  - { disjuncts: 1, conjuncts: 2, coefficient: 3, constant: 8, multiplier: 1, summaries: 2 }\n  - { disjuncts: 1, conjuncts: 2, coefficient: 3, constant: 8, multiplier: 1 }\n', 'q.yaml');
  t.is(s.steps[0]!.summaries, 2);
  t.is(s.steps[1]!.summaries, undefined);
  t.throws(() => parseSchedule('steps:\n  - { disjuncts: 1, conjuncts: 2, coefficient: 3, constant: 8, multiplier: 1, summaries: 0 }\n', 'bad.yaml'), { message: /bad.yaml: step 1: "summaries"/ });
  const paper = loadSchedule('paper');
  t.is(paper.steps.at(-1)!.summaries, 2);
  t.is(paper.steps[0]!.summaries, undefined);
});
