// SV-COMP style: no parameters, a constant bound, the body entered exactly 100 times.
int main() {
  int i = 0;
  int s = 0;
  while (i < 100) {
    s = s + i;
    i = i + 1;
  }
  return s;
}
