import test from 'ava';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseProgram } from '../lib/frontend/index.js';
import { DEFAULT_SUITE } from './options.js';
import { discoverTasks, parseIndexCondition, parseSidecar, parseSvcompTask, TaskError, tasksFromIndex } from './tasks.js';

function tempTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'farkas-tasks-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const svcompYml = (input: string, verdict: boolean | null, extra = ''): string => `format_version: '2.0'
input_files: '${input}'
properties:
  - property_file: ../properties/termination.prp
    expected_verdict: true
${verdict === null ? '' : `  - property_file: ../properties/unreach-call.prp\n    expected_verdict: ${verdict}\n`}${extra}`;

test('parseSidecar reads verdict, function, notes and cut-sets, defaulting to [paths]', (t) => {
  t.deepEqual(parseSidecar({ verdict: 'safe' }, 'a.expect.yaml'), { expected: 'safe', cutsets: ['paths'] });
  t.deepEqual(parseSidecar({ verdict: 'unsafe', function: 'PV1', source: 'paper', notes: 'n', cutsets: ['headers', 'paths', 'headers'] }, 'a'), {
    expected: 'unsafe',
    function: 'PV1',
    source: 'paper',
    notes: 'n',
    cutsets: ['headers', 'paths'],
  });
});

test('parseSidecar rejects bad metadata with the file name', (t) => {
  const bad: unknown[] = [
    null,
    { verdict: 'true' },
    { verdict: 'safe', cutset: ['paths'] },
    { verdict: 'safe', cutsets: ['loops'] },
    { verdict: 'safe', cutsets: [] },
    { verdict: 'safe', function: 'not an identifier' },
    { verdict: 'safe', notes: 3 },
  ];
  for (const data of bad) {
    const e = t.throws(() => parseSidecar(data, 'x.expect.yaml'), { instanceOf: TaskError }, JSON.stringify(data));
    t.true(e!.message.startsWith('x.expect.yaml: '));
  }
});

test('parseSvcompTask takes the expected verdict of the unreach-call property only', (t) => {
  const r = parseSvcompTask({ input_files: 'p.i', properties: [{ property_file: 'x/termination.prp', expected_verdict: false }, { property_file: '../properties/unreach-call.prp', expected_verdict: true }] }, '/s/d/p.yml');
  t.deepEqual(r, { inputFile: '/s/d/p.i', expected: 'safe' });
  t.deepEqual(parseSvcompTask({ input_files: ['q.c'], properties: [{ property_file: 'unreach-call.prp', expected_verdict: false }] }, '/s/q.yml'), { inputFile: '/s/q.c', expected: 'unsafe' });
  t.deepEqual(parseSvcompTask({ input_files: 'p.i', properties: [{ property_file: 'no-overflow.prp', expected_verdict: false }] }, '/s/p.yml'), { skip: 'no unreach-call property' });
  // With the no-overflow property, that one's verdict is the truth.
  t.deepEqual(parseSvcompTask({ input_files: 'p.i', properties: [{ property_file: 'no-overflow.prp', expected_verdict: false }] }, '/s/p.yml', 'no-overflow'), { inputFile: '/s/p.i', expected: 'unsafe' });
  t.true('skip' in parseSvcompTask({ input_files: ['a.c', 'b.c'], properties: [] }, '/s/p.yml'));
  t.throws(() => parseSvcompTask({ properties: [] }, '/s/p.yml'), { instanceOf: TaskError });
});

test('discoverTasks finds sidecar and SV-COMP tasks, skips _borderline, results and non-task YAML', (t) => {
  const root = tempTree({
    'paper/fig1.c': 'void PV1(int y) {}',
    'paper/fig1.expect.yaml': 'verdict: safe\nfunction: PV1\ncutsets: [paths, headers]\n',
    'lit/bug.c': 'int main() {}',
    'lit/bug.expect.yaml': 'verdict: unsafe\n',
    'lit/orphan.c': 'int main() {}',
    'sv/loop/a.i': 'int main() {}',
    'sv/loop/a.yml': svcompYml('a.i', false),
    'sv/loop/b.c': 'int main() {}',
    'sv/loop/b.yml': svcompYml('b.c', null),
    'sv/_borderline/loop/c.i': 'int main() {}',
    'sv/_borderline/loop/c.yml': svcompYml('c.i', true),
    'results/old.expect.yaml': 'verdict: safe\n',
    'templates/paper.yaml': 'steps: []\n',
  });
  try {
    const found = discoverTasks(root);
    t.deepEqual(found.tasks.map((x) => [x.id, x.expected, x.cutsets.join(','), x.function ?? '-', x.kind]), [
      ['lit/bug', 'unsafe', 'paths', '-', 'sidecar'],
      ['paper/fig1', 'safe', 'paths,headers', 'PV1', 'sidecar'],
      ['sv/loop/a', 'unsafe', 'paths', '-', 'svcomp'],
    ]);
    t.is(found.tasks[2]!.file, join(root, 'sv/loop/a.i'));
    t.deepEqual(found.skipped, [{ taskFile: join(root, 'sv/loop/b.yml'), reason: 'no unreach-call property' }]);
    t.deepEqual(discoverTasks(root, { borderline: true }).tasks.map((x) => x.id), ['lit/bug', 'paper/fig1', 'sv/_borderline/loop/c', 'sv/loop/a']);
    t.deepEqual(discoverTasks(join(root, 'sv')).tasks.map((x) => x.id), ['loop/a']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('discoverTasks reports a sidecar without its program and malformed YAML with the file', (t) => {
  const root = tempTree({ 'a.expect.yaml': 'verdict: safe\n' });
  const broken = tempTree({ 'b.c': '', 'b.expect.yaml': 'verdict: [safe\n' });
  try {
    t.throws(() => discoverTasks(root), { instanceOf: TaskError, message: /a\.expect\.yaml: no program a\.c or a\.i/ });
    t.throws(() => discoverTasks(broken), { instanceOf: TaskError, message: /b\.expect\.yaml(:\d+)?: invalid YAML/ });
    t.throws(() => discoverTasks(join(root, 'missing')), { instanceOf: TaskError, message: /not a folder/ });
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(broken, { recursive: true, force: true });
  }
});

test('tasksFromIndex reads folder/name rows and checks the verdict against the task file', (t) => {
  const root = tempTree({
    'INDEX.tsv': 'folder\tname\texpected_verdict\tnotes\nloop\ta\tfalse\t\nloop\tb\ttrue\tx\n',
    'loop/a.i': '',
    'loop/a.yml': svcompYml('a.i', false),
    'loop/b.c': '',
    'loop/b.yml': svcompYml('b.c', true),
    'bad/INDEX.tsv': 'folder\tname\texpected_verdict\n..\tloop/a\ttrue\n',
    'nocol/INDEX.tsv': 'folder\tname\n',
  });
  try {
    const found = tasksFromIndex(join(root, 'INDEX.tsv'));
    t.deepEqual(found.tasks.map((x) => [x.id, x.expected]), [['loop/a', 'unsafe'], ['loop/b', 'safe']]);
    // --where keeps the rows whose column meets every condition.
    t.deepEqual(tasksFromIndex(join(root, 'INDEX.tsv'), [parseIndexCondition('notes!=')!]).tasks.map((x) => x.id), ['loop/b']);
    t.deepEqual(tasksFromIndex(join(root, 'INDEX.tsv'), [parseIndexCondition('notes=')!]).tasks.map((x) => x.id), ['loop/a']);
    t.is(parseIndexCondition('no condition'), null);
    t.throws(() => tasksFromIndex(join(root, 'INDEX.tsv'), [parseIndexCondition('colour=red')!]), { instanceOf: TaskError, message: /missing column 'colour'/ });
    t.throws(() => tasksFromIndex(join(root, 'bad/INDEX.tsv')), { instanceOf: TaskError, message: /index says safe but the task file says unsafe/ });
    t.throws(() => tasksFromIndex(join(root, 'nocol/INDEX.tsv')), { instanceOf: TaskError, message: /:1: missing column 'expected_verdict'/ });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("the repository's benchmarks: the paper figures and 8-12 literature loops, all in the accepted C subset", (t) => {
  const { tasks, skipped } = discoverTasks(DEFAULT_SUITE);
  t.deepEqual(skipped, []);
  const byId = new Map(tasks.map((x) => [x.id, x]));
  for (const fig of ['paper/fig1', 'paper/fig2', 'paper/fig2-general']) {
    t.deepEqual(byId.get(fig)?.cutsets, ['paths', 'headers'], fig);
    t.is(byId.get(fig)?.expected, 'safe');
  }
  const literature = tasks.filter((x) => x.id.startsWith('literature/'));
  t.true(literature.length >= 8 && literature.length <= 12);
  const unsafe = literature.filter((x) => x.expected === 'unsafe').length;
  t.true(unsafe >= 2 && unsafe <= 3);
  for (const task of tasks) {
    t.truthy(task.source, `${task.id} names its source`);
    // Parsing with the real front end proves each program is inside the subset and the function exists.
    const program = parseProgram(readFileSync(task.file, 'utf8'), task.file);
    t.true(program.procedures.has(task.function ?? program.entry), `${task.id}: function ${task.function ?? program.entry}`);
  }
});
