// The prepared programs project onto the parsed one (issue 19, item 4: "an interpreter that is not
// only tested against itself"). farkas analyses programs built from the parsed one — calls inlined,
// loop bodies expanded into paths, ghost quotients added, iteration counters added, nondet reads made
// parameters, assertions routed to an error variable — and its samplers, replays and observations run
// those programs. A transformation that changes a run goes unseen as long as every run is made on the
// transformed program alone. Here every transformation's runs are compared with the runs of the
// ORIGINAL program on the same inputs and nondet stream, for many random programs (the fuzz and cint
// generators of scripts/, seeded), the C files of benchmarks/, and a few programs written for the
// transformations' corners (below); each C program is run for every function it defines.
//
// A run's visits: the locations of the analysed function's own frame, in the order the run reaches
// them, each with the state there (globals, the function's parameters and locals), rebuilt from the
// trace (checked against the interpreter's own `watch`). A step that stops the run (an assertion
// failing) reaches nothing. A transformed location is mapped to the original location it stands for,
// or to none (code the transformation added); the mapped visits "project onto" the original's when,
// with the unmapped ones dropped, they are the same locations in the same order with the same values
// of the original's variables. An outcome is the same when it is of the same kind at the same source
// position (exit: the same return value); the final globals and the nondet values used are compared
// too. A run that reaches its step limit is inconclusive (the transformed run may take 20 times the
// original's steps, plus 2000); the test requires that most samples are conclusive.
//
// The exact property per transformation (P: the original, fn: the analysed function):
//  - inlineCalls (lib/ir/inline.ts): the same outcome, globals and nondet values; fn's own locations
//    keep their ids, and the inlined run's visits to them project onto the original's (callee copies
//    and the parameter-binding prologue map to none; a call's return point is a visit in both).
//  - prepareCutset 'paths' (lib/vc/cutset.ts, through prepareAnalysis): a faithful unfolding. Step by
//    step, the prepared run takes an edge with the same statement as the inlined run, between locations
//    that `cut.original` maps to that edge's ends, with the same values: the same number of steps, the
//    same outcome. Composed with the inlining, the prepared run projects onto the original's. (For the
//    random cint programs the prepared program is built as prepareAnalysis builds it, without its
//    verification conditions, which take seconds for some of them.)
//  - withRemainderGhosts (lib/ir/remainder-ghosts.ts): the ghosts only add steps: the same outcome,
//    globals and nondet values (a ghost never takes a value of the stream), visits projecting onto
//    the original's (the ghost updates' locations map to none).
//  - withIterationCounters (lib/conditions/counters.ts): visits project onto the original's; the same
//    outcome, except that an assertion of fn that fails stops the run as a blocked assumption at the
//    same line (unless keepAssertions); and at each visit of a loop head the loop's counter holds the
//    body entries since the run last entered the loop, as counted from the original's steps (an entry
//    edge restarts the count, an edge from the head into the body advances it: lib/guard's loopEdges;
//    the body is the natural loop, so a condition evaluated in several steps is part of it), and its
//    largest value just after an increment is the guard's `mostIterations` of the original run.
//  - nondetAsParameters (lib/conditions/nondet-inputs.ts): with each parameter nondet_K set to the
//    value the original's rewritten read took (any value in its range when the run does not reach it)
//    and the other nondet values of the original run as the stream: the same outcome, globals and
//    visits; `nondetStreamOf` maps the run back to exactly the original's nondet values. (A recursive
//    function is left as it is.)
//  - withErrorVariable (B1, lib/conditions/instrument.ts): an original run that returns fails the
//    final `assert(err == 1)` and never sets err; one that fails an assertion of fn returns, having set
//    err := 1 exactly once, at that assertion's position; any other outcome is the same. The globals
//    are the same and the visits project onto the original's.
//  - withNegatedAssertions: the same steps up to the first assertion of fn the original reaches;
//    exactly one of the two runs fails there. Without one, the same run.
//  - withFalseAtExit: an original run that returns fails the new assertion at the exit; any other
//    outcome is the same; the same visits.
//  - The cex program (lib/conditions/cex.ts): nondet reads as parameters, B1, and counters asserting a
//    bound (B2). With bounds of our choosing (constants and `parameter + c`), the run fails a bound
//    assertion exactly when the original run enters that loop's body more often in one entry than the
//    bound on the inputs allows, and then its visits are those of the original before that step; else
//    as B1. With instrumentForCex's own fitted bounds: B1, unless a bound assertion fails, after visits
//    that are a prefix of the original's.
// B1, the negated assertions and the false exit rewrite fn wherever it runs, recursive calls included,
// where an inner call's failure no longer ends the run: they are checked on non-recursive functions.
// The last test shows the check failing on the faults lib/ir/faults.ts puts in (the counters' issue-19
// bug, and two faults of the inlining).
// scripts/gcc-differential.ts --prepared compares the prepared programs' runs with gcc's as well.
import test, { type ExecutionContext } from 'ava';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseProgram } from '../lib/frontend/index.js';
import { InputError } from '../lib/diagnostics.js';
import type { Procedure, Program } from '../lib/ir/cfg.js';
import * as F from '../lib/ir/formula.js';
import * as L from '../lib/ir/linear.js';
import type { Linear } from '../lib/ir/linear.js';
import { inlineCalls, recursiveProcedures } from '../lib/ir/inline.js';
import { withRemainderGhosts } from '../lib/ir/remainder-ghosts.js';
import { AnalysisUnsupported, prepareAnalysis } from '../lib/problem/prepare.js';
import { PathExplosionError, prepareCutset } from '../lib/vc/cutset.js';
import { withIterationCounters } from '../lib/conditions/counters.js';
import { withFaultForTests, type TransformationFault } from '../lib/ir/faults.js';
import { nondetAsParameters, nondetStreamOf, type NondetParameters } from '../lib/conditions/nondet-inputs.js';
import { withErrorVariable, withFalseAtExit, withNegatedAssertions } from '../lib/conditions/instrument.js';
import { instrumentForCex } from '../lib/conditions/cex.js';
import { runProgram, type RunOutcome, type RunResult } from '../lib/interpreter/index.js';
import { foldInto } from '../lib/interpreter/run.js';
import { nondetStream } from '../lib/observe/samples.js';
import { mulberry32 } from '../lib/random.js';
import { completedSteps, loopEdges, mostIterations, type LoopEdges } from '../lib/guard/bounds-guard.js';
import { ProgramGenerator } from './fuzz/generate.js';
import { generateProgram, interestingValue } from './cint/generate.js';
import { generateTask } from './cint/verify-task.js';
import { farkasText } from './cint/print.js';
import type { CProgram } from './cint/ast.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

