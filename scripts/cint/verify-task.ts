// Verification tasks for the gcc-differential tester of farkas's verifier (issue 18): a generated
// program (generate.ts), smaller, whose f ends with one `__VERIFIER_assert` comparing a final variable
// with a constant or with another variable. Some of f's inputs stay parameters (`verify --function f`
// takes them as inputs), the others become locals initialised from `__VERIFIER_nondet_<type>()`.
//
// The assertion is chosen with the reference evaluator (reference.ts) on the generator's sample
// inputs (on which the program runs to the end without undefined behaviour) and on random probe
// inputs: preferably one that holds on some of those runs and fails on others ('mixed'), sometimes one
// that held on every run ('holds': the tasks a wrong "safe" would show on), rarely one that failed on
// every run ('fails'). The constant is the variable's final value on the sample inputs or a neighbour
// of it. Deterministic for a seed and index.
import { mulberry32 } from '../../lib/random.js';
import type { CompareOp, CProgram, Expr } from './ast.js';
import { CIntGenerator, interestingValue, programSeed } from './generate.js';
import { printBody } from './print.js';
import { evaluate, evaluateExpr } from './reference.js';
import { inRange, literalType, range, type DataModel, type IntType } from './types.js';

export interface TaskOptions {
  readonly dataModel: DataModel;
  /** Statements of f (each nested statement counts); default 2–10. */
  readonly minStatements?: number;
  readonly maxStatements?: number;
  /** Expression depth; default 2. */
  readonly maxDepth?: number;
  /** Chance that an input is a nondet local rather than a parameter; default 0.4. */
  readonly nondetChance?: number;
}

/** What the reference evaluator saw of the assertion on the sample and probe inputs at generation. */
export type Expectation = 'mixed' | 'holds' | 'fails';

export interface VerifyTask {
  /** `<seed>-<index>-<data model>`. */
  readonly id: string;
  /** With `nondets` and `assertion`; its `inputs` are the sample inputs, on which the reference
   * evaluator runs to the end (no undefined behaviour). */
  readonly program: CProgram;
  readonly expectation: Expectation;
  /** Inputs on which the reference evaluator saw the assertion fail without undefined behaviour
   * (a few; empty for 'holds'). */
  readonly failing: readonly ReadonlyMap<string, bigint>[];
}

/** Every input of a task's f: its parameters, then its nondet inputs in the order f reads them. */
export function taskInputs(p: CProgram): readonly { readonly name: string; readonly type: IntType }[] {
  return [...p.params, ...(p.nondets ?? [])];
}

/** The variables an assertion may compare: globals, inputs and locals (not loop counters). */
function assertable(p: CProgram): string[] {
  return [...p.globals.map((g) => g.name), ...taskInputs(p).map((q) => q.name), ...p.locals.map((l) => l.name)];
}

/** The reference run of a task's f on the given inputs (its assertion included). */
export function referenceRun(p: CProgram, inputs: ReadonlyMap<string, bigint>) {
  const q: CProgram = { ...p, inputs };
  return evaluate(q, printBody(q, { flavour: 'farkas' }).lineOf);
}

/** Random inputs for every input of the task, biased to boundaries and small values. */
export function randomInputs(rand: () => number, p: CProgram): Map<string, bigint> {
  return new Map(taskInputs(p).map((q) => [q.name, interestingValue(rand, q.type, p.dataModel)]));
}

/** A constant expression of value c for a comparison with a variable of type t (c in t's range): a
 * decimal literal, negated when c < 0, or a cast of an unsigned literal for the one magnitude (2^63)
 * no signed literal has. */
export function constantExpr(c: bigint, t: IntType, dm: DataModel): Expr {
  const magnitude = c < 0n ? -c : c;
  const plain = literalType(magnitude, 'dec', '', dm) !== null;
  if (c >= 0n) return { kind: 'lit', value: c, base: 'dec', suffix: plain ? '' : 'ULL' };
  if (plain) return { kind: 'unary', op: '-', arg: { kind: 'lit', value: magnitude, base: 'dec', suffix: '' } };
  const wrapped = (1n << 64n) + c; // c's two's complement, converted back by the cast
  return { kind: 'cast', type: t, arg: { kind: 'lit', value: wrapped, base: 'dec', suffix: 'ULL' } };
}

/** The program of generator attempt `attempt` turned into a task skeleton (no assertion yet): no
 * result globals and no copies into them, some parameters made nondet inputs. */
function skeleton(seed: number, index: number, attempt: number, options: TaskOptions, rand: () => number): CProgram {
  const base = new CIntGenerator(mulberry32((programSeed(seed, index) + Math.imul(attempt, 0x27d4eb2f)) >>> 0), {
    dataModel: options.dataModel,
    minStatements: options.minStatements ?? 2,
    maxStatements: options.maxStatements ?? 10,
    maxDepth: options.maxDepth ?? 2,
  }).program(`${seed}-${index}-${options.dataModel}`);
  const copies = base.params.length + base.locals.length;
  const chance = options.nondetChance ?? 0.4;
  const params = base.params.filter(() => rand() >= chance);
  const nondets = base.params.filter((q) => !params.includes(q));
  const types = new Map([...base.types].filter(([name]) => !name.startsWith('r_')));
  return {
    ...base,
    globals: base.globals.filter((g) => !g.name.startsWith('r_')),
    params,
    nondets,
    body: base.body.slice(0, base.body.length - copies),
    types,
  };
}

const OPS: readonly CompareOp[] = ['<', '<=', '>', '>=', '==', '!='];

