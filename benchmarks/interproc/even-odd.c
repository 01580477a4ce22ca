// Mutual recursion over a counter: even(n) counts n down through odd(n - 1) and returns 1 exactly
// when n is even; with n = 2m it returns 1. Summaries: n >= 0 => 0 <= \result <= 1 is not enough,
// the count matters: even(c) == 1 - odd(c) for c >= 0 would need parity, so the program tracks the
// parity in a second argument p (p == n mod 2 by construction) and returns it.
int odd(int n, int p);

int even(int n, int p) {
  if (n == 0) return p;
  return odd(n - 1, 1 - p);
}

int odd(int n, int p) {
  if (n == 0) return p;
  return even(n - 1, 1 - p);
}

int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0) return 0;
  int r = even(n, 0);
  assert(r >= 0 && r <= 1);
  return 0;
}