// ---- subjects and samples -------------------------------------------------------------------------

interface Sample {
  readonly inputs: ReadonlyMap<string, bigint>;
  readonly nondet: readonly bigint[];
}

interface Subject {
  readonly name: string;
  readonly source: string;
  readonly program: Program;
  readonly fn: string;
  readonly proc: Procedure;
  /** The original's variables: globals, fn's parameters and locals. */
  readonly vars: readonly string[];
  readonly recursive: boolean;
  readonly samples: readonly Sample[];
}

function subject(name: string, source: string, program: Program, fn: string, samples: readonly Sample[]): Subject {
  const proc = program.procedures.get(fn)!;
  const vars = [...new Set([...program.globals.map((g) => g.name), ...proc.params, ...proc.locals])];
  return { name: `${name} ${fn}`, source, program, fn, proc, vars, recursive: recursiveProcedures(program).has(fn), samples };
}

/** Parameter values in their C type's range (the interpreter rejects others: no C run has them). */
function inRange(proc: Procedure, values: ReadonlyMap<string, bigint>): Map<string, bigint> {
  return new Map(proc.params.map((p) => {
    const v = values.get(p) ?? 0n;
    const range = proc.paramRanges?.get(p);
    return [p, range ? foldInto(v, range) : v] as const;
  }));
}

const GRID: readonly bigint[] = [0n, 1n, -1n, 2n, 3n, 5n, -4n, 8n];

/** `count` samples of fn: small and boundary inputs first, then random ones, each with a random stream. */
function samplesOf(proc: Procedure, rand: () => number, count: number): Sample[] {
  const out: Sample[] = [];
  for (let k = 0; k < count; k++) {
    const values = new Map(proc.params.map((p, j) => {
      if (k < GRID.length) return [p, GRID[(k + j) % GRID.length]!] as const;
      const r = rand();
      const v = r < 0.7 ? BigInt(Math.floor(rand() * 25) - 8) : r < 0.9 ? BigInt(Math.floor(rand() * 2001) - 1000) : (rand() < 0.5 ? -1n : 1n) << BigInt(Math.floor(rand() * 40));
      return [p, v] as const;
    }));
    out.push({ inputs: inRange(proc, values), nondet: nondetStream(rand, 48) });
  }
  return out;
}

/** Every function of a C program as a subject (programs the front end rejects are left out). */
function cSubjects(name: string, source: string, rand: () => number, count: number): Subject[] {
  let program: Program;
  try {
    program = parseProgram(source, name);
  } catch (e) {
    if (e instanceof InputError) return [];
    throw e;
  }
  return [...program.procedures.keys()].map((fn) => subject(name, source, program, fn, samplesOf(program.procedures.get(fn)!, rand, count)));
}

function fuzzSubjects(count: number, samples: number): Subject[] {
  const generator = new ProgramGenerator(mulberry32(19_4));
  const rand = mulberry32(19_41);
  return Array.from({ length: count }, (_, k) => {
    const source = generator.program();
    const program = parseProgram(source, `fuzz-${k}.c`);
    return subject(`fuzz-${k}.c`, source, program, 'main', samplesOf(program.procedures.get('main')!, rand, samples));
  });
}

/** cint programs: f over every integer type, on the generator's inputs and random ones of the types. */
function cintSubjects(count: number, samples: number): Subject[] {
  const rand = mulberry32(19_42);
  return Array.from({ length: count }, (_, k) => {
    const p = generateProgram(194, k, { dataModel: k % 2 === 0 ? 'ILP32' : 'LP64', maxStatements: 14 });
    const source = farkasText(p);
    const program = parseProgram(source, `cint-${p.id}.c`, { dataModel: p.dataModel });
    const inputs = [p.inputs, ...Array.from({ length: samples - 1 }, () => new Map(p.params.map((q) => [q.name, interestingValue(rand, q.type, p.dataModel)] as const)))];
    return subject(`cint-${p.id}.c`, source, program, 'f', inputs.map((i) => ({ inputs: i, nondet: [] })));
  });
}

/** cint verification tasks: some inputs read with __VERIFIER_nondet_<type>(), an assertion at the end;
 * on their sample input, the failing inputs seen at generation, and random ones. */
function taskSubjects(count: number, samples: number): Subject[] {
  const rand = mulberry32(19_43);
  return Array.from({ length: count }, (_, k) => {
    const task = generateTask(194, k, { dataModel: k % 2 === 0 ? 'ILP32' : 'LP64' });
    const p: CProgram = task.program;
    const source = farkasText(p);
    const program = parseProgram(source, `task-${p.id}.c`, { dataModel: p.dataModel });
    const all = [p.inputs, ...task.failing];
    while (all.length < samples) all.push(new Map([...p.params, ...(p.nondets ?? [])].map((q) => [q.name, interestingValue(rand, q.type, p.dataModel)] as const)));
    const asSample = (m: ReadonlyMap<string, bigint>): Sample => ({
      inputs: new Map(p.params.map((q) => [q.name, m.get(q.name)!] as const)),
      nondet: (p.nondets ?? []).map((q) => m.get(q.name)!),
    });
    return subject(`task-${p.id}.c`, source, program, 'f', all.slice(0, samples).map(asSample));
  });
}

