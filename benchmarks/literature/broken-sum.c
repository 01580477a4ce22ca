// Unsafe: one branch moves a token from x to y, the other creates a token in y, so x + y grows.
int main() {
  int n = __VERIFIER_nondet_int();
  int x = n;
  int y = 0;
  while (*) {
    if (*) {
      x--;
      y++;
    } else {
      y++;
    }
  }
  assert(x + y == n);
}
