import test from 'ava';
import { cond, program, stmt, type ProcedureBuilder } from '../ir/testing/builder.js';
import type { Procedure, Program } from '../ir/cfg.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { checkInvariants, type CertificateResult, type Obligation } from './certificate.js';
import { Deadline } from '../limits.js';

test.after.always(async () => {
  await shutdownZ3();
});

// ---------------------------------------------------------------------------------------------
// Programs

/** Fig. 1 (PV1): x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); */
const pv1: Program = program((p) =>
  p.procedure('PV1', { params: ['y'] }, (b) => {
    b.assign('x', -50).while('x < 0', (w) => w.assign('x', 'x + y').assign('y', 'y + 1')).assert('y > 0');
  }),
);

/** Fig. 2 (PV2): x = y = 0; while (true) { if (x <= 50) y++; else y--; if (y < 0) break; x++; } assert(x == 102); */
function pv2(withAssert: boolean): Program {
  return program((p) =>
    p.procedure('PV2', {}, (b) => {
      b.assign('x', 0).assign('y', 0);
      b.while('true', (body) => {
        // The loop lays out head, body start, after-loop in that order (see ProcedureBuilder.loop).
        const afterLoop = body.current + 1;
        body.if('x <= 50', (t) => t.assign('y', 'y + 1'), (e) => e.assign('y', 'y - 1'));
        const test = body.current;
        body.edge(test, afterLoop, stmt.assume('y < 0')); // break
        const next = body.newLocation();
        body.edge(test, next, stmt.assume('y >= 0'));
        body.current = next;
        body.assign('x', 'x + 1');
      });
      if (withAssert) b.assert('x == 102');
    }),
  );
}

function procOf(prog: Program): Procedure {
  return prog.procedures.get(prog.entry)!;
}

function loopHeader(proc: Procedure): number {
  return proc.locations.find((l) => l.loopHeader)!.id;
}

/** The location before the edge assigning `target := text`. */
function beforeAssignment(proc: Procedure, target: string, text: string): number {
  const edge = proc.edges.find((e) => e.stmt.kind === 'assign' && e.stmt.target === target && L.toC(e.stmt.expr) === text);
  if (!edge) throw new Error(`no edge ${target} := ${text}`);
  return edge.from;
}

// ---------------------------------------------------------------------------------------------
// Checking counterexamples against the IR semantics

const envOf = (values: ReadonlyMap<string, bigint>) => (v: string): bigint => {
  const value = values.get(v);
  if (value === undefined) throw new Error(`no value for ${v}`);
  return value;
};

/** Execute the path from the counterexample (no havocs on it) and return the final state. */
function replay(proc: Procedure, obligation: Obligation): { state: Map<string, bigint>; lastAssertHolds: boolean | null } {
  const state = new Map(obligation.counterexample!);
  let lastAssertHolds: boolean | null = null;
  for (const id of obligation.path!) {
    const s = proc.edges[id]!.stmt;
    switch (s.kind) {
      case 'assign':
        state.set(s.target, L.evaluate(s.expr, envOf(state)));
        break;
      case 'assume':
        if (!F.evaluate(s.cond, envOf(state))) throw new Error(`assume on edge ${id} fails on the replayed path`);
        break;
      case 'assert':
        lastAssertHolds = F.evaluate(s.cond, envOf(state));
        break;
      case 'skip':
        break;
      default:
        throw new Error(`replay does not handle ${s.kind}`);
    }
  }
  return { state, lastAssertHolds };
}

function failed(result: CertificateResult): Obligation[] {
  return result.obligations.filter((o) => o.status !== 'proved');
}

// ---------------------------------------------------------------------------------------------
// Fig. 1

test('PV1: the disjunctive header invariant x < 0 || y > 0 is certified', async (t) => {
  const proc = procOf(pv1);
  const result = await checkInvariants(pv1, 'PV1', new Map([[loopHeader(proc), cond('x < 0 || y > 0')]]));
  t.true(result.valid, result.reason);
  t.is(result.reason, undefined);
  const kinds = result.obligations.map((o) => o.kind).sort();
  // The exit obligation (postcondition true) is listed too, proved without asking z3.
  t.deepEqual(kinds, ['consecution', 'exit', 'initiation', 'safety']);
  t.true(result.obligations.every((o) => o.status === 'proved'));
});

