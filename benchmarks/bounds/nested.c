// Nested loops: the outer loop runs n times, the inner one m times per entry (n, m >= 0).
void nested(int n, int m) {
  assume(n >= 0 && m >= 0);
  int i = 0;
  while (i < n) {
    int j = 0;
    while (j < m) {
      j = j + 1;
    }
    i = i + 1;
  }
}
