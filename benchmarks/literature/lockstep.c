// Two counters in lock step: y advances by two whenever x advances by one.
int main() {
  int n = __VERIFIER_nondet_int();
  int x = 0;
  int y = 0;
  while (x < n) {
    x++;
    y = y + 2;
  }
  assert(y == 2 * x);
}