test('PV1: past its deadline the checker starts no check: the obligations are unknown, not proved', async (t) => {
  const proc = pv1.procedures.get('PV1')!;
  const invariants = new Map([[loopHeader(proc), cond('x < 0 || y > 0')]]);
  const late = await checkInvariants(pv1, 'PV1', invariants, { deadline: new Deadline(-1) });
  t.false(late.valid);
  t.true(late.obligations.length > 0);
  // Only the exit's postcondition `true` holds without a check.
  t.deepEqual(late.obligations.filter((o) => o.status !== 'unknown').map((o) => o.kind), ['exit'], late.reason);
  // The same certificate with time left is valid.
  t.true((await checkInvariants(pv1, 'PV1', invariants, { deadline: new Deadline(60_000) })).valid);
});

test('PV1: y > 0 alone fails initiation, with a real counterexample path', async (t) => {
  const proc = procOf(pv1);
  const header = loopHeader(proc);
  const invariant = cond('y > 0');
  const result = await checkInvariants(pv1, 'PV1', new Map([[header, invariant]]));
  t.false(result.valid);
  t.regex(result.reason!, /initiation/);
  const initiation = result.obligations.find((o) => o.kind === 'initiation')!;
  t.is(initiation.status, 'refuted');
  t.is(initiation.from, proc.entry);
  t.is(initiation.to, header);
  // Entering the loop with y <= 0 violates the invariant; replaying the path reproduces the state.
  const { state } = replay(proc, initiation);
  t.deepEqual(state, initiation.failingState);
  t.false(F.evaluate(invariant, envOf(initiation.failingState!)));
  t.is(initiation.failingState!.get('x'), -50n);
});

test('PV1: x < 0 alone is refuted (not inductive); the exit assertion is vacuous under it', async (t) => {
  const proc = procOf(pv1);
  const invariant = cond('x < 0');
  const result = await checkInvariants(pv1, 'PV1', new Map([[loopHeader(proc), invariant]]));
  t.false(result.valid);
  const consecution = result.obligations.find((o) => o.kind === 'consecution')!;
  t.is(consecution.status, 'refuted');
  t.true(F.evaluate(invariant, envOf(consecution.counterexample!)));
  t.false(F.evaluate(invariant, envOf(consecution.failingState!)));
  t.deepEqual(replay(proc, consecution).state, consecution.failingState);
  // x < 0 at the header contradicts the loop exit x >= 0, so the assertion itself is proved.
  t.is(result.obligations.find((o) => o.kind === 'safety')!.status, 'proved');
});

test('PV1: regions the caller skips are neither checked nor reported (Houdini\'s rounds skip regions already proved)', async (t) => {
  const proc = procOf(pv1);
  const header = loopHeader(proc);
  const invariants = new Map([[header, cond('x < 0')]]);
  // x < 0 is refuted in the header's own region (consecution); skipping that region leaves the
  // entry's, which holds: the caller vouches for what it skipped.
  const skipped = await checkInvariants(pv1, 'PV1', invariants, { skipRegionsFrom: new Set([header]) });
  t.true(skipped.valid, skipped.reason);
  t.true(skipped.obligations.every((o) => o.from === proc.entry));
  t.true(skipped.obligations.some((o) => o.kind === 'initiation'));
  // Skipping the entry's region instead leaves the refuted consecution.
  const other = await checkInvariants(pv1, 'PV1', invariants, { skipRegionsFrom: new Set([proc.entry]) });
  t.false(other.valid);
  t.true(other.obligations.every((o) => o.from === header));
  t.is(other.obligations.find((o) => o.kind === 'consecution')?.status, 'refuted');
});

test('two loops in sequence: a check of the regions touching one cut-point leaves out the others\' regions and obligations', async (t) => {
  // x = 0; while (x < 10) x++; y = x; while (y > 0) y--; assert(y == 0);
  const prog = program((p) =>
    p.procedure('Two', {}, (b) => {
      b.assign('x', 0).while('x < 10', (w) => w.assign('x', 'x + 1')).assign('y', 'x').while('y > 0', (w) => w.assign('y', 'y - 1')).assert('y == 0');
    }),
  );
  const proc = procOf(prog);
  const [first, second] = proc.locations.filter((l) => l.loopHeader).map((l) => l.id) as [number, number];
  const good = new Map([[first, cond('x >= 0 && x <= 10')], [second, cond('y >= 0')]]);
  t.true((await checkInvariants(prog, 'Two', good)).valid);
  // x >= 1 at the first header fails initiation, in the entry's region, which leads to the first
  // header only: a check of what touches the second one leaves it out, and says so by its obligations.
  const wrongFirst = new Map([[first, cond('x >= 1 && x <= 10')], [second, cond('y >= 0')]]);
  const touching = await checkInvariants(prog, 'Two', wrongFirst, { onlyRegionsTouching: new Set([second]) });
  t.true(touching.valid);
  t.false(touching.obligations.some((o) => o.from === proc.entry));
  t.true(touching.obligations.some((o) => o.from === first && o.to === second));
  t.false((await checkInvariants(prog, 'Two', wrongFirst, { onlyRegionsTouching: new Set([first]) })).valid);
  t.false((await checkInvariants(prog, 'Two', wrongFirst)).valid);
  // A wrong invariant at the second header is found by a check touching it: y >= 1 fails consecution.
  const wrongSecond = new Map([[first, cond('x >= 0 && x <= 10')], [second, cond('y >= 1')]]);
  t.false((await checkInvariants(prog, 'Two', wrongSecond, { onlyRegionsTouching: new Set([second]) })).valid);
});

