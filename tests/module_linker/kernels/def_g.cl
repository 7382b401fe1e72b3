// Defines g: 2 * x.
int g(int x) { return 2 * x; }
