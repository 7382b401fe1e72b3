// A library (built with -library-compilation) whose export warm_up reaches a built-in this driver lacks
// (prefetch) through a helper; relay reaches it through warm_up; add_two reaches nothing of the kind.
__attribute__((noinline)) void prefetch_next(global const float4 *p) { prefetch(p + 1, 1); }
float warm_up(global const float4 *p) {
  prefetch_next(p);
  return p[0].x;
}
float relay(global const float4 *p) { return warm_up(p) * 2.0f; }
int add_two(int x) { return x + 2; }
