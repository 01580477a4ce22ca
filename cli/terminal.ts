// Whether farkas talks to a person: `farkas FILE` opens the UI then, and prints verify's report otherwise.
export function isInteractive(): boolean {
  return process.stdout.isTTY === true && process.stdin.isTTY === true;
}
