// Paper 004, Fig. 10 (Bug1): the assertion fails when 0 < y < 9 and the loop runs past x = 200, which
// needs n > 200 or so. Most-general failing condition: n >= 200 + y && 0 < y && y < 9.
void Bug1(int y, int n) {
  int x = 0;
  if (y < 9) {
    while (x < n) {
      assert(x < 200);
      x = x + y;
    }
  } else {
    while (x >= 0) {
      x++;
    }
  }
}
