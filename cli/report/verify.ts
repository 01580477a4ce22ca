// Text and JSON renderings of verify results (and of the engines' results, which share the contract),
// shared by the commands and the UI.
import { checkerInUse, DEFAULT_MAX_STEPS, type FalsifierReport, type Program, type TerminationResult, type VerifyResult } from '../../lib/index.js';
import { rankingJson, rankingLines } from './ranking.js';
import { atLeastZero } from './bounds.js';
import { semanticsNote } from '../program-input.js';
import { nondetReadsIn, nondetReadsJson } from './nondet.js';
import { answeredBy } from './answered-by.js';

/** The reproduce line asks for a trace up to this many steps (a trace prints a line a step). */
const TRACED_REPRODUCTION_STEPS = 100_000;

/** The semantics an answer rests on, for --json: data model, property and its premise. */
export function semanticsJson(program: Program | undefined): object {
  if (!program) return {};
  const property = program.property ?? 'unreach-call';
  return { property, dataModel: program.dataModel ?? 'ILP32', premises: property === 'unreach-call' ? ['no signed overflow'] : [] };
}

export function verifyJson(file: string, r: VerifyResult, program?: Program): object {
  return {
    file,
    function: r.function,
    verdict: r.verdict,
    ...semanticsJson(program),
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    certified: r.certified,
    checker: checkerInUse().kind,
    ...(r.failingCondition ? { failingCondition: r.failingCondition } : {}),
    cutset: r.cutset,
    schedule: r.schedule,
    cutpoints: r.cutpoints,
    verificationConditions: r.verificationConditions,
    invariants: r.invariants.map((i) => ({ function: i.function, line: i.line, expression: i.expression })),
    ...(r.pinned ? { pinned: r.pinned } : {}),
    ...(r.summaries ? { summaries: Object.fromEntries(r.summaries.map((s) => [s.procedure, s.pairs.map((p) => ({ pre: p.pre, post: p.post }))])) } : {}),
    ...(r.houdini ? { houdini: { ...r.houdini } } : {}),
    ...(r.falsifier ? { falsifier: { ...r.falsifier } } : {}),
    stats: r.stats.map((s) => ({
      template: s.template,
      widths: s.widths,
      unknowns: s.unknowns,
      constraints: s.constraints,
      variables: s.variables,
      clauses: s.clauses,
      encodeMs: s.encodeMillis,
      satMs: s.satMillis,
      ...(s.solverMillis !== undefined ? { solverMs: s.solverMillis } : {}),
      ...(s.conflicts !== undefined ? { conflicts: s.conflicts } : {}),
      ...(s.propagations !== undefined ? { propagations: s.propagations } : {}),
      backend: s.backend,
      result: s.result,
      ...(s.reason !== undefined ? { reason: s.reason } : {}),
      ...(s.statesMillis !== undefined ? { statesMs: s.statesMillis } : {}),
      ...(s.summaries !== undefined ? { summaries: s.summaries } : {}),
    })),
    ...(r.counterexample
      ? { counterexample: { inputs: Object.fromEntries([...r.counterexample.inputs].map(([k, v]) => [k, v.toString()])), nondet: r.counterexample.nondet.map(String), line: r.counterexample.line, replayed: r.counterexample.replayed } }
      : {}),
    ...(r.overflow
      ? { overflow: { line: r.overflow.line, inputs: Object.fromEntries([...r.overflow.inputs].map(([k, v]) => [k, v.toString()])), nondet: r.overflow.nondet.map(String) } }
      : {}),
    millis: r.millis,
  };
}

