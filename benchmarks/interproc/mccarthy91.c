// Paper 004, Fig. 3(b): McCarthy's 91 function. Needs two summary pairs, e.g.
// 101 <= n <= 119 => \result == n - 10 and n <= 100 => \result == 91.
int M(int n) {
  if (n > 100) return n - 10;
  return M(M(n + 11));
}

void IP2() {
  int result = M(19) + M(119);
  assert(result == 200);
}
