// `farkas verify FILE --cross-check`: the constraint engine beside every interpolation engine
// (logic in lib/crosscheck). Exit code: the agreed verdict's, or DISAGREEMENT.
import { type Program, type VerifyOptions, type EngineResult, crossCheck, crossCheckJson, formatCrossCheck, CONSTRAINT_ENGINE, shutdownZ3 } from '../../lib/index.js';
import { EXIT } from '../exit-codes.js';
import { checkJson } from '../report/check.js';
import { verifyJson } from '../report/verify.js';

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
