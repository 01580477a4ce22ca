// A stand-in for `farkas` in the harness tests. It reads the program file it is asked to verify and
// behaves as a directive line in it says:
//   // fake-farkas: {"exit": 0, "verdict": "safe", "certified": true, "stats": [...]}
// Recognised fields: exit (exit code), verdict, certified, reason, stats, millis, stderr (text to
// print), raw (print this instead of JSON), hang (never exit, ignoring SIGTERM), grandchild (with
// hang: also start a hanging child process and write its pid to this file), byCutset (an object
// mapping a cut-set, or for `check` an engine name, to fields overriding the others; `chc` for a
// `.smt2` file). The JSON it prints echoes its arguments as `args`, so tests can check what the
// harness passed. `verify FILE --emit chc` prints the file itself (its directive goes along), or
// fails as `emit` says.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FAKE_CLI_SOURCE = String.raw`
import { readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
const args = process.argv.slice(2);
if (args[0] !== 'verify' && args[0] !== 'check') { process.stderr.write('fake-farkas: expected verify or check\n'); process.exit(3); }
const file = args[1];
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const text = readFileSync(file, 'utf8');
const m = /fake-farkas:\s*(\{.*\})/.exec(text);
if (!m) { process.stderr.write(file + ':1:1: unsupported: no fake-farkas directive\n'); process.exit(3); }
let spec = JSON.parse(m[1]);
if (option('--emit') === 'chc') {
  if (spec.emit) { process.stderr.write(spec.emit.stderr); process.exit(spec.emit.exit); }
  process.stdout.write(text);
  process.exit(0);
}
// check --engine E: byCutset is keyed by the engine's name; Horn clauses by 'chc'.
const cutset = option('--cutset') ?? option('--engine') ?? (file.endsWith('.smt2') ? 'chc' : undefined);
if (spec.byCutset && spec.byCutset[cutset]) spec = { ...spec, ...spec.byCutset[cutset] };
if (spec.hang) {
  process.on('SIGTERM', () => {});
  if (spec.grandchild) {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    writeFileSync(spec.grandchild, String(child.pid));
  }
  setInterval(() => {}, 1000);
} else {
  if (spec.stderr) process.stderr.write(spec.stderr);
  if (spec.raw !== undefined) process.stdout.write(spec.raw);
  else if (spec.verdict !== undefined) {
    process.stdout.write(JSON.stringify({
      file, function: option('--function') ?? 'main', verdict: spec.verdict,
      ...(spec.reason !== undefined ? { reason: spec.reason } : {}),
      certified: spec.certified ?? false, cutset, schedule: option('--template') ?? 'paper',
      cutpoints: 1, verificationConditions: 2, invariants: [], stats: spec.stats ?? [],
      millis: spec.millis ?? 5, args,
    }) + '\n');
  }
  process.exitCode = spec.exit ?? 0;
}
`;

/** Writes the fake CLI into `dir` and returns the command words that run it. */
export function writeFakeCli(dir: string): string[] {
  const path = join(dir, 'fake-farkas.mjs');
  writeFileSync(path, FAKE_CLI_SOURCE);
  return ['node', path];
}

/** A C file whose directive makes the fake CLI answer with `spec`. */
export function fakeProgram(spec: object): string {
  return `// fake-farkas: ${JSON.stringify(spec)}\nint main() { return 0; }\n`;
}
