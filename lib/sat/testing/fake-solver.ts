// Builds a tiny stand-in for an external SAT solver (a node script answering by brute force) for the
// `dimacs:CMD` back-end tests. The argument ending in .cnf is the input, another one the behaviour;
// named `cadical`, it is also given cadical's conflict limit `-c N`.
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export type FakeSolverMode = 'normal' | 'exit-code-only' | 'wrong-model' | 'no-model' | 'sleep' | 'crash' | 'killed';

const SCRIPT = String.raw`
const fs = require('node:fs');
const args = process.argv.slice(2);
// cadical's conflict limit, '-c N': a limit of 0 answers UNKNOWN, as cadical does when it runs out.
const limitAt = args.indexOf('-c');
const conflictLimit = limitAt >= 0 ? Number(args.splice(limitAt, 2)[1]) : null;
const path = args.find((arg) => arg.endsWith('.cnf'));
const mode = args.find((arg) => !arg.endsWith('.cnf')) || 'normal';
process.stdout.write('c fake solver reading ' + path + '\n');
if (mode === 'sleep') setInterval(() => {}, 1000);
else if (conflictLimit === 0 && mode === 'normal') { process.stdout.write('s UNKNOWN\n'); process.exit(0); }
else if (mode === 'killed') process.kill(process.pid, 'SIGKILL');
else if (mode === 'crash') { process.stderr.write('boom: cannot parse\n'); process.exit(1); }
else {
  const words = fs.readFileSync(path, 'utf8').split('\n').filter((l) => l && l[0] !== 'c');
  const [, , vars] = words[0].split(/\s+/);
  const numVars = Number(vars);
  const clauses = words.slice(1).join(' ').split(/\s+/).filter(Boolean).map(Number)
    .reduce((acc, lit) => { if (lit === 0) acc.push([]); else acc[acc.length - 1].push(lit); return acc; }, [[]]);
  clauses.pop();
  let model = null;
  for (let bits = 0; bits < 2 ** numVars && !model; bits++) {
    const value = (v) => ((bits >> (v - 1)) & 1) === 1;
    if (clauses.every((c) => c.some((l) => value(Math.abs(l)) === l > 0))) {
      model = Array.from({ length: numVars }, (_, i) => (value(i + 1) ? i + 1 : -(i + 1)));
    }
  }
  if (mode === 'wrong-model' && model) model = model.map((l) => -Math.abs(l));
  if (mode !== 'exit-code-only') process.stdout.write(model ? 's SATISFIABLE\n' : 's UNSATISFIABLE\n');
  if (model && mode !== 'no-model') {
    for (let i = 0; i < model.length; i += 4) process.stdout.write('v ' + model.slice(i, i + 4).join(' ') + '\n');
    process.stdout.write('v 0\n');
  }
  process.exit(model ? 10 : 20);
}
`;

/** Writes the fake solver into `dir` and returns its path (executable). */
export async function writeFakeSolver(dir: string): Promise<string> {
  const path = join(dir, 'fake-solver');
  await writeFile(path, `#!${process.execPath}\n${SCRIPT}`);
  await chmod(path, 0o755);
  return path;
}
