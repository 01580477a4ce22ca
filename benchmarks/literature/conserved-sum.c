// Tokens move between x and y in either direction, never below zero, so x + y stays n.
int main() {
  int n = __VERIFIER_nondet_int();
  assume(n >= 0);
  int x = n;
  int y = 0;
  while (*) {
    if (*) {
      if (x > 0) {
        x--;
        y++;
      }
    } else {
      if (y > 0) {
        y--;
        x++;
      }
    }
  }
  assert(x + y == n);
  assert(x >= 0);
}
