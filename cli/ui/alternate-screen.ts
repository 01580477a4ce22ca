// The terminal's alternate screen: the UI draws there, and quitting brings back the screen (and the
// scrollback) as it was before, so that the last frame does not stay behind and the shell's prompt
// starts on a line of its own.

/** Switch to the alternate screen (xterm's 1049: the cursor is saved, the screen cleared) and put the
 * cursor at the top left: it keeps its row otherwise, and the first frame would start there. */
export const ENTER_ALTERNATE_SCREEN = '\x1b[?1049h\x1b[H';
/** Back to the normal screen, the cursor where it was. */
export const LEAVE_ALTERNATE_SCREEN = '\x1b[?1049l';

export interface ScreenStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** Enters the alternate screen when `out` is a terminal; returns how to leave it (once, whoever calls
 * first: the UI when it unmounts, else the process's exit, so that a crash does not leave the
 * terminal on the alternate screen). Null when `out` is no terminal (pipes, tests). */
export function enterAlternateScreen(out: ScreenStream): (() => void) | null {
  if (!out.isTTY) return null;
  out.write(ENTER_ALTERNATE_SCREEN);
  let left = false;
  const leave = () => {
    if (left) return;
    left = true;
    process.off('exit', leave);
    out.write(LEAVE_ALTERNATE_SCREEN);
  };
  process.on('exit', leave);
  return leave;
}
