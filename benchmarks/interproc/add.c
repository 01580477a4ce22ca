// Paper 004, Fig. 3(a): Add(i, j) returns i + j for i >= 0 by recursion on i.
int Add(int i, int j) {
  int ret;
  if (i <= 0) {
    ret = j;
  } else {
    int b = i - 1;
    int c = j + 1;
    ret = Add(b, c);
  }
  return ret;
}

void IP1() {
  int x = 5;
  int y = 3;
  int result = Add(x, y);
  assert(result == 8);
}
