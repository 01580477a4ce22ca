// `farkas constraints FILE`: the exact bilinear system Farkas' lemma produces for one schedule step,
// for inspection (what the SAT solver is asked after bit-blasting).
import type { Command } from 'commander';
import { dataModelOption, loadProgram, propertyOption, type ProgramInputOptions } from '../program-input.js';
import { scheduleStep, polyToString, InputError, formula as F, linear as L } from '../../lib/index.js';
import { EXIT } from '../exit-codes.js';
import { runCommand } from '../common.js';
import { cutsetOption, functionOption, templateOption } from '../options.js';
import { describe } from './catalog.js';

interface ConstraintsCliOptions extends ProgramInputOptions {
  function?: string;
  cutset: string;
  template: string;
  step: string;
  json?: boolean;
}

export function register(program: Command): void {
  program
    .command('constraints')
    .description(describe('constraints'))
    .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
    .addOption(propertyOption())
    .addOption(functionOption())
    .addOption(cutsetOption())
    .addOption(templateOption())
    .option('--step <n>', 'which step of the schedule (1-based)', '1')
    .option('--json', 'print one JSON object')
    .action((file: string, opts: ConstraintsCliOptions) =>
      runCommand(() => {
        const { program } = loadProgram(file, opts);
        const stepNo = Number(opts.step);
        if (!Number.isInteger(stepNo) || stepNo < 1) throw new InputError('error', `--step expects a positive integer, got '${opts.step}'`, null);
        // The step as verify solves it (constants widened to the program's; lib/export/index.ts).
        const { prepared, step, system, applications } = scheduleStep(program, { ...(opts.function !== undefined ? { function: opts.function } : {}), cutset: opts.cutset as 'paths' | 'headers', schedule: opts.template, step: stepNo }, '`farkas constraints`');
        const proc = prepared.cut.proc;
        const where = (loc: number): string => {
          const p = proc.locations[loc]?.pos;
          return `L${loc}${p ? ` (line ${p.line})` : ''}${loc === proc.entry ? ' entry' : loc === proc.exit ? ' exit' : ''}`;
        };
        if (opts.json) {
          process.stdout.write(JSON.stringify({
            function: prepared.function,
            cutset: prepared.cut.strategy,
            step: { template: `${step.shape.disjuncts}x${step.shape.conjuncts}`, widths: step.widths },
            cutpoints: prepared.cut.cutpoints.map((c) => ({ location: c, line: proc.locations[c]?.pos?.line ?? null, variables: prepared.variables.get(c) ?? null })),
            verificationConditions: prepared.vcs.map((vc) => ({
              from: vc.from,
              to: vc.to,
              guards: F.toC(vc.guards),
              conclusion: vc.conclusion.kind === 'assertion' ? { assertion: F.toC(vc.conclusion.formula), line: vc.conclusion.pos.line } : { cutpoint: vc.conclusion.app.cutpoint, substitution: Object.fromEntries([...vc.conclusion.app.subst].map(([k, v]) => [k, L.toC(v)])) },
            })),
            unknowns: system.unknowns.map((u) => ({ name: u.name, kind: u.kind, nonNegative: u.nonNegative })),
            constraints: system.constraints.map((c) => ({ polynomial: polyToString(c.poly), relation: c.rel, origin: c.origin ?? null })),
            farkasApplications: applications,
          }, null, 2) + '\n');
          return EXIT.OK;
        }
        const out: string[] = [];
        out.push(`function ${prepared.function}; cut-set ${prepared.cut.strategy}; step ${stepNo}: template ${step.shape.disjuncts}x${step.shape.conjuncts}, widths coefficient ${step.widths.coefficient}, constant ${step.widths.constant}, multiplier ${step.widths.multiplier}`);
        out.push('cut-points:');
        for (const c of prepared.cut.cutpoints) {
          const vars = prepared.variables.get(c);
          out.push(`  ${where(c)}${vars ? `: unknown invariant over ${vars.join(', ') || '(no variables)'}` : ': known (true or the precondition)'}`);
        }
        out.push(`verification conditions (${prepared.vcs.length}):`);
        prepared.vcs.forEach((vc, i) => {
          const concl = vc.conclusion.kind === 'assertion'
            ? `assert ${F.toC(vc.conclusion.formula)} (line ${vc.conclusion.pos.line})`
            : `I_${vc.conclusion.app.cutpoint}[${[...vc.conclusion.app.subst].map(([k, v]) => `${k} := ${L.toC(v)}`).join(', ')}]`;
          out.push(`  VC ${i}: I_${vc.from} && ${F.toC(vc.guards)}  =>  ${concl}`);
        });
        out.push(`unknowns: ${system.unknowns.length} (${count(system.unknowns, 'coefficient')} coefficients, ${count(system.unknowns, 'constant')} constants, ${count(system.unknowns, 'multiplier')} multipliers >= 0)`);
        out.push(`constraints (${system.constraints.length}, from ${applications} Farkas applications):`);
        for (const c of system.constraints) out.push(`  ${polyToString(c.poly)} ${c.rel} 0${c.origin ? `    [${c.origin}]` : ''}`);
        process.stdout.write(out.join('\n') + '\n');
        return EXIT.OK;
      }),
    );
}

function count(unknowns: readonly { kind: string }[], kind: string): number {
  return unknowns.filter((u) => u.kind === kind).length;
}
