// The kernels bench_cpu_compute_kernels runs on zeal's CPU driver (as SPIR-V) and on PoCL (as source).
#include "tree_reduce.h"

// STREAM triad.
kernel void triad(global float *a, global const float *b, global const float *c, float scalar) {
  size_t i = get_global_id(0);
  a[i] = b[i] + scalar * c[i];
}

// Tree reduction in local memory: one partial sum per work-group.
kernel void reduce(global const int *in, global int *out, local int *scratch) { tree_reduce(in, out, scratch); }

// `count` barriers per work-item with a little local traffic between them.
kernel void barriers(global int *out, int count) {
  local int slot[1024];
  size_t l = get_local_id(0), n = get_local_size(0);
  int v = (int)l;
  for (int i = 0; i < count; ++i) {
    slot[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v += slot[(l + 1) % n] & 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}

// Does nothing: what a launch costs on its own.
kernel void empty(void) {}

// Math throughput: the functions a vectorised loop calls in their vector forms.
kernel void math(global const float *in, global float *out) {
  size_t i = get_global_id(0);
  float x = in[i];
  out[i] = sin(x) + cos(x) + exp(x * 0.01f) + log(x + 2.0f);
}
