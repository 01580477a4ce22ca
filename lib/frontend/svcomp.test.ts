// The front end on the SV-COMP tasks in shared/bench/svcomp (INDEX.tsv): every file ends in a
// well-formed Program or an InputError (never another exception), and every task is accepted: the
// dev set is the SV-COMP subset farkas reads (issue 18 added unsigned types). Skipped, with a log line,
// when the benchmark folder is absent.
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../diagnostics.js';
import { parseProgram } from './index.js';
import { wellFormednessProblems } from './testing/well-formed.js';

// dist/lib/frontend → repository root → ../shared/bench/svcomp
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const benchDir = resolve(repoRoot, '..', 'shared', 'bench', 'svcomp');

interface Task {
  readonly folder: string;
  readonly name: string;
  readonly usesUnsigned: boolean;
}

function tasks(): Task[] {
  const [header, ...rows] = readFileSync(join(benchDir, 'INDEX.tsv'), 'utf8').trim().split('\n');
  const cols = header!.split('\t');
  const at = (name: string) => cols.indexOf(name);
  return rows.map((line) => {
    const f = line.split('\t');
    return { folder: f[at('folder')]!, name: f[at('name')]!, usesUnsigned: f[at('uses_unsigned')] === 'yes' };
  });
}

function programFile(task: Task): string {
  const c = join(benchDir, task.folder, `${task.name}.c`);
  return existsSync(c) ? c : join(benchDir, task.folder, `${task.name}.i`);
}

test('every SV-COMP task parses to a well-formed Program or is rejected with an InputError', (t) => {
  if (!existsSync(join(benchDir, 'INDEX.tsv'))) {
    t.log(`skipped: no benchmark folder at ${benchDir}`);
    t.pass();
    return;
  }
  const all = tasks();
  t.true(all.length > 0);
  let parsed = 0;
  const reasons = new Map<string, number>();
  for (const task of all) {
    const file = programFile(task);
    t.true(existsSync(file), `missing ${file}`);
    try {
      const program = parseProgram(readFileSync(file, 'utf8'), file);
      t.deepEqual(wellFormednessProblems(program), [], file);
      parsed++;
    } catch (e) {
      if (!(e instanceof InputError)) {
        t.fail(`${file}: ${e instanceof Error ? e.stack : String(e)}`);
        continue;
      }
      t.not(e.pos, null, `${file}: diagnostic without a position`);
      t.fail(`${task.folder}/${task.name}${task.usesUnsigned ? ' (unsigned)' : ''} was rejected: ${e.message}`);
      const reason = `${e.kind}: ${e.detail}`;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
  }
  t.log(`${all.length} tasks: ${parsed} parsed, ${all.length - parsed} rejected`);
  for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1])) t.log(`  ${n} × ${reason}`);
});
