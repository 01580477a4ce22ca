// `S`: the program as edited in the UI (`a`/`e`), written next to the file it came from under a new
// name, never over an existing file.
import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** FILE.edited.c beside FILE.c, then FILE.edited.1.c, FILE.edited.2.c, …: the `n`th candidate. */
export function editedName(file: string, n: number): string {
  const base = basename(file);
  const ext = /\.[ci]$/.exec(base)?.[0] ?? '';
  const stem = ext ? base.slice(0, -ext.length) : base;
  return join(dirname(file), `${stem}.edited${n === 0 ? '' : `.${n}`}${ext || '.c'}`);
}

/** Most names tried before giving up (a directory full of edited copies). */
const MAX_CANDIDATES = 1000;

/** Writes `source` to the first free candidate name and returns it. The write itself fails on an
 * existing file ('wx'), so a file created meanwhile is not overwritten either. */
export function saveEdited(file: string, source: string): string {
  for (let n = 0; n < MAX_CANDIDATES; n++) {
    const path = editedName(file, n);
    try {
      writeFileSync(path, source, { flag: 'wx' });
      return path;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  throw Object.assign(new Error(`no free name for ${editedName(file, 0)}`), { code: 'EEXIST' });
}