test('PV1: a too weak invariant fails the assertion, and the counterexample reaches a failing assert', async (t) => {
  const proc = procOf(pv1);
  const result = await checkInvariants(pv1, 'PV1', new Map([[loopHeader(proc), cond('x <= 0')]]));
  t.false(result.valid);
  const safety = result.obligations.find((o) => o.kind === 'safety')!;
  t.is(safety.status, 'refuted');
  t.regex(result.reason!, /safety \(assert at test\.c:\d+:\d+, location \d+\) refuted/);
  t.true(F.evaluate(cond('x <= 0'), envOf(safety.counterexample!)));
  const { state, lastAssertHolds } = replay(proc, safety);
  t.false(lastAssertHolds);
  t.deepEqual(state, safety.failingState);
});

// ---------------------------------------------------------------------------------------------
// Fig. 2

const pv2Disjunctive = '(0 <= x && x <= 51 && x == y) || (x >= 51 && y >= 0 && x + y == 102)';

test('PV2: the disjunctive header invariant proves x == 102 after the loop', async (t) => {
  const prog = pv2(true);
  const proc = procOf(prog);
  const result = await checkInvariants(prog, 'PV2', new Map([[loopHeader(proc), cond(pv2Disjunctive)]]));
  t.true(result.valid, result.reason);
});

test('PV2: the same invariant proves the postcondition x == 102 at the exit', async (t) => {
  const prog = pv2(false);
  const proc = procOf(prog);
  const result = await checkInvariants(prog, 'PV2', new Map([[loopHeader(proc), cond(pv2Disjunctive)]]), {
    postcondition: cond('x == 102'),
  });
  t.true(result.valid, result.reason);
  t.true(result.obligations.some((o) => o.kind === 'exit' && o.status === 'proved'));
  // A wrong postcondition is refuted with the exit state as witness.
  const wrong = await checkInvariants(prog, 'PV2', new Map([[loopHeader(proc), cond(pv2Disjunctive)]]), {
    postcondition: cond('x == 101'),
  });
  t.false(wrong.valid);
  const exit = wrong.obligations.find((o) => o.kind === 'exit')!;
  t.is(exit.status, 'refuted');
  t.is(exit.failingState!.get('x'), 102n);
});

test('PV2: wrong invariants are refused', async (t) => {
  const prog = pv2(true);
  const proc = procOf(prog);
  const header = loopHeader(proc);
  // Off by one in the second disjunct: not inductive.
  const offByOne = await checkInvariants(prog, 'PV2', new Map([[header, cond('(0 <= x && x <= 51 && x == y) || (x >= 51 && y >= 0 && x + y == 103)')]]));
  t.false(offByOne.valid);
  // The first disjunct alone is not inductive (x passes 51).
  const conjunctive = await checkInvariants(prog, 'PV2', new Map([[header, cond('0 <= x && x <= 51 && x == y')]]));
  t.false(conjunctive.valid);
  for (const o of failed(conjunctive)) {
    t.is(o.status, 'refuted');
    if (o.kind === 'consecution') t.deepEqual(replay(proc, o).state, o.failingState);
  }
});

test('PV2: with the Theorem-1 cut-set {pi4, pi6} conjunctive invariants suffice', async (t) => {
  const prog = pv2(true);
  const proc = procOf(prog);
  const pi4 = beforeAssignment(proc, 'y', 'y + 1');
  const pi6 = beforeAssignment(proc, 'y', 'y - 1');
  const invariants = new Map<number, Formula>([
    [pi4, cond('y >= 0 && x <= 50 && x == y')],
    [pi6, cond('y >= 0 && x >= 50 && x + y == 102')],
  ]);
  const result = await checkInvariants(prog, 'PV2', invariants);
  t.true(result.valid, result.reason);
  // Obligations go between the two cut-points in every direction the loop allows.
  const edges = new Set(result.obligations.filter((o) => o.kind !== 'safety').map((o) => `${o.kind}:${o.from}->${o.to}`));
  t.true(edges.has(`initiation:${proc.entry}->${pi4}`));
  t.true(edges.has(`consecution:${pi4}->${pi4}`));
  t.true(edges.has(`consecution:${pi4}->${pi6}`));
  t.true(edges.has(`consecution:${pi6}->${pi6}`));
  // Swapping the two invariants is refuted.
  const swapped = await checkInvariants(prog, 'PV2', new Map([[pi4, invariants.get(pi6)!], [pi6, invariants.get(pi4)!]]));
  t.false(swapped.valid);
});

