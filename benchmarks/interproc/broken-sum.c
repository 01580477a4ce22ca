// A recursive sum with a false claim: sum(3) is 6, and the assertion says it is not.
int sum(int n) {
  if (n <= 0) return 0;
  return n + sum(n - 1);
}

int main() {
  int r = sum(3);
  assert(r != 6);
  return 0;
}
