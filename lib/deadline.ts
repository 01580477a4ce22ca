// The user's --timeout, checked inside long synchronous work (building a step's Farkas system,
// bit-blasting it): past the deadline the work stops by throwing, and the search answers "unknown
// (timeout)" instead of running on for minutes or out of memory.
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
