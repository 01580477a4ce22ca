// IR statements in C-like syntax, for traces and step-through displays.
import type { Stmt } from '../ir/cfg.js';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';

// Every traced step carries its statement's text, and sampling traces hundreds of thousands of
// steps: each statement (an immutable IR object) is printed once.
const printed = new WeakMap<Stmt, string>();

export function stmtText(s: Stmt): string {
  let text = printed.get(s);
  if (text === undefined) {
    text = print(s);
    printed.set(s, text);
  }
  return text;
}

function print(s: Stmt): string {
  switch (s.kind) {
    case 'assign': return `${s.target} = ${L.toC(s.expr)}`;
    case 'havoc':
      if (s.ghost) return `${s.target} = ghost()`;
      return s.range ? `${s.target} = nondet() in [${s.range.lo}, ${s.range.hi}]` : `${s.target} = nondet()`;
    case 'assume': return s.premise ? `no_overflow(${F.toC(s.cond)})` : `assume(${F.toC(s.cond)})`;
    case 'assert': return s.overflow ? `assert_no_overflow(${F.toC(s.cond)})` : `assert(${F.toC(s.cond)})`;
    case 'call': {
      const call = `${s.callee}(${s.args.map((a) => L.toC(a)).join(', ')})`;
      return s.target === null ? call : `${s.target} = ${call}`;
    }
    case 'skip': return 'skip';
  }
}
