// `farkas verify FILE --cross-check`: every engine of the registry, the constraint engine with verify's
// options (logic in lib/portfolio/cross-check.ts). Exit code: the agreed verdict's, or DISAGREEMENT.
import { type Program, type VerifyOptions, crossCheck, crossCheckJson, formatCrossCheck, shutdownZ3 } from '../../lib/index.js';
import { EXIT } from '../exit-codes.js';
import { checkJson } from '../report/check.js';

export async function crossCheckCommand(file: string, program: Program, options: VerifyOptions, json: boolean): Promise<number> {
  let result;
  try {
    const { function: fn, timeoutMs, ...constraints } = options;
    result = await crossCheck(program, {
      engineOptions: { ...(fn !== undefined ? { function: fn } : {}), constraints },
      ...(timeoutMs !== undefined ? { engineTimeoutMs: timeoutMs } : {}),
    });
  } finally {
    await shutdownZ3();
  }
  const text = json
    ? JSON.stringify({ file, crossCheck: crossCheckJson(result, (row) => checkJson(file, row.result)) }, null, 2) + '\n'
    : formatCrossCheck(file, result);
  process.stdout.write(text);
  if (result.disagreements.length > 0) {
    process.stderr.write(`farkas: ENGINES DISAGREE on ${file}: ${result.disagreements.join('; ')}\n`);
    return EXIT.DISAGREEMENT;
  }
  return result.consensus === 'safe' ? EXIT.OK : result.consensus === 'unsafe' ? EXIT.UNSAFE : EXIT.UNKNOWN;
}
