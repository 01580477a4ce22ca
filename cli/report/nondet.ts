// How a report names the nondet reads that an answer states as parameters (`nondet_K`).

export interface NondetReadView {
  readonly parameter: string;
  readonly line: number;
  readonly target: string;
}

/** "nondet_1 is the value read into s at line 3", for each read that `text` mentions. */
export function nondetReadsIn(reads: readonly NondetReadView[], text: string): string[] {
  return reads
    .filter((i) => new RegExp(`\\b${i.parameter}\\b`).test(text))
    .map((i) => `${i.parameter} is ${i.target === '*' ? 'the choice' : i.target.startsWith('__') ? 'the value read' : `the value read into ${i.target}`} at line ${i.line}`);
}

export function nondetReadsJson(reads: readonly NondetReadView[]): { parameter: string; line: number; target: string }[] {
  return reads.map((i) => ({ parameter: i.parameter, line: i.line, target: i.target }));
}
