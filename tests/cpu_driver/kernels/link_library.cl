// A library module (built with -library-compilation): exports functions and a variable.
global int link_offset = 1000;
int link_helper(int x) { return 3 * x + 1; }
int link_twice(int x) { return 2 * x; }
