// Why B1 matters (paper 004, Claim 2): the assertion is checked on every iteration and fails first at
// i = 5, so the failing inputs are n >= 6. Negating it in place instead of the error variable asks for
// inputs on which every check fails: only those that never check it, n <= 0 (the paper's "useless n <= 0").
void firstCheck(int n) {
  int i = 0;
  while (i < n) {
    assert(i < 5);
    i = i + 1;
  }
}
