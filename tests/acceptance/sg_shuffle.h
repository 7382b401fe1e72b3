// The kernels of the shuffle suites: the four SPV_INTEL_subgroups shuffles of one type at every
// sub-group size a zeal profile has (a profile lacking a size leaves those kernels out).
#ifndef ZEAL_SG_SHUFFLE_H
#define ZEAL_SG_SHUFFLE_H
// shuffle_<T>_<S>: x = in[i], y = in[n + i]; out[4i ... 4i + 3] = the four shuffles of x (and y).
#define SHUFFLES(T, S)                                                                                 \
  __attribute__((intel_reqd_sub_group_size(S))) kernel void shuffle_##T##_##S(global const T *in,      \
                                                                             global T *out) {         \
    uint i = get_global_id(0), n = get_global_size(0), lane = get_sub_group_local_id();                \
    uint s = get_sub_group_size();                                                                     \
    T x = in[i], y = in[n + i];                                                                        \
    out[4 * i + 0] = intel_sub_group_shuffle(x, (lane * 5 + 3) % s);                                   \
    out[4 * i + 1] = intel_sub_group_shuffle_down(x, y, 3u);                                           \
    out[4 * i + 2] = intel_sub_group_shuffle_up(x, y, 3u);                                             \
    out[4 * i + 3] = intel_sub_group_shuffle_xor(x, s - 1);                                            \
  }
#define AT_EVERY_SIZE(T) SHUFFLES(T, 4) SHUFFLES(T, 8) SHUFFLES(T, 16) SHUFFLES(T, 32) SHUFFLES(T, 64)
#endif
