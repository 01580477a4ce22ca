// A recursive procedure that reads a global: the global is an input of its summary
// (e.g. true => \result >= limit), and the caller instantiates it with the global's current value.
int limit = 10;

int climb(int n) {
  if (n >= limit) return n;
  return climb(n + 1);
}

int main() {
  int r = climb(0);
  assert(r >= 10);
  return 0;
}