export function formatVerify(file: string, r: VerifyResult, program?: Program): string {
  const lines: string[] = [];
  const verdict = r.verdict === 'safe' ? 'safe (invariants certified by z3 over the integers)' : r.verdict === 'unsafe' ? 'unsafe' : `unknown (${r.reason ?? 'no reason given'})`;
  lines.push(`${file}: function ${r.function}: ${verdict}`);
  if (program) lines.push(semanticsNote(program));
  if (r.overflow) {
    const inputs = [...r.overflow.inputs].map(([k, v]) => `${k}=${v}`).join(', ');
    lines.push(`note: a sampled run overflows a signed type at line ${r.overflow.line}${inputs ? ` (${inputs})` : ''}: undefined behaviour, outside what this answer covers`);
  }
  lines.push(`cut-set: ${r.cutset} (${r.cutpoints} cut-points, ${r.verificationConditions} verification conditions); schedule: ${r.schedule}`);
  if (r.invariants.length > 0) {
    lines.push(r.verdict === 'safe' ? 'invariants:' : 'candidate invariants (not certified):');
    for (const i of r.invariants) lines.push(`  line ${i.line}: ${i.function !== r.function ? `${i.function}: ` : ''}${i.expression}`);
  }
  if (r.pinned && r.pinned.length > 0) lines.push(`pinned (known conjuncts of the search): ${r.pinned.map((p) => `line ${p.line}: ${p.expression}`).join('; ')}`);
  if (r.summaries && r.summaries.length > 0) {
    lines.push(r.verdict === 'safe' ? 'summaries (pre => post):' : 'candidate summaries (not certified):');
    for (const s of r.summaries) for (const p of s.pairs) lines.push(`  ${s.procedure}: ${p.pre} => ${p.post}`);
  }
  if (r.houdini) {
    const h = r.houdini;
    lines.push(`observed bounds (Houdini): ${h.kept} of ${h.candidates} candidate conjuncts inductive after ${h.rounds} checker round${h.rounds === 1 ? '' : 's'} (${h.millis} ms)${h.proved ? '; they prove the program, so the template search stopped there' : '; not enough to prove the program'}`);
  }
  if (r.falsifier) lines.push(falsifierLine(r.falsifier));
  if (r.stats.length > 0) {
    lines.push('search:');
    lines.push('  step  template  widths(c/k/m)  unknowns   vars  clauses  encode ms  SAT ms  result');
    r.stats.forEach((s, i) => {
      const w = `${s.widths.coefficient}/${s.widths.constant}/${s.widths.multiplier}`;
      lines.push(`  ${String(i + 1).padStart(4)}  ${s.template.padEnd(8)}  ${w.padEnd(13)}  ${String(s.unknowns).padStart(8)}  ${String(s.variables).padStart(5)}  ${String(s.clauses).padStart(7)}  ${String(s.encodeMillis).padStart(9)}  ${String(s.satMillis).padStart(6)}  ${s.result}${answeredBy(s.backend)}${s.reason ? ` (${s.reason})` : ''}`);
    });
  }
  if (r.counterexample) {
    const inputs = [...r.counterexample.inputs].map(([k, v]) => `${k}=${v}`).join(', ');
    const failure = program?.property === 'no-overflow' ? 'a signed operation overflows' : 'fails';
    lines.push(`counterexample: ${inputs || '(no inputs)'}${r.counterexample.nondet.length ? `; nondet ${r.counterexample.nondet.join(',')}` : ''}; ${failure} at line ${r.counterexample.line}${r.counterexample.replayed ? ' (replayed by the interpreter)' : ''}`);
    if (r.failingCondition) lines.push(`failing condition: ${r.failingCondition.expression} (farkas cex${r.failingCondition.certified ? ', certified' : ''})`);
    const args = [...r.counterexample.inputs].map(([k, v]) => ` --input ${k}=${v}`).join('') + (r.counterexample.nondet.length ? ` --nondet ${r.counterexample.nondet.join(',')}` : '');
    const semantics = program?.dataModel === 'LP64' ? ' --data-model LP64' : '';
    // A run past the interpreter's default step limit needs its own; its trace (a line a step) is
    // then left to the user to ask for.
    const steps = r.counterexample.steps ?? 0;
    const long = steps >= DEFAULT_MAX_STEPS ? ` --max-steps ${steps + 1}` : '';
    lines.push(`reproduce: farkas run ${file}${semantics} --function ${r.function}${args} --nondet-default none${long}${steps > TRACED_REPRODUCTION_STEPS ? '' : ' --trace'}`);
  }
  lines.push(`time: ${(r.millis / 1000).toFixed(2)} s`);
  return lines.join('\n') + '\n';
}



