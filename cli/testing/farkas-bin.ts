// The program users run as `farkas`: package.json's bin (the bundle scripts/bundle-cli.ts builds),
// so that the command-line tests exercise it rather than tsc's unbundled output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };

export const FARKAS_BIN = join(ROOT, manifest.bin['farkas']!);
