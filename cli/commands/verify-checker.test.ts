// `--checker`: native z3 and the WASM build check the same text, so verify's answers must not depend
// on which one is in use. Runs the built CLI with each on C programs and Horn clauses of benchmarks/.
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { resolveChecker } from '../../lib/certify/lia-solver.js';
import { farkas as runFarkas } from '../testing/farkas-bin.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const farkas = (args: string[], options: { env?: NodeJS.ProcessEnv } = {}) => runFarkas(args, { ...options, cwd: root });

interface Answer {
  readonly verdict: string;
  readonly checker: string;
  readonly invariants: readonly { readonly line: number; readonly expression: string }[];
  readonly chc?: string;
}

async function answer(file: string, checker: string): Promise<Answer> {
  const { stdout, stderr } = await farkas(['verify', file, '--json', '--jobs', '1', '--timeout', '60', '--checker', checker]);
  try {
    return JSON.parse(stdout) as Answer;
  } catch {
    throw new Error(`${file} --checker ${checker}: not JSON: ${stdout}${stderr}`);
  }
}

const nativeZ3 = resolveChecker('auto').kind === 'native';

// Safe and unsafe, C and Horn clauses (linear, nonlinear), Houdini and the template search.
const FILES = [
  'benchmarks/paper/fig1.c',
  'benchmarks/literature/broken-sum.c',
  'benchmarks/literature/count-up.c',
  'benchmarks/chc/counter.smt2',
  'benchmarks/chc/counter-bug.smt2',
  'benchmarks/chc/flag.smt2',
  'benchmarks/chc/sum-calls.smt2',
];

// Without native z3 on PATH these are skipped (reported as such).
for (const file of FILES) {
  (nativeZ3 ? test : test.skip)(`${file}: the same verdict and invariants with native z3 and with the WASM build`, async (t) => {
    const [native, wasm] = await Promise.all([answer(file, 'native'), answer(file, 'wasm')]);
    t.is(native.checker, 'native');
    t.is(wasm.checker, 'wasm');
    t.not(native.verdict, 'unknown');
    t.is(native.verdict, wasm.verdict);
    t.is(native.chc, wasm.chc);
    // Invariants come from the search (Houdini keeps the greatest inductive subset, whatever z3's
    // models; the template search's come from SAT), not from the checker.
    if (native.chc === undefined) t.deepEqual(native.invariants.map((i) => [i.line, i.expression]), wasm.invariants.map((i) => [i.line, i.expression]));
  });
}

test('without z3 on PATH: --checker native is an input error (exit 3); auto checks with the WASM build', async (t) => {
  const env = { ...process.env, PATH: '' };
  const native = await farkas(['verify', 'benchmarks/paper/fig1.c', '--checker', 'native'], { env });
  t.is(native.code, 3);
  t.regex(native.stderr, /^error: --checker native: no z3 on PATH/);
  const auto = await farkas(['verify', 'benchmarks/paper/fig1.c', '--json', '--jobs', '1'], { env });
  t.is(auto.code, 0, auto.stderr);
  const json = JSON.parse(auto.stdout) as Answer;
  t.is(json.verdict, 'safe');
  t.is(json.checker, 'wasm');
});

test('--checker takes auto, native or wasm only', async (t) => {
  const bad = await farkas(['verify', 'benchmarks/paper/fig1.c', '--checker', 'z4']);
  t.is(bad.code, 3);
  t.regex(bad.stderr, /argument 'z4' is invalid/);
});
