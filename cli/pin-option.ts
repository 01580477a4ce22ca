// `--pin LINE:EXPR` (farkas verify): a C expression over the variables in scope at the cut-point(s)
// the engine reports on LINE, read with the witness reader (lib/witness/c-expression.ts) into an IR
// formula for VerifyOptions.knownInvariants. Bad input is a positioned InputError (exit 3).
import { type Formula, type Program, InputError, AnalysisUnsupported, prepareAnalysis, cutpointPosition, cutpointsByLine, scopeAtLine, PathExplosionError, type CutsetStrategy, parseCExpression, typingOf, formula as F } from '../lib/index.js';

/** Commander accumulator for a repeatable option. */
export function collectPins(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function parsePins(program: Program, specs: readonly string[], functionName: string | undefined, cutset: CutsetStrategy): Map<number, Formula> {
  const pins = new Map<number, Formula>();
  if (specs.length === 0) return pins;
  let prepared;
  try {
    prepared = prepareAnalysis(program, functionName, cutset);
  } catch (e) {
    if (e instanceof AnalysisUnsupported || e instanceof PathExplosionError) throw new InputError('error', `--pin cannot be placed: ${e.message}`, null);
    throw e;
  }
  const byLine = cutpointsByLine(prepared);
  for (const spec of specs) {
    const m = /^\s*(\d+)\s*:(.*)$/s.exec(spec);
    if (!m || m[2]!.trim() === '') throw new InputError('error', `--pin expects LINE:EXPR (a C expression at a cut-point's line), got '${spec}'`, null);
    const line = Number(m[1]);
    const cutpoints = byLine.get(line);
    if (!cutpoints) {
      const lines = [...byLine.keys()].sort((a, b) => a - b);
      throw new InputError('error', `--pin: no cut-point at line ${line} (cut-set ${cutset}; cut-points at ${lines.length > 0 ? `line ${lines.join(', ')}` : 'no line: the function has no loop'})`, { file: program.file, line, col: 1 });
    }
    const pos = cutpointPosition(prepared, cutpoints[0]!);
    const formula = parseCExpression(m[2]!.trim(), scopeAtLine(prepared, line) ?? {}, program.file, { file: program.file, line: pos.line, col: pos.col }, [], typingOf(program, prepared.function));
    pins.set(line, F.and(pins.get(line) ?? F.TRUE, formula));
  }
  return pins;
}
