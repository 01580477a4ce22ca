// `farkas verify FILE --cross-check`: the constraint engine beside every interpolation engine
// (logic in lib/crosscheck). Exit code: the agreed verdict's, or DISAGREEMENT.
import type { Program } from '../../lib/ir/cfg.js';
import type { VerifyOptions } from '../../lib/engine/verify.js';
import type { EngineResult } from '../../lib/engines/index.js';
import { crossCheck, crossCheckJson, formatCrossCheck, CONSTRAINT_ENGINE } from '../../lib/crosscheck/index.js';
import { shutdownZ3 } from '../../lib/sat/z3-context.js';
import { EXIT } from '../exit-codes.js';
import { checkJson } from './check.js';
import { verifyJson } from './verify.js';

export async function crossCheckCommand(file: string, program: Program, options: VerifyOptions, json: boolean): Promise<number> {
  let result;
  try {
    result = await crossCheck(program, {
      verify: options,
      ...(options.timeoutMs !== undefined ? { engineTimeoutMs: options.timeoutMs } : {}),
    });
  } finally {
    await shutdownZ3();
  }
  const text = json
    ? JSON.stringify({ file, crossCheck: crossCheckJson(result, (row) => (row.engine === CONSTRAINT_ENGINE ? verifyJson(file, row.result) : checkJson(file, row.result as EngineResult))) }, null, 2) + '\n'
    : formatCrossCheck(file, result);
  process.stdout.write(text);
  if (result.disagreements.length > 0) {
    process.stderr.write(`farkas: ENGINES DISAGREE on ${file}: ${result.disagreements.join('; ')}\n`);
    return EXIT.DISAGREEMENT;
  }
  return result.consensus === 'safe' ? EXIT.OK : result.consensus === 'unsafe' ? EXIT.UNSAFE : EXIT.UNKNOWN;
}
