// Every command example of README.md and docs/*.md runs, so the documentation cannot drift from the
// tool (issue 24, item 5). In a fenced block, a line `$ npx farkas …` is a command and the lines up to
// the next command, the end of the block or a line `...` are the first lines of its output, compared
// exactly; in a ```sh block a line `npx farkas …` is a command whose output is not shown, which must
// exit with an answer (0–2), never an input error or a crash.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FARKAS_BIN } from './testing/farkas-bin.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = FARKAS_BIN;

interface Example {
  readonly file: string;
  readonly line: number;
  readonly args: string[];
  /** The output lines shown (null: none shown, only the exit code is checked). */
  readonly shown: string[] | null;
}

/** Shell words of a documented command line (plain words and single- or double-quoted ones). */
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

export function examplesIn(file: string, text: string): Example[] {
  const examples: Example[] = [];
  const lines = text.split('\n');
  let fence: string | null = null;
  let current: { line: number; args: string[]; shown: string[]; open: boolean } | null = null;
  const close = () => {
    if (current) examples.push({ file, line: current.line, args: current.args, shown: current.shown });
    current = null;
  };
  for (const [i, raw] of lines.entries()) {
    const line = raw.trimEnd();
    if (line.startsWith('```')) {
      if (fence === null) fence = line.slice(3).trim();
      else {
        close();
        fence = null;
      }
      continue;
    }
    if (fence === null) continue;
    const shownCommand = /^\$ npx farkas (.*)$/.exec(line);
    if (shownCommand) {
      close();
      current = { line: i + 1, args: words(shownCommand[1]!), shown: [], open: true };
      continue;
    }
    const plainCommand = fence === 'sh' ? /^npx farkas ([^#]*)/.exec(line) : null;
    if (plainCommand) {
      close();
      examples.push({ file, line: i + 1, args: words(plainCommand[1]!.trim()), shown: null });
      continue;
    }
    if (current?.open) {
      if (line.trim() === '...') current.open = false;
      else current.shown.push(line);
    }
  }
  return examples;
}

function documentation(): { file: string; text: string }[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f));
  return ['README.md', ...docs].map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
}

test('documented examples: commands and shown output are found in a fenced block', (t) => {
  const found = examplesIn('x.md', '```\n$ npx farkas wp a.c --function "f g"\nline 1\n  ...\nnot shown\n```\n```sh\nnpx farkas verify b.c   # comment\n```\n');
  t.deepEqual(found, [
    { file: 'x.md', line: 2, args: ['wp', 'a.c', '--function', 'f g'], shown: ['line 1'] },
    { file: 'x.md', line: 8, args: ['verify', 'b.c'], shown: null },
  ]);
});

const examples = documentation().flatMap(({ file, text }) => examplesIn(file, text));

test('documented examples: README and docs show at least the start and a conditions example', (t) => {
  t.true(examples.some((e) => e.file === 'README.md'), 'README.md has a command');
  t.true(examples.some((e) => e.shown !== null && e.shown.length > 0), 'some example shows output');
});

for (const example of examples) {
  test(`documented example ${example.file}:${example.line}: farkas ${example.args.join(' ')}`, (t) => {
    const run = spawnSync(process.execPath, [MAIN, ...example.args], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
    t.true(run.status !== null && run.status <= 2, `exit ${run.status}: ${run.stderr}`);
    if (example.shown === null) return;
    const printed = run.stdout.split('\n').slice(0, example.shown.length).map((l) => l.trimEnd());
    t.deepEqual(printed, example.shown);
  });
}
