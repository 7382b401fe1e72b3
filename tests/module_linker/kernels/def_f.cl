// Defines f: x + 1.
int f(int x) { return x + 1; }
