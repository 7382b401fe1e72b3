// Defines f by calling g, which another module defines.
int g(int x);
int f(int x) { return g(x) + 1; }
