// Kernels requiring each sub-group size zeal's profiles list, plus one requiring none, in one program.
// Each writes its local size (the CPU driver has no sub-group built-ins yet, so the size itself is not read).
#define NEEDS(S)                                                                                            \
  __attribute__((intel_reqd_sub_group_size(S))) kernel void needs_##S(global uint *ls) {                    \
    ls[get_global_id(0)] = (uint)get_local_size(0);                                                         \
  }
NEEDS(8)
NEEDS(16)
NEEDS(32)
NEEDS(64)

kernel void plain(global uint *ls) { ls[get_global_id(0)] = (uint)get_local_size(0); }
