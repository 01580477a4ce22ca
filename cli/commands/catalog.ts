// The commands, their one-line descriptions and the module that defines each: what `farkas --help`
// prints without importing any command module (each one loads the library, which takes most of a
// start-up). The modules take their descriptions from here, so the two cannot drift apart.

export interface CommandEntry {
  readonly name: string;
  /** How the command is shown in the command list. */
  readonly term: string;
  readonly description: string;
  /** The module under cli/commands/ that registers it (one module may register several commands). */
  readonly module: 'verify' | 'constraints' | 'cfg' | 'run' | 'check' | 'conditions' | 'bounds' | 'ui';
}

const entry = (name: string, module: CommandEntry['module'], description: string): CommandEntry => ({ name, term: `${name} [options] <file>`, description, module });

/** In the order `farkas --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  entry('verify', 'verify', 'prove every assertion of FILE with inductive invariants (certified by z3 over the integers), or find a failing run (sampling and bounded model checking, replayed by the interpreter)'),
  entry('constraints', 'constraints', 'print the verification conditions and the bilinear constraint system (after Farkas) for one schedule step'),
  entry('cfg', 'cfg', 'print the control-flow graph of each function (locations, loop headers, edges with their statements)'),
  entry('run', 'run', 'run FILE with the concrete interpreter on given inputs and nondet values'),
  entry('check', 'check', 'verify FILE with one engine: constraints (as verify), lazy abstraction, symbolic execution, lazy annotation'),
  entry('nonterm', 'conditions', 'most-general counterexamples for termination: conditions on the parameters under which the function never returns'),
  entry('cex', 'conditions', 'most-general counterexamples for safety: conditions on the parameters under which an assertion fails'),
  entry('wp', 'conditions', 'weakest preconditions over the parameters of a function, each certified and locally weakest with replayed evidence'),
  entry('sp', 'conditions', 'strongest postcondition at the exit (or a loop), certified and locally strongest with replayed evidence'),
  entry('bounds', 'bounds', 'loop bounds over the parameters (counter instrumentation), certified, with an input that attains each; conditional bounds otherwise'),
  entry('ui', 'ui', 'interactive terminal UI: watch invariants being synthesised, change templates and assertions, step counterexamples'),
];

export function describe(name: string): string {
  const found = COMMANDS.find((c) => c.name === name);
  if (found === undefined) throw new Error(`internal: command '${name}' is not in the catalog`);
  return found.description;
}