/** One line on the falsifier's bounded model checking. */
function falsifierLine(f: FalsifierReport): string {
  const queries = `${f.queries} z3 quer${f.queries === 1 ? 'y' : 'ies'}`;
  const summaries = f.summaries ? ', recursive calls by guessed summaries' : '';
  if (f.foundAt !== undefined) return `bounded model checking: a failing run through ${f.foundAt} region step${f.foundAt === 1 ? '' : 's'} (${queries}${summaries})`;
  const none = f.depth > 0 ? `no failing run within ${f.depth} region step${f.depth === 1 ? '' : 's'}` : 'no depth searched';
  const unreplayed = f.unreplayed > 0 ? `; ${f.unreplayed} model${f.unreplayed === 1 ? '' : 's'} did not replay` : '';
  return `bounded model checking: ${none}${f.stopped ? ` (${f.stopped})` : ''} (${queries}${summaries}${unreplayed})`;
}

/** The termination property's answer: verdict safe (every run ends), unsafe (one does not), unknown. */
export function terminationJson(file: string, r: TerminationResult, program?: Program): object {
  const verdict = r.verdict === 'terminates' ? 'safe' : r.verdict === 'non-terminating' ? 'unsafe' : 'unknown';
  return {
    file,
    function: r.function,
    verdict,
    ...semanticsJson(program),
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    certified: r.verdict !== 'unknown',
    ...(r.bounds ? { bounds: r.bounds.map((l) => ({ function: l.function, line: l.line, bound: l.bound, precondition: l.precondition, invariants: l.invariants })) } : {}),
    ...rankingJson(r),
    ...(r.endless
      ? {
          nonTermination: {
            condition: r.endless.condition.expression,
            invariants: r.endless.condition.invariants,
            inputs: Object.fromEntries([...r.endless.input].map(([k, v]) => [k, v.toString()])),
            nondet: r.endless.nondet.map(String),
            stepsShown: r.endless.steps,
          },
        }
      : {}),
    nondetInputs: nondetReadsJson(r.nondetInputs),
    millis: r.millis,
  };
}

export function formatTermination(file: string, r: TerminationResult, program?: Program): string {
  const lines: string[] = [];
  const verdict = r.verdict === 'terminates'
    ? `safe: every run ends (a certified ${(r.ranked?.length ?? 0) + (r.rankedRecursion?.length ?? 0) > 0 ? 'bound or ranking function' : 'bound'} on every loop and recursion)`
    : r.verdict === 'non-terminating'
      ? 'unsafe: a run does not end (certified recurrent set, run shown)'
      : `unknown (${r.reason ?? 'no reason given'})`;
  lines.push(`${file}: function ${r.function}: ${verdict}`);
  if (program) lines.push(semanticsNote(program));
  const readAt = (text: string) => nondetReadsIn(r.nondetInputs, text);
  for (const l of r.bounds ?? []) lines.push(`  loop at line ${l.line}: at most ${atLeastZero(l.bound ?? '?')} iterations${l.precondition === '1' ? '' : ` if ${l.precondition}`}`);
  lines.push(...rankingLines(r));
  const boundReads = readAt((r.bounds ?? []).map((l) => `${l.bound} ${l.precondition}`).join(' '));
  if (boundReads.length > 0) lines.push(`  where ${boundReads.join('; ')}`);
  if (r.endless) {
    const e = r.endless;
    const fixed = readAt(e.condition.expression);
    lines.push(`  never ends from: ${e.condition.expression}`);
    if (fixed.length > 0) lines.push(`  where ${fixed.join('; ')} (every read at a line takes the same value)`);
    for (const inv of e.condition.invariants) lines.push(`    invariant at line ${inv.line}: ${inv.expression}`);
    const inputs = [...e.input].map(([k, v]) => `${k}=${v}`).join(', ');
    lines.push(`  run shown: ${inputs || '(no inputs)'}${e.nondet.length > 0 ? `; nondet ${e.nondet.slice(0, 12).join(',')}${e.nondet.length > 12 ? ',…' : ''}` : ''}: ${e.steps} steps without ending`);
  }
  lines.push(`time: ${(r.millis / 1000).toFixed(2)} s`);
  return lines.join('\n') + '\n';
}
