// Each step adds (1, 2) or (2, 1) to (x, y), so neither coordinate ever exceeds twice the other.
int main() {
  int x = 0;
  int y = 0;
  while (*) {
    if (*) {
      x = x + 1;
      y = y + 2;
    } else {
      x = x + 2;
      y = y + 1;
    }
  }
  assert(x <= 2 * y);
  assert(y <= 2 * x);
}
