// A process that used the checker must end by itself after shutdownZ3(): z3's worker threads
// would otherwise keep it alive, and ending them during a check would hang it.
import test from 'ava';
import { spawn } from 'node:child_process';

const here = (file: string): string => new URL(file, import.meta.url).href;

interface ChildOutcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs an ES module snippet in a fresh Node process; a process that hangs is killed after `limitMs`. */
function runChild(source: string, limitMs = 60_000): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const imports = `
import { program, cond } from ${JSON.stringify(here('../ir/testing/builder.js'))};
import * as F from ${JSON.stringify(here('../ir/formula.js'))};
import * as L from ${JSON.stringify(here('../ir/linear.js'))};
import { checkInvariants } from ${JSON.stringify(here('./certificate.js'))};
import { isSatisfiable } from ${JSON.stringify(here('./lia.js'))};
import { shutdownZ3 } from ${JSON.stringify(here('../sat/z3-context.js'))};
`;

test('a process exits by itself after checking and shutdownZ3()', async (t) => {
  const outcome = await runChild(`${imports}
const prog = program((p) => p.procedure('PV1', { params: ['y'] }, (b) => {
  b.assign('x', -50).while('x < 0', (w) => w.assign('x', 'x + y').assign('y', 'y + 1')).assert('y > 0');
}));
const proc = prog.procedures.get('PV1');
const header = proc.locations.find((l) => l.loopHeader).id;
const result = await checkInvariants(prog, 'PV1', new Map([[header, cond('x < 0 || y > 0')]]));
console.log('valid=' + result.valid);
await shutdownZ3();
`);
  t.is(outcome.signal, null, 'the process hung and was killed');
  t.is(outcome.code, 0, outcome.stderr);
  t.regex(outcome.stdout, /valid=true/);
});

for (const delayMs of [0, 300]) {
  test(`shutdownZ3() ${delayMs} ms after a hard check starts interrupts it: unknown, and the process exits`, async (t) => {
    const outcome = await runChild(`${imports}
let seed = 12345n;
const next = () => { seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n); return (seed >> 24n) % (1n << 36n); };
const parts = [], terms = [];
for (let i = 0; i < 50; i++) {
  const v = L.variable('b' + i);
  parts.push(F.compare(v, '>=', L.constant(0n)), F.compare(v, '<=', L.constant(1n)));
  terms.push(['b' + i, next()]);
}
const half = terms.reduce((s, [, k]) => s + k, 0n) / 2n;
const hard = F.and(...parts, F.eqZero(L.fromTerms(terms, -half)));
await isSatisfiable(F.TRUE); // z3 is up before the race starts
const running = isSatisfiable(hard);
setTimeout(() => { void shutdownZ3(); }, ${delayMs});
const result = await running;
console.log('status=' + result.status + ' reason=' + result.reason);
`);
    t.is(outcome.signal, null, 'the process hung and was killed');
    t.is(outcome.code, 0, outcome.stderr);
    t.regex(outcome.stdout, /status=unknown reason=z3 was interrupted/);
  });
}
