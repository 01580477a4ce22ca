// One phrase shared by every report of a SAT step: the text report, the progress lines and the UI.

/** Which solver answered a step, when it was not the embedded MiniSat (another --backend, or an
 * external solver that won the default back end's race): " by NAME", else nothing. */
export function answeredBy(backend: string | undefined): string {
  return backend === undefined || backend === 'minisat' ? '' : ` by ${backend}`;
}
