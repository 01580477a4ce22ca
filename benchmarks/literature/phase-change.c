// x grows for the first n iterations and shrinks for the next n, so it ends where it started.
int main() {
  int n = __VERIFIER_nondet_int();
  assume(n >= 0);
  int i = 0;
  int x = 0;
  while (i < 2 * n) {
    if (i < n)
      x++;
    else
      x--;
    i++;
  }
  assert(x == 0);
}
