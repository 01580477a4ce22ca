// Limits on the work of one analysis step. Two kinds, both ending the step with "unknown" and the
// reason, never with a crash:
//  - the user's --timeout, checked inside long synchronous work (building a step's Farkas system,
//    bit-blasting it): past the deadline the work stops by throwing DeadlineExceeded;
//  - sizes that count work, not time, so the answer does not depend on the machine's load: a
//    formula's DNF, a step's Farkas applications and its CNF. Past them a step would take minutes and
//    gigabytes (a wrap-around in every branch of a path gives a guard with 2^k cases) and could not
//    be solved anyway; WorkLimitExceeded stops it deterministically.

/** Cubes of one formula's disjunctive normal form (a VC's guard, a fact, a conclusion's negation). */
export const MAX_DNF_CUBES = 4096;
/** Cases of a path's guard used as they are in the premise of Farkas' lemma (constraints/farkas.ts):
 * a larger guard is weakened to this many. Of the dev-set tasks, four have larger guards: sumt4 (64
 * cases), nested_delay_nd and _notd2 (96), sumt6 (1024); none of them was proved before the limit. */
export const MAX_GUARD_CUBES = 16;
/** Farkas' lemma applications (premise cube × conclusion clause) in one step's constraint system. */
export const MAX_FARKAS_APPLICATIONS = 50_000;
/** Clauses of one step's CNF (about 100 bytes each while it is built). The largest step that proved
 * a dev-set task had 1.2 million; steps of 17 million never finished. */
export const MAX_CNF_CLAUSES = 8_000_000;
/** Transitions of one path of the symbolic-execution engine, whose search recurses along the path
 * (an async recursion: a frame per transition); past it the engine answers unknown, not a stack
 * overflow (issue 20: 50,000 straight-line statements). */
export const MAX_SYMBOLIC_PATH = 1000;

export class DeadlineExceeded extends Error {
  constructor() {
    super('deadline passed');
    this.name = 'DeadlineExceeded';
  }
}

/** Throws DeadlineExceeded once `deadline` (epoch milliseconds; Infinity: none) has passed. */
export function checkDeadline(deadline: number | undefined): void {
  if (deadline !== undefined && Date.now() > deadline) throw new DeadlineExceeded();
}

/** A size limit above was reached; the message says which (it is the "unknown" reason). */
export class WorkLimitExceeded extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkLimitExceeded';
  }
}

/**
 * Why building a search step stopped: past the deadline (the search then ends "unknown (timeout)") or
 * past a size limit (only that step is skipped, with the reason: the other steps differ in template
 * shape and facts). Any other error is rethrown.
 */
export function stepBuildStopped(e: unknown): { readonly timeout: true } | { readonly timeout: false; readonly reason: string } {
  if (e instanceof DeadlineExceeded) return { timeout: true };
  if (e instanceof WorkLimitExceeded) return { timeout: false, reason: e.message };
  throw e;
}