// ---------------------------------------------------------------------------------------------
// Rejections before proving

test('a cut-set that misses a loop is rejected and the reason names the cycle', async (t) => {
  const proc = procOf(pv1);
  const header = loopHeader(proc);
  const result = await checkInvariants(pv1, 'PV1', new Map());
  t.false(result.valid);
  t.regex(result.reason!, /do not cut the cycle/);
  t.regex(result.reason!, new RegExp(`location ${header} \\(loop at test\\.c:\\d+:1\\)`));
  t.deepEqual(result.obligations, []);
  // An invariant somewhere else (the entry's successor) does not help.
  const elsewhere = await checkInvariants(pv1, 'PV1', new Map([[proc.edges.find((e) => e.from === proc.entry)!.to, F.TRUE]]));
  t.false(elsewhere.valid);
  t.regex(elsewhere.reason!, /do not cut the cycle/);
});

test('invariants over variables outside the procedure are rejected', async (t) => {
  const proc = procOf(pv1);
  const result = await checkInvariants(pv1, 'PV1', new Map([[loopHeader(proc), cond('x < 0 || z > 0')]]));
  t.false(result.valid);
  t.regex(result.reason!, /not in procedure 'PV1': 'z'/);
  const pre = await checkInvariants(pv1, 'PV1', new Map([[loopHeader(proc), cond('x < 0 || y > 0')]]), { precondition: cond('w >= 0') });
  t.false(pre.valid);
  t.regex(pre.reason!, /precondition mentions a variable not in procedure 'PV1': 'w'/);
  const badLocation = await checkInvariants(pv1, 'PV1', new Map([[999, F.TRUE]]));
  t.regex(badLocation.reason!, /location 999/);
  const noProc = await checkInvariants(pv1, 'nope', new Map());
  t.regex(noProc.reason!, /no procedure named 'nope'/);
});

test('procedures with calls are rejected until calls are inlined or summarised', async (t) => {
  const prog = program((p) => {
    p.procedure('inc', { params: ['a'], returns: true }, (b) => b.return('a + 1'));
    p.procedure('main', {}, (b) => b.call('r', 'inc', [1]).assert('r == 2'));
  });
  const result = await checkInvariants(prog, 'main', new Map());
  t.false(result.valid);
  t.regex(result.reason!, /^calls must be inlined or summarised before certification/);
});

// ---------------------------------------------------------------------------------------------
// Exactness, encoding size, limits

test('coefficients of 2^80 are handled exactly', async (t) => {
  const big = 2n ** 80n;
  const prog = program((p) =>
    p.procedure('big', { params: ['n'] }, (b) => {
      b.assign('k', 0).assign('x', 0);
      b.while('k < n', (w) => w.assign('x', `x + ${big}`).assign('k', 'k + 1'));
      b.assert(`x == ${big} * n`);
    }),
  );
  const proc = procOf(prog);
  const header = loopHeader(proc);
  const good = await checkInvariants(prog, 'big', new Map([[header, cond(`x == ${big} * k && k <= n`)]]), {
    precondition: cond('n >= 0'),
  });
  t.true(good.valid, good.reason);
  // 2^80 + 1 instead of 2^80: equal as JS numbers, different as integers.
  const off = await checkInvariants(prog, 'big', new Map([[header, cond(`x == ${big + 1n} * k && k <= n`)]]), {
    precondition: cond('n >= 0'),
  });
  t.false(off.valid);
  const refuted = failed(off)[0]!;
  t.is(refuted.status, 'refuted');
  t.deepEqual(replay(proc, refuted).state, refuted.failingState);
});

