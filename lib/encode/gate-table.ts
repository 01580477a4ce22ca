// Structural-hashing table for gates: (a, b, c) literal triples → output literal. Open addressing
// over typed arrays, because a Map per key (or string keys) made hashing the largest cost of
// building big formulas and loaded the garbage collector. Two-input gates use c = 0.

/** A DIMACS-style literal: variable v >= 1 is the literal v, its negation is -v. */
export type Lit = number;

const EMPTY = 0; // no gate output is ever literal 0

export class GateTable {
  private keys = new Int32Array(3 * 1024);
  private outs = new Int32Array(1024);
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(a: Lit, b: Lit, c: Lit): Lit | undefined {
    const mask = this.outs.length - 1;
    for (let i = hash(a, b, c) & mask; ; i = (i + 1) & mask) {
      const out = this.outs[i]!;
      if (out === EMPTY) return undefined;
      if (this.keys[3 * i] === a && this.keys[3 * i + 1] === b && this.keys[3 * i + 2] === c) return out;
    }
  }

  set(a: Lit, b: Lit, c: Lit, out: Lit): void {
    if (2 * (this.count + 1) > this.outs.length) this.grow();
    this.insert(a, b, c, out);
    this.count++;
  }

  private insert(a: Lit, b: Lit, c: Lit, out: Lit): void {
    const mask = this.outs.length - 1;
    let i = hash(a, b, c) & mask;
    while (this.outs[i] !== EMPTY) i = (i + 1) & mask;
    this.keys[3 * i] = a;
    this.keys[3 * i + 1] = b;
    this.keys[3 * i + 2] = c;
    this.outs[i] = out;
  }

  private grow(): void {
    const [keys, outs] = [this.keys, this.outs];
    this.keys = new Int32Array(keys.length * 2);
    this.outs = new Int32Array(outs.length * 2);
    for (let i = 0; i < outs.length; i++) {
      if (outs[i] !== EMPTY) this.insert(keys[3 * i]!, keys[3 * i + 1]!, keys[3 * i + 2]!, outs[i]!);
    }
  }
}

function hash(a: number, b: number, c: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}
