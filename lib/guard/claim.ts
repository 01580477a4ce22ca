// Every claim farkas certifies rests on a proof about a program farkas built (an instrumented copy, an
// encoding); a bug in that construction makes the certificate prove the wrong thing (issue 19: a
// counter that never counted, and "at most 0 iterations" certified for a loop that runs n times).
// Before a claim is returned it is therefore also checked on concrete runs of the ORIGINAL program;
// a run that breaks it is a bug in farkas, reported as this error instead of the claim.

/** A certified claim that a run of the original program breaks: a bug in farkas, never an answer. */
export class ClaimContradicted extends Error {
  constructor(
    /** What was claimed, in words: 'loop bound'. */
    readonly kind: string,
    /** The run's inputs (and nondet values, when it read any), as text that replays it. */
    readonly input: string,
    /** What the run did against what was claimed. */
    readonly description: string,
    /** Source line the claim is about, when it is about one. */
    readonly line: number | null = null,
  ) {
    super(`a certified ${kind} was contradicted by a run of the program: ${input} (${description})`);
    this.name = 'ClaimContradicted';
  }
}