function benchmarkFiles(): { name: string; source: string }[] {
  const out: { name: string; source: string }[] = [];
  for (const dir of readdirSync(root + 'benchmarks', { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of readdirSync(`${root}benchmarks/${dir.name}`).sort()) {
      if (file.endsWith('.c')) out.push({ name: `benchmarks/${dir.name}/${file}`, source: readFileSync(`${root}benchmarks/${dir.name}/${file}`, 'utf8') });
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Programs for the transformations' corners: a loop head whose edge into the body draws a quotient
 * or a wrap-around count, nested loops entered head to head (issue 19), calls entering a loop and
 * starting its body, an assertion as a loop's first edge, while(*), break and continue, remainders,
 * nondet reads in and out of loops, in callees, recursion. */
const CORNERS: readonly { name: string; source: string }[] = [
  { name: 'quotient-head.c', source: 'int f(int x) {\n  int k = 0;\n  while (x / 2 > 0) {\n    x = x - 1;\n    k++;\n  }\n  return k;\n}\n' },
  { name: 'wrap-head.c', source: 'unsigned f(unsigned u, unsigned n) {\n  unsigned k = 0;\n  while (u + 3u > 2u && k < n) {\n    u = u - 1u;\n    k++;\n  }\n  return k;\n}\n' },
  { name: 'head-to-head.c', source: 'void f(int n, int m) {\n  int i = 0;\n  while (i < n) {\n    while (m > 0) { m--; }\n    i++;\n  }\n}\n' },
  { name: 'call-enters-loop.c', source: 'int g;\nint h() { g++; return g; }\nint f(int n) {\n  int k = 0;\n  for (int j = 0; j < 2; j++) {\n    k = h();\n    while (k < n) k++;\n  }\n  return k;\n}\n' },
  { name: 'call-starts-body.c', source: 'int g;\nvoid h() { g++; }\nint f(int n) {\n  while (1) {\n    h();\n    if (g > n) break;\n  }\n  return g;\n}\n' },
  { name: 'assert-starts-body.c', source: 'int f(int x) {\n  for (;;) {\n    __VERIFIER_assert(x < 5);\n    x++;\n  }\n  return x;\n}\n' },
  {
    name: 'choice-loop.c',
    source: 'int main() {\n  int n = __VERIFIER_nondet_int();\n  int i = 0, s = 0;\n  while (__VERIFIER_nondet_int()) {\n    if (i % 3 == 0) { i = i + 2; continue; }\n    i = i + 1;\n    s = s + i / 2;\n    if (s > n) break;\n  }\n  __VERIFIER_assert(i % 3 != 1 || s >= 0);\n  return s;\n}\n',
  },
  {
    name: 'calls.c',
    source: 'int g = 1;\nint inc(int a) {\n  int t = __VERIFIER_nondet_int();\n  if (t > 0) g = g + a;\n  return g;\n}\nint twice(int a) {\n  int r = inc(a);\n  r = r + inc(a + 1);\n  __VERIFIER_assert(r < 40);\n  return r;\n}\nint main() {\n  int x = __VERIFIER_nondet_int();\n  int s = 0;\n  for (int i = 0; i < 3; i++) {\n    s = s + twice(x);\n  }\n  return s;\n}\n',
  },
  { name: 'recursive-nondet.c', source: 'int f(int n) {\n  int k = __VERIFIER_nondet_int();\n  if (n <= 0) return k;\n  int r = f(n - 1);\n  __VERIFIER_assert(r != 7);\n  return r;\n}\n' },
  { name: 'recursive-loop.c', source: 'int f(int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) s = s + i;\n  if (n > 0 && n < 6) s = s + f(n - 1);\n  return s;\n}\n' },
  { name: 'overflow-loop.c', source: 'int f(int x) {\n  int s = 1;\n  while (s < 1000000000) s = s * 3 + x;\n  return s;\n}\n' },
  { name: 'do-continue.c', source: 'int f(int n) {\n  int i = 0;\n  int c = 0;\n  do {\n    i++;\n    if (i % 2) continue;\n    c = c + i / 4;\n  } while (i < n);\n  return c;\n}\n' },
  {
    name: 'nondet-in-loop.c',
    source: 'int main() {\n  unsigned char a = __VERIFIER_nondet_uchar();\n  int s = 0;\n  while (a > 0) {\n    int d = __VERIFIER_nondet_int();\n    if (d > 0) s++;\n    a--;\n  }\n  __VERIFIER_assert(s < 5);\n  return s;\n}\n',
  },
  { name: 'multiple-of-three.c', source: readFileSync(root + 'lib/ir/testing/multiple-of-three.c', 'utf8') },
];

// ---- runs and visits ------------------------------------------------------------------------------

const ORIGINAL_STEPS = 3000;
const stepsFor = (original: RunResult): number => 20 * original.steps + 2000;

function run(program: Program, fn: string, inputs: ReadonlyMap<string, bigint>, nondet: readonly bigint[], maxSteps: number, watch?: ReadonlySet<number>): RunResult {
  return runProgram(program, { entry: fn, inputs, nondet: [...nondet], nondetDefault: 0n, foldIntoRange: true, maxSteps, recordTrace: true, ...(watch ? { watch: { locations: watch } } : {}) });
}

/** Did the run stop inside its last step (so that the step reached nothing)? */
function stoppedInLastStep(r: RunResult): boolean {
  const last = r.trace?.at(-1);
  if (!last) return false;
  const o = r.outcome;
  switch (o.kind) {
    case 'assertion-failed':
    case 'nondet-out-of-range':
      return true;
    case 'assume-blocked':
      // Blocked on an edge of a choice location (inside the step), not for want of an enabled edge.
      return last.location === o.location && last.to !== o.location && last.procedure === o.procedure;
    case 'step-limit':
      return o.limit === 'call-depth';
    default:
      return false;
  }
}

interface Visit {
  readonly loc: number;
  /** The step of fn's frame that reached it (null for the entry): an edge, or a call edge returning. */
  readonly edge: number | null;
  readonly state: ReadonlyMap<string, bigint>;
}

/** The visits of fn's own frame (depth 0), rebuilt from the trace. */
function visitsOf(program: Program, fn: string, r: RunResult): Visit[] {
  const proc = program.procedures.get(fn)!;
  const globals = new Set(program.globals.map((g) => g.name));
  const state = new Map<string, bigint>(program.globals.map((g) => [g.name, g.init]));
  for (const v of [...proc.locals, ...proc.params]) state.set(v, 0n);
  for (const [p, v] of r.inputs) state.set(p, v);
  const visits: Visit[] = [{ loc: proc.entry, edge: null, state: new Map(state) }];
  const trace = r.trace!;
  const stopped = stoppedInLastStep(r);
  trace.forEach((step, i) => {
    if (step.kind === 'call') return; // the callee's parameters; the call completes at its return
    for (const [v, x] of step.values) if (step.depth === 0 || globals.has(v)) state.set(v, x);
    if (step.depth !== 0 || (stopped && i === trace.length - 1)) return;
    visits.push({ loc: step.to, edge: step.edge, state: new Map(state) });
  });
  return visits;
}

/** The visits grouped by location equal the interpreter's own snapshots (the oracle checks itself). */
function watchDiff(visits: readonly Visit[], watched: ReadonlyMap<number, readonly ReadonlyMap<string, bigint>[]>): string | null {
  const byLoc = new Map<number, ReadonlyMap<string, bigint>[]>();
  for (const v of visits) byLoc.set(v.loc, [...(byLoc.get(v.loc) ?? []), v.state]);
  const locs = new Set([...byLoc.keys(), ...watched.keys()]);
  for (const loc of locs) {
    const mine = byLoc.get(loc) ?? [];
    const theirs = watched.get(loc) ?? [];
    if (mine.length !== theirs.length) return `the trace visits location ${loc} ${mine.length} times, the interpreter's watch ${theirs.length}`;
    for (let i = 0; i < mine.length; i++) {
      for (const [v, x] of theirs[i]!) if (mine[i]!.get(v) !== x) return `visit ${i} of location ${loc}: ${v} = ${mine[i]!.get(v)} from the trace, ${x} watched`;
    }
  }
  return null;
}

const show = (m: ReadonlyMap<string, bigint>): string => [...m].map(([k, v]) => `${k}=${v}`).join(', ');

/** The transformed visits, mapped to original locations (unmapped dropped), against the original's:
 * equal, or (prefix) the original's first ones. */
function projectionDiff(original: readonly Visit[], transformed: readonly Visit[], map: (loc: number) => number | null, vars: readonly string[], prefix = false): string | null {
  const mapped = transformed.flatMap((v) => {
    const loc = map(v.loc);
    return loc === null ? [] : [{ ...v, loc }];
  });
  const n = Math.min(mapped.length, original.length);
  for (let i = 0; i < n; i++) {
    const [a, b] = [original[i]!, mapped[i]!];
    if (a.loc !== b.loc) return `visit ${i}: the transformed run is at (original) location ${b.loc}, the original at ${a.loc}`;
    for (const v of vars) {
      if (a.state.get(v) !== b.state.get(v)) return `visit ${i} (location ${a.loc}): ${v} = ${b.state.get(v)} in the transformed run, ${a.state.get(v)} in the original`;
    }
  }
  if (mapped.length > original.length || (!prefix && mapped.length < original.length)) {
    return `the transformed run makes ${mapped.length} visits to original locations, the original ${original.length}`;
  }
  return null;
}

function outcomeText(o: RunOutcome): string {
  const pos = 'pos' in o && o.pos ? ` at ${o.pos.line}:${o.pos.col}` : '';
  return o.kind === 'exit' ? `exit (${o.returnValue})` : `${o.kind}${pos}`;
}

const samePos = (a: { line: number; col: number } | null, b: { line: number; col: number } | null): boolean => a?.line === b?.line && a?.col === b?.col;

/** Same kind; exit: same return value; elsewhere the same source position (the procedure may differ:
 * an inlined callee's assertion fails in fn). */
function outcomeDiff(original: RunOutcome, transformed: RunOutcome): string | null {
  const differ = `outcome ${outcomeText(transformed)}, the original ${outcomeText(original)}`;
  if (original.kind !== transformed.kind) return differ;
  if (original.kind === 'exit') return original.returnValue === (transformed as typeof original).returnValue ? null : differ;
  const pa = 'pos' in original ? original.pos : null;
  const pb = 'pos' in transformed ? transformed.pos : null;
  return samePos(pa, pb) ? null : differ;
}

function globalsDiff(program: Program, original: RunResult, transformed: RunResult): string | null {
  for (const g of program.globals) {
    if (original.globals.get(g.name) !== transformed.globals.get(g.name)) return `global ${g.name} ends ${transformed.globals.get(g.name)}, ${original.globals.get(g.name)} in the original`;
  }
  return null;
}

function nondetDiff(original: readonly bigint[], transformed: readonly bigint[]): string | null {
  return original.length === transformed.length && original.every((v, i) => v === transformed[i]) ? null : `nondet values used [${transformed.join(',')}], the original [${original.join(',')}]`;
}

const firstOf = (...diffs: (() => string | null)[]): string | null => {
  for (const d of diffs) {
    const found = d();
    if (found) return found;
  }
  return null;
};

const below = (n: number) => (loc: number): number | null => (loc < n ? loc : null);

/** Per visit of the original run, the body entries of each loop (of `edges.loops`) since the run last
 * entered it: counted from the edges the visits were reached by. */
function countsAlong(edges: LoopEdges, visits: readonly Visit[]): bigint[][] {
  const current = edges.loops.map(() => 0n);
  return visits.map((v) => {
    if (v.edge !== null) {
      for (const i of edges.entering.get(v.edge) ?? []) current[i] = 0n;
      for (const i of edges.intoBody.get(v.edge) ?? []) current[i]! += 1n;
    }
    return [...current];
  });
}

// ---- transformations ------------------------------------------------------------------------------

interface SampleRun {
  readonly sample: Sample;
  readonly original: RunResult;
  readonly visits: readonly Visit[];
}

const INCONCLUSIVE = 'inconclusive';
type Verdict = null | string; // null: the property holds; INCONCLUSIVE; else what differs
type Check = (s: SampleRun) => Verdict;

interface Transformation {
  readonly name: string;
  /** The check of one sample, or null where the transformation does not apply to the subject. */
  readonly prepare: (subject: Subject) => Check | null;
}

/** A transformation whose runs are the original's with steps added: the same outcome, globals, nondet
 * values, and visits projecting onto the original's (new locations, numbered after the original's, map
 * to none). */
function simple(name: string, build: (s: Subject) => Program | null): Transformation {
  return {
    name,
    prepare: (s) => {
      const program = build(s);
      if (!program) return null;
      const n = s.proc.locations.length;
      return (c) => {
        const r = run(program, s.fn, c.sample.inputs, c.sample.nondet, stepsFor(c.original));
        if (r.outcome.kind === 'step-limit') return INCONCLUSIVE;
        return firstOf(
          () => outcomeDiff(c.original.outcome, r.outcome),
          () => globalsDiff(s.program, c.original, r),
          () => nondetDiff(c.original.nondetConsumed, r.nondetConsumed),
          () => projectionDiff(c.visits, visitsOf(program, s.fn, r), below(n), s.vars),
        );
      };
    },
  };
}

const inlining = simple('inlineCalls', (s) => inlineCalls(s.program, s.fn).program);

const ghosts = simple('withRemainderGhosts', (s) => withRemainderGhosts(s.program, s.fn)?.program ?? null);

const falseAtExit: Transformation = {
  name: 'withFalseAtExit',
  prepare: (s) => {
    if (s.recursive) return null;
    const program = withFalseAtExit(s.program, s.fn);
    const proc = program.procedures.get(s.fn)!;
    const added = proc.edges.find((e) => e.from === s.proc.exit)!;
    return (c) => {
      const r = run(program, s.fn, c.sample.inputs, c.sample.nondet, stepsFor(c.original));
      if (r.outcome.kind === 'step-limit') return INCONCLUSIVE;
      const returned = c.original.outcome.kind === 'exit';
      return firstOf(
        () => (returned
          ? r.outcome.kind === 'assertion-failed' && r.outcome.edge === added.id && r.outcome.procedure === s.fn ? null : `outcome ${outcomeText(r.outcome)}, expected the assertion at the exit to fail`
          : outcomeDiff(c.original.outcome, r.outcome)),
        () => globalsDiff(s.program, c.original, r),
        () => projectionDiff(c.visits, visitsOf(program, s.fn, r), below(s.proc.locations.length), s.vars),
      );
    };
  },
};

/** Path expansion after inlining: through prepareAnalysis itself, or (viaCutset) as prepareAnalysis
 * builds it, inlineCalls then prepareCutset, without the verification conditions, whose cost grows
 * with the number of paths (a few seconds for some large random functions). */
function paths(options: { viaCutset?: boolean } = {}): Transformation {
  return {
    name: "prepareAnalysis 'paths'",
    prepare: (s) => {
      const inlined = inlineCalls(s.program, s.fn).program;
      let prepared: { readonly preparedProgram: Program; readonly cut: { readonly original: readonly number[] } };
      try {
        if (options.viaCutset) {
          const proc = inlined.procedures.get(s.fn)!;
          if (proc.edges.some((e) => e.stmt.kind === 'call')) return null; // recursion: prepareAnalysis refuses it
          const cut = prepareCutset(proc, 'paths');
          prepared = { preparedProgram: { ...inlined, procedures: new Map([...inlined.procedures, [s.fn, cut.proc]]) }, cut };
        } else {
          prepared = prepareAnalysis(s.program, s.fn, 'paths');
        }
      } catch (e) {
        if (e instanceof AnalysisUnsupported || e instanceof PathExplosionError) return null;
        throw e;
      }
      const original = prepared.cut.original;
      const n = s.proc.locations.length;
      return (c) => {
        const i = run(inlined, s.fn, c.sample.inputs, c.sample.nondet, stepsFor(c.original));
        const p = run(prepared.preparedProgram, s.fn, c.sample.inputs, c.sample.nondet, stepsFor(c.original));
        if (i.outcome.kind === 'step-limit' || p.outcome.kind === 'step-limit') return INCONCLUSIVE;
        const [it, pt] = [i.trace!, p.trace!];
        for (let k = 0; k < Math.min(it.length, pt.length); k++) {
          const [a, b] = [it[k]!, pt[k]!];
          if (original[b.location] !== a.location || original[b.to] !== a.to || a.text !== b.text || show(a.values) !== show(b.values)) {
            return `step ${k}: the prepared run takes ${b.location} -> ${b.to} (copies of ${original[b.location]} -> ${original[b.to]}) '${b.text}' {${show(b.values)}}, the inlined run ${a.location} -> ${a.to} '${a.text}' {${show(a.values)}}`;
          }
        }
        return firstOf(
          () => (it.length === pt.length ? null : `the prepared run takes ${pt.length} steps, the inlined run ${it.length}`),
          () => outcomeDiff(c.original.outcome, p.outcome),
          () => globalsDiff(s.program, c.original, p),
          () => nondetDiff(c.original.nondetConsumed, p.nondetConsumed),
          () => projectionDiff(c.visits, visitsOf(prepared.preparedProgram, s.fn, p), (loc) => below(n)(original[loc]!), s.vars),
        );
      };
    },
  };
}

function counters(keepAssertions: boolean): Transformation {
  return {
    name: `withIterationCounters${keepAssertions ? ' (assertions kept)' : ''}`,
    prepare: (s) => {
      const counted = withIterationCounters(s.program, s.fn, new Map(), { keepAssertions });
      const program = counted.program;
      const edges = loopEdges(s.proc);
      const loops = edges.loops.map((l) => counted.loops.find((c) => c.header === l.header)!);
      if (loops.some((l) => l === undefined)) throw new Error(`${s.name}: the instrumentation counts other loops than the guard finds`);
      return (c) => {
        const r = run(program, s.fn, c.sample.inputs, c.sample.nondet, stepsFor(c.original));
        if (r.outcome.kind === 'step-limit') return INCONCLUSIVE;
        const o = c.original.outcome;
        const visits = visitsOf(program, s.fn, r);
        const mapped = visits.filter((v) => v.loc < s.proc.locations.length);
        const expected = countsAlong(edges, c.visits);
        const failed = o.kind === 'assertion-failed' && o.procedure === s.fn && !keepAssertions;
        return firstOf(
          () => (failed
            ? r.outcome.kind === 'assume-blocked' && r.outcome.pos?.line === o.pos.line ? null : `outcome ${outcomeText(r.outcome)}, expected the failing assertion of line ${o.pos.line} to block as an assumption`
            : outcomeDiff(o, r.outcome)),
          () => globalsDiff(s.program, c.original, r),
          () => nondetDiff(c.original.nondetConsumed, r.nondetConsumed),
          () => projectionDiff(c.visits, visits, below(s.proc.locations.length), s.vars),
          () => {
            for (const [j, loop] of loops.entries()) {
              for (const [i, v] of mapped.entries()) {
                if (v.loc !== loop.header) continue;
                const has = v.state.get(loop.counter);
                if (has !== expected[i]![j]) return `visit ${i} of the head of the loop at line ${loop.line}: ${loop.counter} = ${has}, the original run has entered its body ${expected[i]![j]} times since it entered the loop`;
              }
              const most = expected.reduce((m, counts) => (counts[j]! > m ? counts[j]! : m), 0n);
              const guard = mostIterations(edges, completedSteps(c.original))[j]!;
              if (guard !== most) return `loop at line ${loop.line}: the guard's mostIterations counts ${guard}, the original run's visits ${most}`;
              const after = visits.filter((v) => loop.afterIncrements.includes(v.loc)).reduce((m, v) => (v.state.get(loop.counter)! > m ? v.state.get(loop.counter)! : m), 0n);
              if (after !== most) return `loop at line ${loop.line}: ${loop.counter} reaches ${after} after its increments, the original run enters the body ${most} times in one entry`;
            }
            return null;
          },
        );
      };
    },
  };
}

/** The original run's nondet values split for the program with nondet reads as parameters: the value
 * each rewritten read took (at fn's own frame), the rest in order. A read the run does not reach gets
 * a value of its range (it must not matter). */
function splitNondet(s: Subject, w: NondetParameters, r: RunResult): { inputs: Map<string, bigint>; stream: bigint[] } {
  const inputs = new Map(r.inputs);
  for (const input of w.inputs) {
    const edge = [...w.byEdge].find(([, p]) => p === input.parameter)![0];
    const stmt = s.proc.edges[edge]!.stmt;
    const range = stmt.kind === 'havoc' ? stmt.range : undefined;
    inputs.set(input.parameter, range ? foldInto(-3n, range) : -3n);
  }
  const stream: bigint[] = [];
  for (const step of r.trace!) {
    const param = step.depth === 0 && step.procedure === s.fn && step.kind === 'edge' ? w.byEdge.get(step.edge) : undefined;
    if (param !== undefined && step.nondet?.length === 1) inputs.set(param, step.nondet[0]!);
    else stream.push(...(step.nondet ?? []));
  }
  return { inputs, stream };
}

const nondetParameters: Transformation = {
  name: 'nondetAsParameters',
  prepare: (s) => {
    const w = nondetAsParameters(s.program, s.fn);
    const program = w.program;
    return (c) => {
      if (c.original.outcome.kind === 'nondet-out-of-range') return INCONCLUSIVE;
      const { inputs, stream } = splitNondet(s, w, c.original);
      const r = run(program, s.fn, inputs, stream, stepsFor(c.original));
      if (r.outcome.kind === 'step-limit') return INCONCLUSIVE;
      return firstOf(
        () => outcomeDiff(c.original.outcome, r.outcome),
        () => globalsDiff(s.program, c.original, r),
        () => nondetDiff(c.original.nondetConsumed, nondetStreamOf(w, s.fn, r)),
        () => projectionDiff(c.visits, visitsOf(program, s.fn, r), below(s.proc.locations.length), s.vars),
      );
    };
  },
};

/** B1's expectations of a run `r` of a program with the error variable `err` (final assertion `final`). */
function errorVariableDiff(s: Subject, c: SampleRun, r: RunResult, err: string, final: number): string | null {
  const o = c.original.outcome;
  const sets = r.trace!.filter((step) => step.depth === 0 && step.values.get(err) === 1n);
  if (o.kind === 'exit') {
    if (r.outcome.kind !== 'assertion-failed' || r.outcome.edge !== final || r.outcome.procedure !== s.fn) return `outcome ${outcomeText(r.outcome)}: the original returned, so assert(${err} == 1) should fail`;
    return sets.length === 0 ? null : `${err} was set, but the original returned`;
  }
  if (o.kind === 'assertion-failed' && o.procedure === s.fn) {
    if (r.outcome.kind !== 'exit') return `outcome ${outcomeText(r.outcome)}: the original failed the assertion of line ${o.pos.line}, so the run should return`;
    if (sets.length !== 1 || !samePos(sets[0]!.pos, o.pos)) return `${err} was set ${sets.length} times (${sets.map((x) => `${x.pos.line}:${x.pos.col}`).join(', ')}), the original failed at ${o.pos.line}:${o.pos.col}`;
    return null;
  }
  return outcomeDiff(o, r.outcome) ?? (sets.length === 0 ? null : `${err} was set, but the original ended with ${outcomeText(o)}`);
}

/** The error variable (the first local B1 adds; counters come after it) and the final assertion's edge. */
function errorVariableOf(s: Subject, program: Program): { err: string; final: number } {
  const proc = program.procedures.get(s.fn)!;
  const end = proc.locations.find((l) => l.label === 'end')!.id;
  return { err: proc.locals.find((v) => !s.proc.locals.includes(v))!, final: proc.edges.find((e) => e.from === end && e.stmt.kind === 'assert')!.id };
}

const errorVariable: Transformation = {
  name: 'withErrorVariable',
  prepare: (s) => {
    if (s.recursive) return null;
    const program = withErrorVariable(s.program, s.fn);
    const { err, final } = errorVariableOf(s, program);
    return (c) => {
      const r = run(program, s.fn, c.sample.inputs, c.sample.nondet, stepsFor(c.original));
      if (r.outcome.kind === 'step-limit') return INCONCLUSIVE;
      return firstOf(
        () => errorVariableDiff(s, c, r, err, final),
        () => globalsDiff(s.program, c.original, r),
        () => nondetDiff(c.original.nondetConsumed, r.nondetConsumed),
        () => projectionDiff(c.visits, visitsOf(program, s.fn, r), below(s.proc.locations.length), s.vars),
      );
    };
  },
};

const negatedAssertions: Transformation = {
  name: 'withNegatedAssertions',
  prepare: (s) => {
    if (s.recursive) return null;
    const program = withNegatedAssertions(s.program, s.fn);
    const asserts = new Set(s.proc.edges.filter((e) => e.stmt.kind === 'assert').map((e) => e.id));
    return (c) => {
      const r = run(program, s.fn, c.sample.inputs, c.sample.nondet, stepsFor(c.original));
      if (r.outcome.kind === 'step-limit') return INCONCLUSIVE;
      const [ot, rt] = [c.original.trace!, r.trace!];
      const k = ot.findIndex((step) => step.depth === 0 && step.kind === 'edge' && asserts.has(step.edge));
      if (k < 0) return firstOf(() => outcomeDiff(c.original.outcome, r.outcome), () => globalsDiff(s.program, c.original, r), () => nondetDiff(c.original.nondetConsumed, r.nondetConsumed));
      for (let i = 0; i <= k; i++) {
        const [a, b] = [ot[i]!, rt[i]];
        if (!b || a.edge !== b.edge || a.procedure !== b.procedure || a.depth !== b.depth) return `step ${i}: edge ${b?.edge} of ${b?.procedure}, the original's ${a.edge} of ${a.procedure} (before its first assertion, step ${k})`;
      }
      const failsThere = (x: RunResult): boolean => x.outcome.kind === 'assertion-failed' && x.trace!.length === k + 1;
      return failsThere(c.original) !== failsThere(r) ? null : `at the first assertion (line ${ot[k]!.pos.line}) both runs ${failsThere(r) ? 'fail' : 'pass'}`;
    };
  },
};

/** Bounds of our choosing for B2: per loop a constant or `parameter + c`. */
function chosenBounds(s: Subject, rand: () => number): Map<number, Linear> {
  const bounds = new Map<number, Linear>();
  for (const loop of loopEdges(s.proc).loops) {
    const c = BigInt(Math.floor(rand() * 5));
    const p = s.proc.params.length > 0 && rand() < 0.5 ? s.proc.params[Math.floor(rand() * s.proc.params.length)]! : null;
    bounds.set(loop.header, p ? L.addConstant(L.variable(p), c) : L.constant(c));
  }
  return bounds;
}

function cexProgram(): Transformation {
  return {
    name: 'cex instrumentation (nondet parameters, B1, B2 with chosen bounds)',
    prepare: (s) => {
      if (s.recursive) return null;
      const w = nondetAsParameters(s.program, s.fn);
      const b1 = withErrorVariable(w.program, s.fn);
      const bounds = chosenBounds(s, mulberry32(s.name.length * 7919 + s.proc.edges.length));
      const counted = withIterationCounters(b1, s.fn, bounds, { keepAssertions: true });
      const program = counted.program;
      const { err, final } = errorVariableOf(s, program);
      const edges = loopEdges(s.proc);
      const boundAsserts = new Map(program.procedures.get(s.fn)!.edges.flatMap((e) => {
        if (e.stmt.kind !== 'assert') return [];
        const loop = counted.loops.findIndex((l) => F.variablesOf((e.stmt as { cond: F.Formula }).cond).has(l.counter));
        return loop < 0 ? [] : [[e.id, counted.loops[loop]!.header] as const];
      }));
      return (c) => {
        if (c.original.outcome.kind === 'nondet-out-of-range') return INCONCLUSIVE;
        const { inputs, stream } = splitNondet(s, w, c.original);
        const r = run(program, s.fn, inputs, stream, stepsFor(c.original));
        if (r.outcome.kind === 'step-limit') return INCONCLUSIVE;
        const counts = countsAlong(edges, c.visits);
        const allowed = edges.loops.map((l) => L.evaluate(bounds.get(l.header)!, (v) => c.original.inputs.get(v)!));
        // The first body entry that takes a loop's count over its bound (a bound below 0 already at the first).
        const overAt = (i: number): number | undefined => {
          const edge = c.visits[i]!.edge;
          return edge === null ? undefined : (edges.intoBody.get(edge) ?? []).find((j) => counts[i]![j]! > allowed[j]!);
        };
        const over = counts.findIndex((_, i) => overAt(i) !== undefined);
        const visits = visitsOf(program, s.fn, r);
        if (over >= 0) {
          const j = overAt(over)!;
          const header = edges.loops[j]!.header;
          if (r.outcome.kind !== 'assertion-failed' || boundAsserts.get(r.outcome.edge) !== header) {
            return `outcome ${outcomeText(r.outcome)}: the original enters the body of the loop at line ${edges.loops[j]!.line} ${counts[over]![j]} times, over the bound ${allowed[j]}, so its bound assertion should fail`;
          }
          return projectionDiff(c.visits.slice(0, over), visits, below(s.proc.locations.length), s.vars);
        }
        return firstOf(
          () => errorVariableDiff(s, c, r, err, final),
          () => globalsDiff(s.program, c.original, r),
          () => projectionDiff(c.visits, visits, below(s.proc.locations.length), s.vars),
        );
      };
    },
  };
}

/** instrumentForCex itself, its bounds fitted to observed runs: B1, unless a bound assertion fails. */
const cexFitted: Transformation = {
  name: 'instrumentForCex (fitted bounds)',
  prepare: (s) => {
    if (s.recursive || loopEdges(s.proc).loops.length === 0) return null;
    const w = nondetAsParameters(s.program, s.fn);
    const program = instrumentForCex(s.program, s.fn);
    const { err, final } = errorVariableOf(s, program);
    return (c) => {
      if (c.original.outcome.kind === 'nondet-out-of-range') return INCONCLUSIVE;
      const { inputs, stream } = splitNondet(s, w, c.original);
      const r = run(program, s.fn, inputs, stream, stepsFor(c.original));
      if (r.outcome.kind === 'step-limit') return INCONCLUSIVE;
      const visits = visitsOf(program, s.fn, r);
      const boundFailed = r.outcome.kind === 'assertion-failed' && r.outcome.procedure === s.fn && r.outcome.edge !== final;
      if (boundFailed) return projectionDiff(c.visits, visits, below(s.proc.locations.length), s.vars, true);
      return firstOf(() => errorVariableDiff(s, c, r, err, final), () => globalsDiff(s.program, c.original, r), () => projectionDiff(c.visits, visits, below(s.proc.locations.length), s.vars));
    };
  },
};

const TRANSFORMATIONS: readonly Transformation[] = [
  inlining,
  paths(),
  ghosts,
  counters(false),
  counters(true),
  nondetParameters,
  errorVariable,
  negatedAssertions,
  falseAtExit,
  cexProgram(),
];

// ---- the property check ---------------------------------------------------------------------------

interface Tally {
  millis: number;
  subjects: number;
  samples: number;
  inconclusive: number;
  failures: string[];
}

function checkSubjects(subjects: readonly Subject[], transformations: readonly Transformation[]): Map<string, Tally> {
  const tallies = new Map<string, Tally>(transformations.map((t) => [t.name, { millis: 0, subjects: 0, samples: 0, inconclusive: 0, failures: [] }]));
  for (const s of subjects) {
    const checks = transformations.flatMap((t) => {
      let check: Check | null;
      const started = Date.now();
      try {
        check = t.prepare(s);
      } catch (e) {
        tallies.get(t.name)!.failures.push(`${s.name}: the transformation failed: ${e instanceof Error ? e.message : String(e)}\n${s.source}`);
        return [];
      } finally {
        tallies.get(t.name)!.millis += Date.now() - started;
      }
      if (check) tallies.get(t.name)!.subjects++;
      return check ? [{ t, check }] : [];
    });
    const watch = new Set(s.proc.locations.map((l) => l.id));
    for (const sample of s.samples) {
      const original = run(s.program, s.fn, sample.inputs, sample.nondet, ORIGINAL_STEPS, watch);
      const inconclusive = original.outcome.kind === 'step-limit';
      const visits = visitsOf(s.program, s.fn, original);
      const self = watchDiff(visits, original.watched ?? new Map());
      if (self) throw new Error(`${s.name}: the visits rebuilt from the trace are not the interpreter's: ${self}`);
      for (const { t, check } of checks) {
        const tally = tallies.get(t.name)!;
        tally.samples++;
        if (inconclusive) {
          tally.inconclusive++;
          continue;
        }
        let verdict: Verdict;
        const started = Date.now();
        try {
          verdict = check({ sample, original, visits });
        } catch (e) {
          verdict = `the run failed: ${e instanceof Error ? e.message : String(e)}`;
        }
        tally.millis += Date.now() - started;
        if (verdict === INCONCLUSIVE) tally.inconclusive++;
        else if (verdict !== null) {
          const where = `inputs {${show(sample.inputs)}}${original.nondetConsumed.length > 0 ? `, nondet [${original.nondetConsumed.join(',')}]` : ''}`;
          tally.failures.push(`${s.name}, ${where}: ${verdict}\n${s.source}`);
        }
      }
    }
  }
  return tallies;
}

/** No failures, and at least 80% of the samples of each transformation conclusive. */
function assertProjects(t: ExecutionContext, tallies: ReadonlyMap<string, Tally>): void {
  const problems: string[] = [];
  for (const [name, tally] of tallies) {
    t.log(`${name}: ${tally.subjects} functions, ${tally.samples} samples, ${tally.inconclusive} inconclusive (${tally.millis} ms)`);
    // PROJECTION_DEBUG=1 logs every distinct failure, not only the first.
    if (process.env.PROJECTION_DEBUG) for (const f of new Set(tally.failures.map((x) => x.split('\n')[0]!.replace(/, inputs.*: /, ': ').slice(0, 240)))) t.log(`  ${f}`);
    if (tally.failures.length > 0) problems.push(`${name}: ${tally.failures.length} of ${tally.samples} samples do not project onto the original, e.g. ${tally.failures[0]}`);
    if (tally.inconclusive > tally.samples / 5) problems.push(`${name}: ${tally.inconclusive} of ${tally.samples} samples inconclusive`);
  }
  t.deepEqual(problems, []);
}

// ---- the tests ------------------------------------------------------------------------------------

test('random fuzz programs (nondet inputs, branches, a loop, assertions): every transformation projects onto the original', (t) => {
  const subjects = fuzzSubjects(60, 6);
  assertProjects(t, checkSubjects(subjects, TRANSFORMATIONS));
});

test('random cint programs (every integer type, overflow, nested for loops, remainders): every transformation projects onto the original', (t) => {
  const subjects = cintSubjects(40, 4);
  assertProjects(t, checkSubjects(subjects, TRANSFORMATIONS.map((x) => (x.name === paths().name ? paths({ viaCutset: true }) : x))));
});

test('random cint verification tasks (typed nondet inputs, an assertion): every transformation projects onto the original', (t) => {
  const subjects = taskSubjects(30, 5);
  assertProjects(t, checkSubjects(subjects, TRANSFORMATIONS.map((x) => (x.name === paths().name ? paths({ viaCutset: true }) : x))));
});

test('the benchmarks and the corner programs, every function: every transformation projects onto the original', (t) => {
  const rand = mulberry32(19_44);
  const files = [...benchmarkFiles(), ...CORNERS];
  const subjects = files.flatMap((f) => cSubjects(f.name, f.source, rand, 14));
  t.true(subjects.length >= 60, `${subjects.length} functions`);
  assertProjects(t, checkSubjects(subjects, TRANSFORMATIONS));
});

test('instrumentForCex with its fitted bounds projects onto the original (corner programs with loops)', (t) => {
  const rand = mulberry32(19_45);
  const subjects = CORNERS.slice(0, 7).flatMap((f) => cSubjects(f.name, f.source, rand, 10));
  const tallies = checkSubjects(subjects, [cexFitted]);
  t.true(tallies.get(cexFitted.name)!.subjects >= 4);
  assertProjects(t, tallies);
});

test('the transformations with a fault put in (lib/ir/faults.ts) do not project onto the original', async (t) => {
  // The subjects' programs marked with the fault: their transformations apply it, their runs do not.
  const failures = async (fault: TransformationFault, subjects: readonly Subject[], transformation: Transformation): Promise<string[]> =>
    checkSubjects(subjects.map((s) => ({ ...s, program: withFaultForTests(s.program, fault) })), [transformation]).get(transformation.name)!.failures;
  // The counters' bug of issue 19: the outer loop's increment dropped where the inner loop starts its body.
  const corner = CORNERS.find((c) => c.name === 'head-to-head.c')!;
  const nested = cSubjects(corner.name, corner.source, mulberry32(19), 8);
  for (const transformation of [counters(false), cexProgram()]) {
    const found = await failures('outer-increment-dropped', nested, transformation);
    t.true(found.length > 0, transformation.name);
    t.regex(found[0]!, /head-to-head\.c f, inputs \{n=\d+, m=-?\d+\}: .*loop at line 3/);
  }
  // Faults of the inlining, which every other preparation starts from.
  const fuzz = fuzzSubjects(10, 4);
  for (const fault of ['assertions-dropped', 'constant-shifted'] as const) {
    for (const transformation of [inlining, paths()]) t.true((await failures(fault, fuzz, transformation)).length > 0, `${fault}: ${transformation.name}`);
  }
});
