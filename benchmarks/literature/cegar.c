// Two loops: the first moves x and y up together an unknown number of times, the second brings x
// back to zero and y with it. Proving y == 0 needs x == y carried across both loops plus x >= 0.
int main() {
  int x = 0;
  int y = 0;
  while (*) {
    x++;
    y++;
  }
  while (x > 0) {
    x--;
    y--;
  }
  assert(y == 0);
}
