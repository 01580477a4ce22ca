// `farkas ui FILE` (and `farkas FILE` on a terminal): the interactive terminal UI (cli/ui/). Without a
// terminal (pipes, CI) it prints what `farkas verify` prints.
import { Option, type Command } from 'commander';
import { dataModelOption, loadProgram, propertyOption, type ProgramInputOptions } from '../program-input.js';
import { Problem, verify, type Program } from '../../lib/index.js';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.js';
import { runCommand } from '../common.js';
import { commandSettings, cutsetOption, functionOption, templateOption, checkerOption } from '../options.js';
import { formatVerify } from '../report/verify.js';
import { MODE_KEYS } from '../ui/modes/keys.js';
import { checkOutputDirectory } from '../output-paths.js';
import { describe } from './catalog.js';
import { isInteractive } from '../terminal.js';

interface UiCliOptions extends ProgramInputOptions {
  function?: string;
  cutset: 'paths' | 'headers';
  template: string;
  mode: string;
  exportDir: string;
}

export function register(program: Command): void {
  program
    .command('ui')
    .description(describe('ui'))
    .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
    .addOption(checkerOption())
    .addOption(propertyOption())
    .addOption(functionOption())
    .addOption(cutsetOption())
    .addOption(templateOption())
    .addOption(new Option('-m, --mode <mode>', 'mode to start in').choices(MODE_KEYS.map((m) => m.id)).default('verify'))
    .option('--export-dir <dir>', "where 'x' writes FILE.MODE.json and 'W' FILE.witness.yml", '.')
    .addHelpText('after', `
Keys: ${MODE_KEYS.map((m) => `${m.key} ${m.id}`).join(', ')}; up/down select a cut-point; n/p step a counterexample;
Tab focus the next pane; PgUp/PgDn page it; H/G (Home/End) its first/last line or step;
t and +/- compose a template; c cut-set; a/e add/edit an assertion; S save the edited program;
i pin the selected invariant; l sp at the selected cut-point; o open a file; x export JSON;
W export an SV-COMP witness (verify); ? help; q quit. The UI uses the terminal's alternate screen
and restores it on exit. Without a terminal (pipes, CI) the output is that of 'farkas verify'.
NO_COLOR turns colours off.

${EXIT_CODES_HELP}`)
    .action((path: string, opts: UiCliOptions) =>
      runCommand(async () => {
        // A bad program is a positioned input error before the screen opens.
        const { file, source, program, dataModel, property } = loadProgram(path, opts);
        checkOutputDirectory(opts.exportDir, '--export-dir');
        if (!isInteractive()) return plainVerify(file, program, opts);
        // ink, react and the modes load only when the screen opens: they are most of the start-up
        // of every other command. React's development build (the default without NODE_ENV) records a
        // performance entry per component render: over a long session they pile up in memory until
        // Node warns on stderr, over the screen. The UI is not a React development session.
        process.env.NODE_ENV ??= 'production';
        const [{ createElement }, { render }, { App }, { MODES }, { processRunner }] = await Promise.all([
          import('react'), import('ink'), import('../ui/app.js'), import('../ui/modes/index.js'), import('../ui/runner.js'),
        ]);
        const runner = processRunner();
        process.on('exit', () => runner.dispose());
        const app = render(
          createElement(App, {
            file,
            source,
            modes: MODES,
            runner,
            initialMode: opts.mode,
            cutset: opts.cutset,
            schedule: opts.template,
            exportDir: opts.exportDir,
            frontend: { dataModel, property },
            color: !('NO_COLOR' in process.env) || process.env.NO_COLOR === '',
            ...(opts.function !== undefined ? { functionName: opts.function } : {}),
          }),
          { exitOnCtrlC: true },
        );
        await app.waitUntilExit();
        runner.dispose();
        return EXIT.OK;
      }),
    );
}

async function plainVerify(file: string, program: Program, opts: UiCliOptions): Promise<number> {
  const result = await verify(Problem.of(program, opts.function), commandSettings({ cutset: opts.cutset, template: opts.template }));
  process.stdout.write(formatVerify(file, result, program));
  return result.verdict === 'safe' ? EXIT.OK : result.verdict === 'unsafe' ? EXIT.UNSAFE : EXIT.UNKNOWN;
}
