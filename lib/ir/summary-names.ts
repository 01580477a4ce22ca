// Names shared by the summary engine and the certificate checker (the contract between them, no logic):
// a procedure summary's post-condition speaks of the return value as `P!ret`, and a procedure body
// checked against a summary first copies each input x into `x!in`, so that the post-condition (and loop
// invariants) can speak of input values after the body has overwritten the parameters.

/** The return value of procedure `proc` in its summaries (printed as `\result`). */
export function returnName(proc: string): string {
  return `${proc}!ret`;
}

/** The copy of input `x` taken at the entry of a body checked against a summary (printed as `\old(x)`). */
export function inputCopyName(x: string): string {
  return `${x}!in`;
}

/** C spelling of a summary or body variable: ACSL's `\result` and `\old(x)`. */
export function summaryVariableToC(proc: string): (v: string) => string {
  return (v) => (v === returnName(proc) ? '\\result' : v.endsWith('!in') ? `\\old(${v.slice(0, -3)})` : v);
}
