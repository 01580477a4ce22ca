// Process exit codes, shared by every command and documented in docs/commands.md and --help.
export const EXIT = {
  /** verify: safe (certified); run: normal termination; other commands: success */
  OK: 0,
  /** verify: unsafe (counterexample replayed); run: an assertion failed */
  UNSAFE: 1,
  /** verify: unknown (timeout, solver limit, template exhausted, …); run: assume blocked or step limit */
  UNKNOWN: 2,
  /** bad input: syntax error, unsupported construct, bad option, missing file */
  INPUT_ERROR: 3,
  /** a bug in farkas itself */
  INTERNAL_ERROR: 4,
  /** verify --cross-check: two engines gave opposite definite verdicts (safe vs unsafe) */
  DISAGREEMENT: 5,
} as const;

export const EXIT_CODES_HELP = `Exit codes:
  0  safe (certified) / normal run / success
  1  unsafe (counterexample replayed by the interpreter) / assertion failed in run
  2  unknown (with the reason) / assume blocked or step limit in run
  3  input error (syntax error, unsupported construct, bad option, unreadable file)
  4  internal error (a bug in farkas: please report it)
  5  verify --cross-check: engines disagree (one proved safe, another found a counterexample)`;
