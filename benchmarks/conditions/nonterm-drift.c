// A loop that runs forever exactly when x starts non-negative and y is non-negative: the weakest
// non-termination precondition is x >= 0 && y >= 0.
void drift(int x, int y) {
  while (x >= 0) {
    x = x + y;
  }
}