/** Task `index` of the run with `seed`. */
export function generateTask(seed: number, index: number, options: TaskOptions): VerifyTask {
  const rand = mulberry32(programSeed(seed, index) ^ 0x2545f491);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  for (let attempt = 0; ; attempt++) {
    const p = skeleton(seed, index, attempt, options, rand);
    // Sample inputs on which the program runs to the end: the generator's, else random ones.
    let sample = p.inputs;
    let run = referenceRun(p, sample);
    for (let k = 0; k < 6 && run.kind !== 'exit'; k++) {
      sample = randomInputs(rand, p);
      run = referenceRun(p, sample);
    }
    if (run.kind !== 'exit') {
      if (attempt < 20) continue;
      throw new Error(`cint: no task without undefined behaviour for seed ${seed}, index ${index}`);
    }
    // Probe runs: the final variables of every run without undefined behaviour.
    const probes: { inputs: ReadonlyMap<string, bigint>; variables: ReadonlyMap<string, bigint> }[] = [{ inputs: sample, variables: run.variables }];
    for (let k = 0; k < 40; k++) {
      const inputs = randomInputs(rand, p);
      const r = referenceRun(p, inputs);
      if (r.kind === 'exit') probes.push({ inputs, variables: r.variables });
    }
    const names = assertable(p);
    const candidates: { assertion: Expr; holds: number; fails: number; failing: ReadonlyMap<string, bigint>[] }[] = [];
    for (let k = 0; k < 12; k++) {
      const x = pick(names);
      const tx = p.types.get(x)!;
      let right: Expr;
      if (names.length < 2 || rand() < 0.65) {
        const c = run.variables.get(x)! + pick([0n, 0n, -1n, 1n]);
        if (!inRange(c, tx, p.dataModel)) continue;
        right = constantExpr(c, tx, p.dataModel);
      } else {
        right = { kind: 'var', name: pick(names.filter((n) => n !== x)) };
      }
      const assertion: Expr = { kind: 'binary', op: pick(OPS), left: { kind: 'var', name: x }, right };
      let holds = 0;
      let fails = 0;
      const failing: ReadonlyMap<string, bigint>[] = [];
      for (const probe of probes) {
        if (evaluateExpr(p, assertion, probe.variables) !== 0n) holds++;
        else {
          fails++;
          if (failing.length < 4) failing.push(probe.inputs);
        }
      }
      candidates.push({ assertion, holds, fails, failing });
    }
    const buckets: Record<Expectation, typeof candidates> = {
      mixed: candidates.filter((c) => c.holds > 0 && c.fails > 0),
      holds: candidates.filter((c) => c.fails === 0),
      fails: candidates.filter((c) => c.holds === 0),
    };
    const r = rand();
    const preferred: Expectation = r < 0.55 ? 'mixed' : r < 0.9 ? 'holds' : 'fails';
    const order: Expectation[] = [preferred, ...(['mixed', 'holds', 'fails'] as const).filter((e) => e !== preferred)];
    const expectation = order.find((e) => buckets[e].length > 0);
    if (!expectation) continue; // every candidate constant was out of range (rare): another program
    const chosen = pick(buckets[expectation]);
    return { id: p.id, program: { ...p, inputs: sample, assertion: chosen.assertion }, expectation, failing: chosen.failing };
  }
}

/** The tasks of a run: with 'both', even indices are ILP32 and odd ones LP64. */
export function runTasks(count: number, seed: number, dataModel: DataModel | 'both', options: Omit<TaskOptions, 'dataModel'> = {}): VerifyTask[] {
  const tasks: VerifyTask[] = [];
  for (let k = 0; k < count; k++) {
    const dm: DataModel = dataModel === 'both' ? (k % 2 === 0 ? 'ILP32' : 'LP64') : dataModel;
    tasks.push(generateTask(seed, k, { ...options, dataModel: dm }));
  }
  return tasks;
}

/** Inputs for gcc to try when farkas says "safe": the sample inputs, the failing inputs seen at
 * generation, each type's boundaries (min, max, 0, ±1, min + 1, max - 1) for all inputs at once and
 * for one input at a time, random combinations of them, and failing inputs the reference evaluator
 * finds among `search` random ones. */
export function probeInputs(task: VerifyTask, options: { search?: number; seed?: number } = {}): ReadonlyMap<string, bigint>[] {
  const p = task.program;
  let h = options.seed ?? 1;
  for (const ch of task.id) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  const rand = mulberry32(h);
  const inputs = taskInputs(p);
  const boundaries = new Map(inputs.map((q) => {
    const { lo, hi } = range(q.type, p.dataModel);
    return [q.name, [...new Set([lo, hi, 0n, 1n, -1n, lo + 1n, hi - 1n])].filter((v) => v >= lo && v <= hi)] as const;
  }));
  const out = new Map<string, ReadonlyMap<string, bigint>>();
  const add = (m: ReadonlyMap<string, bigint>) => out.set([...m].map(([k, v]) => `${k}=${v}`).join(' '), m);
  add(p.inputs);
  for (const f of task.failing) add(f);
  for (let k = 0; k < 7; k++) {
    add(new Map(inputs.map((q) => { const b = boundaries.get(q.name)!; return [q.name, b[Math.min(k, b.length - 1)]!]; })));
  }
  for (const q of inputs) {
    for (const v of boundaries.get(q.name)!) add(new Map([...p.inputs, [q.name, v]]));
  }
  for (let k = 0; k < 12; k++) {
    add(new Map(inputs.map((q) => { const b = boundaries.get(q.name)!; return [q.name, b[Math.floor(rand() * b.length)]!]; })));
  }
  let found = 0;
  for (let k = 0; k < (options.search ?? 300) && found < 4; k++) {
    const m = randomInputs(rand, p);
    const r = referenceRun(p, m);
    if (r.kind === 'exit' && r.assertion === false) {
      add(m);
      found++;
    }
  }
  return [...out.values()];
}