test('a long if/else chain is checked without enumerating its 2^40 paths', async (t) => {
  const branches = 40;
  const prog = program((p) =>
    p.procedure('chain', {}, (b) => {
      b.assign('x', 0);
      for (let i = 0; i < branches; i++) b.ifChoice((th) => th.assign('x', 'x + 1'), (el) => el.assign('x', 'x + 2'));
      b.assert(`x >= ${branches} && x <= ${2 * branches}`);
    }),
  );
  const proc = procOf(prog);
  const ok = await checkInvariants(prog, 'chain', new Map());
  t.true(ok.valid, ok.reason);
  // Only the all-else path violates x <= 79; the counterexample must find exactly it.
  const tight = program((p) =>
    p.procedure('chain', {}, (b) => {
      b.assign('x', 0);
      for (let i = 0; i < branches; i++) b.ifChoice((th) => th.assign('x', 'x + 1'), (el) => el.assign('x', 'x + 2'));
      b.assert(`x <= ${2 * branches - 1}`);
    }),
  );
  const bad = await checkInvariants(tight, 'chain', new Map());
  t.false(bad.valid);
  const safety = failed(bad)[0]!;
  const tightProc = procOf(tight);
  const { state, lastAssertHolds } = replay(tightProc, safety);
  t.false(lastAssertHolds);
  t.is(state.get('x'), BigInt(2 * branches));
  t.is(proc.edges.length, tightProc.edges.length);
});

test('havoc ranges are assumed (the C semantics of __VERIFIER_nondet_*)', async (t) => {
  const prog = program((p) =>
    p.procedure('main', {}, (b) => {
      b.havoc('c', { lo: 0n, hi: 255n }).assert('c <= 255 && c >= 0');
    }),
  );
  const result = await checkInvariants(prog, 'main', new Map());
  t.true(result.valid, result.reason);
  const unbounded = program((p) => p.procedure('main', {}, (b) => b.havoc('c').assert('c <= 255')));
  const refuted = await checkInvariants(unbounded, 'main', new Map());
  t.false(refuted.valid);
  t.true(failed(refuted)[0]!.failingState!.get('c')! > 255n);
});

test('an invariant at the entry must follow from the precondition; an invariant at the exit must give the postcondition', async (t) => {
  const prog = program((p) => p.procedure('f', { params: ['a'], returns: true }, (b) => b.assign('retval', 'a + 1')));
  const proc = procOf(prog);
  const ok = await checkInvariants(prog, 'f', new Map([[proc.entry, cond('a >= 0')], [proc.exit, cond('retval >= 1')]]), {
    precondition: cond('a >= 5'),
    postcondition: cond('retval > 0'),
  });
  t.true(ok.valid, ok.reason);
  t.deepEqual(
    ok.obligations.map((o) => `${o.kind}:${o.from}->${o.to}`).sort(),
    [`exit:${proc.exit}->${proc.exit}`, `initiation:${proc.entry}->${proc.entry}`, `initiation:${proc.entry}->${proc.exit}`].sort(),
  );
  const bad = await checkInvariants(prog, 'f', new Map([[proc.entry, cond('a >= 0')]]), { precondition: cond('a >= -1') });
  t.false(bad.valid);
  const entry = bad.obligations.find((o) => o.from === proc.entry && o.to === proc.entry)!;
  t.is(entry.status, 'refuted');
  t.is(entry.counterexample!.get('a'), -1n);
});

/** A region whose safety needs z3 to decide a 40-item subset-sum: far beyond a few milliseconds. */
function subsetSumProgram(): Program {
  let seed = 12345n;
  const next = (): bigint => {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
    return (seed >> 24n) % (1n << 36n);
  };
  const weights = Array.from({ length: 40 }, () => next());
  const half = weights.reduce((a, b) => a + b, 0n) / 2n;
  return program((p) =>
    p.procedure('knapsack', {}, (b: ProcedureBuilder) => {
      weights.forEach((_, i) => b.havoc(`b${i}`, { lo: 0n, hi: 1n }));
      b.assume(F.eqZero(L.fromTerms(weights.map((w, i) => [`b${i}`, w] as [string, bigint]), -half)));
      b.assert('false');
    }),
  );
}

test('a work limit makes the obligation unknown and the certificate invalid, with the limit in the reason', async (t) => {
  const result = await checkInvariants(subsetSumProgram(), 'knapsack', new Map(), { workPerCheck: 1000 });
  t.false(result.valid);
  t.deepEqual(failed(result).map((o) => `${o.kind}:${o.status}`), ['safety:unknown']);
  t.regex(result.reason!, /safety .* unknown: work limit reached \(1000 of z3's resource units\)/);
});

test('a deadline makes the obligation unknown and the certificate invalid, with timeout in the reason', async (t) => {
  const result = await checkInvariants(subsetSumProgram(), 'knapsack', new Map(), { deadline: new Deadline(20) });
  t.false(result.valid);
  t.deepEqual(failed(result).map((o) => `${o.kind}:${o.status}`), ['safety:unknown']);
  t.regex(result.reason!, /safety .* unknown: (timeout after \d+ ms|the time or work for the check ran out)/);
});
