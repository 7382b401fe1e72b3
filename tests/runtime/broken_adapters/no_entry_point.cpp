// A shared library named like an adapter that lacks zealGetAdapterDispatch.
extern "C" __attribute__((visibility("default"))) int zealSomethingElse() { return 42; }
