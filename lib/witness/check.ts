// Reading a correctness witness back and checking it: every loop_invariant is matched to the loop
// header at its line and column, its C expression parsed by the front end, and the invariants alone
// (as the only cut-points besides the entry) handed to the independent certificate checker. A witness
// that passes proves the program; farkas writes no correctness witness that does not.
import { parse as parseYaml } from 'yaml';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Program } from '../ir/cfg.js';
import { Problem } from '../problem/prepare.js';
import { checkInvariants } from '../certify/certificate.js';
import { InputError } from '../diagnostics.js';
import { parseCExpression, typingOf } from './c-expression.js';
import { withRemainderGhosts } from '../ir/remainder-ghosts.js';
import { Deadline } from '../limits.js';

export interface WitnessCheck {
  readonly valid: boolean;
  readonly reason?: string;
  /** Loop invariants read from the witness. */
  readonly invariants: number;
}

interface RawLocation { file_name?: unknown; line?: unknown; column?: unknown; function?: unknown }

/** Loop invariants of a witness text, by (function, line, column): the values of one loop conjoined. */
export function readLoopInvariants(text: string): Array<{ function: string; line: number; column: number; values: string[] }> {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new InputError('error', `witness is not YAML: ${(e as Error).message}`, null);
  }
  if (!Array.isArray(doc)) throw new InputError('error', 'a witness must be a YAML sequence of entries', null);
  const byLoop = new Map<string, { function: string; line: number; column: number; values: string[] }>();
  for (const entry of doc as Array<Record<string, unknown>>) {
    if (entry?.entry_type !== 'invariant_set') continue;
    for (const item of (entry.content ?? []) as Array<{ invariant?: Record<string, unknown> }>) {
      const inv = item?.invariant;
      if (!inv || inv.type !== 'loop_invariant') continue;
      const loc = (inv.location ?? {}) as RawLocation;
      if (typeof loc.line !== 'number' || typeof loc.column !== 'number' || typeof loc.function !== 'string' || typeof inv.value !== 'string') {
        throw new InputError('error', 'loop_invariant without line, column, function and value', null);
      }
      if (inv.format !== 'c_expression') throw new InputError('unsupported', `invariant format '${String(inv.format)}'`, null);
      const key = `${loc.function}:${loc.line}:${loc.column}`;
      const slot = byLoop.get(key) ?? { function: loc.function, line: loc.line, column: loc.column, values: [] };
      slot.values.push(inv.value);
      byLoop.set(key, slot);
    }
  }
  return [...byLoop.values()];
}

/** Checks that the witness's loop invariants prove every assertion of `fn` (calls inlined). */
export async function checkCorrectnessWitness(program: Program, fn: string, text: string, deadline = new Deadline()): Promise<WitnessCheck> {
  const loops = readLoopInvariants(text);
  const source = program.procedures.get(fn);
  if (!source) return { valid: false, reason: `no function '${fn}'`, invariants: 0 };
  // A division in an invariant (`i == 3 * (i / 3)`) is read as a ghost quotient of the program with
  // ghosts (remainder-ghosts.ts), and the witness is checked on that program: its ghosts never change
  // the original variables, so what proves it safe proves the original safe.
  const ghosted = withRemainderGhosts(program, fn);
  const ghosts = ghosted?.ghosts ?? [];
  const invariants = new Map<number, Formula>();
  for (const loop of loops) {
    if (loop.function !== fn) return { valid: false, reason: `invariant for function '${loop.function}': only loops of '${fn}' are checked`, invariants: loops.length };
    const header = source.locations.find((l) => l.loopHeader && l.pos?.line === loop.line && l.pos.col === loop.column);
    if (!header?.scope) return { valid: false, reason: `no loop of '${fn}' starts at line ${loop.line}, column ${loop.column}`, invariants: loops.length };
    const pos = { file: program.file, line: loop.line, col: loop.column };
    const typing = typingOf(program, fn);
    invariants.set(header.id, F.and(...loop.values.map((v) => parseCExpression(v, header.scope!, program.file, pos, ghosts, typing))));
  }
  const usesGhosts = [...invariants.values()].some((f) => ghosts.some((g) => F.variablesOf(f).has(g.ghost)));
  const inlined = Problem.of(usesGhosts ? ghosted!.program : program, fn).inlined.program;
  // As in the engine: globals start at their initial values when fn is the program's entry.
  const precondition = fn === program.entry
    ? F.and(...program.globals.map((g) => F.eqZero(L.sub(L.variable(g.name), L.constant(g.init)))))
    : F.TRUE;
  const result = await checkInvariants(inlined, fn, invariants, { precondition, deadline });
  return result.valid ? { valid: true, invariants: loops.length } : { valid: false, reason: result.reason ?? 'not proved', invariants: loops.length };
}
