// `farkas bounds FILE`: loop bounds over the function's inputs (paper 004, Section 6.1), each proved
// by the constraint engine on the counter-instrumented program and certified by the z3 checker, with
// an input on which the loop runs exactly that often; conditional bounds (a precondition and a bound
// under it) when the loop does not terminate for every input.
import type { Command } from 'commander';
import { dataModelOption, loadProgram, propertyOption } from '../program-input.js';
import { bounds, instrumentForBounds, type BoundsEvent, type BoundsResult } from '../../lib/bounds/bounds.js';
import { printProcedure } from '../../lib/ir/print.js';
import { EXIT } from '../exit-codes.js';
import { runCommand } from '../common.js';
import { commonOptions, fmt, shared, values, type CommonCliOptions } from './conditions.js';

export function register(program: Command): void {
  commonOptions(
    program
      .command('bounds')
      .description('loop bounds over the parameters (counter instrumentation), certified, with an input that attains each; conditional bounds otherwise')
      .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
    .addOption(propertyOption()),
  )
    .option('--show-instrumented', 'print the function with its iteration counters (paper Claim 1) and stop')
    .addHelpText('after', `
Paper 004, Claim 1: each loop gets a counter (0 when the loop is entered, +1 on every entry into its
body). A bound is a linear expression over the parameters: the tightest one consistent with the
iteration counts of many concrete runs is asserted at the increment and proved by the constraint
engine (invariants certified by z3, as in farkas verify); a refuting run refines the guess. "tight on"
names an input on which the loop runs exactly 'bound' times (re-run by the interpreter). When no bound
holds for every input, weakest preconditions of the instrumented program give conditional bounds.
Before a bound is printed, runs of the original program (counted without the instrumentation) must
not exceed it: one that does is a bug in farkas, reported as an internal error with that run's input.

Exit codes:
  0  every loop has a certified bound (possibly under a precondition), or there is none
  2  some loop has none (with the reason)
  3  input error (syntax error, unsupported construct, bad option, unreadable file)
  4  internal error (a bug in farkas: please report it)`)
    .action((path: string, opts: CommonCliOptions & { showInstrumented?: boolean }) =>
      runCommand(async () => {
        const { file, program: prog } = loadProgram(path, opts);
        if (opts.showInstrumented) {
          const counted = instrumentForBounds(prog, opts.function);
          console.log(printProcedure(counted.program.procedures.get(counted.function)!));
          return EXIT.OK;
        }
        const result = await bounds(prog, { ...shared(opts), ...(boundsProgress(opts.quiet) ? { onBoundsProgress: boundsProgress(opts.quiet)! } : {}) });
        if (opts.json) console.log(JSON.stringify(boundsJson(file, result), null, 2));
        else printBounds(file, result);
        // A function without loops or recursion has nothing unbounded: every loop (none) is bounded.
        const complete = [...result.loops, ...result.procedures].every((l) => l.certified) && result.calleesWithLoops.length === 0;
        return complete ? EXIT.OK : EXIT.UNKNOWN;
      }),
    );
}

function boundsProgress(quiet: boolean | undefined): ((e: BoundsEvent) => void) | undefined {
  if (quiet || !process.stderr.isTTY) return undefined;
  return (e) => {
    if (e.kind === 'sampled') process.stderr.write(`  ${e.runs} concrete runs (${e.nonTerminating} did not return)\n`);
    else if (e.kind === 'candidate') process.stderr.write(`  line ${e.line}: proving bound ${e.bound}\n`);
  };
}

function printBounds(file: string, r: BoundsResult): void {
  console.log(`${file}: function ${r.function}(${r.parameters.join(', ')}): ${new Set(r.loops.map((l) => l.line)).size} loop(s)`);
  if (r.loops.length === 0 && r.procedures.length === 0) console.log(`no loops${r.calleesWithLoops.length === 0 ? ': every run of this function ends after finitely many steps' : ''}`);
  for (const l of r.loops) {
    const under = l.precondition === '1' ? '' : ` if ${l.precondition}`;
    if (!l.bound) {
      console.log(`loop at line ${l.line}: no bound (${l.reason ?? 'unknown'})`);
      continue;
    }
    console.log(`loop at line ${l.line}: at most ${l.bound} iterations${under}${l.locallyWeakest === undefined ? '' : l.locallyWeakest ? ' (precondition locally weakest)' : ' (precondition not shown locally weakest)'}`);
    console.log(`  certified: ${l.certified ? 'yes (z3, integer arithmetic)' : 'no'}${l.invariants.length > 0 ? ', with invariants:' : ''}`);
    for (const inv of l.invariants) console.log(`    line ${inv.line}: ${inv.expression}`);
    if (l.tight) console.log(`  tight on ${fmt(l.tight.input) || 'the default run'}${l.tight.nondet.length > 0 ? ` (nondet ${l.tight.nondet.join(',')})` : ''}: ${l.tight.iterations} iteration${l.tight.iterations === 1n ? '' : 's'}`);
  }
  for (const c of r.calleesWithLoops) console.log(`function ${c} (called): its loops are not bounded here (farkas bounds --function ${c})`);
  for (const p of r.procedures) {
    if (!p.bound) {
      console.log(`procedure ${p.procedure}: no bound (${p.reason ?? 'unknown'})`);
      continue;
    }
    console.log(`procedure ${p.procedure}: at most ${p.bound} calls per call of ${p.function}${p.precondition === '1' ? '' : ` if ${p.precondition}`}`);
    console.log(`  certified: yes (z3, integer arithmetic), with summaries:`);
    for (const s of p.summaries) console.log(`    ${s}`);
    if (p.tight) console.log(`  tight on ${fmt(p.tight.input) || 'the default run'}: ${p.tight.iterations} call${p.tight.iterations === 1n ? '' : 's'}`);
  }
  console.log(`search: ${r.runs} concrete runs (${r.nonTerminatingRuns} did not return within the step budget), ${r.stats.proofAttempts} proof attempts, ${r.stats.satCalls} SAT calls, largest ${r.stats.maxClauses} clauses, ${(r.millis / 1000).toFixed(1)} s`);
}

export function boundsJson(file: string, r: BoundsResult): Record<string, unknown> {
  return {
    file,
    function: r.function,
    parameters: r.parameters,
    loops: r.loops.map((l) => ({
      function: l.function,
      line: l.line,
      bound: l.bound,
      precondition: l.precondition,
      certified: l.certified,
      ...(l.locallyWeakest !== undefined ? { locallyWeakest: l.locallyWeakest } : {}),
      invariants: l.invariants,
      ...(l.tight ? { tight: { input: values(l.tight.input), nondet: l.tight.nondet.map(String), iterations: l.tight.iterations.toString() } } : {}),
      ...(l.reason ? { reason: l.reason } : {}),
    })),
    calleesWithLoops: r.calleesWithLoops,
    procedures: r.procedures.map((p) => ({
      function: p.function,
      procedure: p.procedure,
      bound: p.bound,
      precondition: p.precondition,
      certified: p.certified,
      summaries: p.summaries,
      ...(p.tight ? { tight: { input: values(p.tight.input), iterations: p.tight.iterations.toString() } } : {}),
      ...(p.reason ? { reason: p.reason } : {}),
    })),
    runs: r.runs,
    nonTerminatingRuns: r.nonTerminatingRuns,
    stats: r.stats,
    millis: r.millis,
  };
}
