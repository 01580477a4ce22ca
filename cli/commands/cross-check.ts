// `farkas verify FILE --cross-check`: every engine of the registry, the constraint engine with verify's
// options (logic in lib/portfolio/cross-check.ts). Exit code: the agreed verdict's, or DISAGREEMENT.
import { type Problem, type Settings, type VerifySearch, crossCheck, crossCheckJson, formatCrossCheck, shutdownZ3 } from '../../lib/index.js';
import { EXIT } from '../exit-codes.js';
import { checkJson } from '../report/check.js';

/** The engines share the command's --timeout; without one, each interpolation engine has its own
 * time limit (lib/portfolio/cross-check.ts). */
export async function crossCheckCommand(file: string, problem: Problem, settings: Settings, constraints: VerifySearch, json: boolean): Promise<number> {
  let result;
  try {
    result = await crossCheck(problem, settings, { engineOptions: { constraints } });
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
