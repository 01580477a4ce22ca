// Why B2 matters (paper 004, Claim 2): for y <= 0 the function never returns, so with the error
// variable alone (B1) y <= 4 is a "precondition" of the instrumented program although no input
// y <= 0 fails the assertion. The loop bound (B2) excludes the spinning inputs: 1 <= y <= 4.
void spinOrFail(int y) {
  int x = 0;
  if (y <= 0) {
    while (x >= 0) {
      x = x + 1;
    }
  }
  assert(y >= 5);
}
