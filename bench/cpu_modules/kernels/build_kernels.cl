// COUNT (1 or 50) small kernels for the module-build benchmark; PoCL builds this same source.
#define K(n)                                                                                  \
  kernel void k##n(global float *a, global const float *b, float s) {                         \
    size_t i = get_global_id(0);                                                              \
    float x = a[i] * s + b[i] * (float)(n);                                                   \
    a[i] = x > 0.0f ? sqrt(x) : x * x + (float)(n);                                           \
  }
#define K10(t) K(t##0) K(t##1) K(t##2) K(t##3) K(t##4) K(t##5) K(t##6) K(t##7) K(t##8) K(t##9)
K(0)
#if COUNT > 1
K(1) K(2) K(3) K(4) K(5) K(6) K(7) K(8) K(9)
K10(1) K10(2) K10(3) K10(4)
#endif
