// An assertion inside a recursive procedure that fails: down(2) steps by 3 and calls down(-1).
int down(int n) {
  assert(n >= 0);
  if (n <= 0) return 0;
  return down(n - 3);
}

int main() {
  int r = down(2);
  return 0;
}
