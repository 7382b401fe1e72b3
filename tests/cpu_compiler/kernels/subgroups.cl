// Sub-group ids, sizes and collectives, one kernel per required size plus one without (the primary size).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#include "subgroup_bodies.h"

SIZED(1) SIZED(2) SIZED(3) SIZED(4) SIZED(5) SIZED(7) SIZED(8) SIZED(16) SIZED(32) SIZED(64)

kernel void ids_default(global uint *out) { IDS_BODY }
kernel void ops_default(global const int *in, global int *out) { OPS_BODY }

// 3-D, no required size: ids of the SYCL sub-group test plan, per global linear id.
kernel void ids_3d(global uint *out) {
  size_t g = get_global_linear_id() * 6;
  out[g + 0] = get_sub_group_id();
  out[g + 1] = get_sub_group_local_id();
  out[g + 2] = get_sub_group_size();
  out[g + 3] = get_num_sub_groups();
  out[g + 4] = get_max_sub_group_size();
  out[g + 5] = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);
}

// Shuffles of every type cl_intel_spirv_subgroups lists, a rotation by one lane.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void typed_shuffles(global float4 *f4, global float3 *f3, global int16 *i16, global long *l, global half *h,
                           global double *d, global short8 *s8, global ushort *us, global uint2 *u2) {
  uint i = get_global_id(0), src = (get_sub_group_local_id() + 1) % get_sub_group_size();
  float4 a = f4[i]; float3 b = f3[i]; int16 c = i16[i]; long e = l[i]; half k = h[i]; double m = d[i];
  short8 n = s8[i]; ushort p = us[i]; uint2 q = u2[i];
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  f4[i] = intel_sub_group_shuffle(a, src); f3[i] = intel_sub_group_shuffle(b, src);
  i16[i] = intel_sub_group_shuffle(c, src); l[i] = intel_sub_group_shuffle(e, src);
  h[i] = intel_sub_group_shuffle(k, src); d[i] = intel_sub_group_shuffle(m, src);
  s8[i] = intel_sub_group_shuffle(n, src); us[i] = intel_sub_group_shuffle(p, src);
  u2[i] = intel_sub_group_shuffle_xor(q, 1u);
}

// Reductions and scans of the other types.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void typed_reductions(global const long *l, global const ulong *ul, global const float *f,
                             global const double *d, global const half *h, global const uint *u,
                             global long *ol, global ulong *oul, global float *of, global double *od,
                             global half *oh, global uint *ou) {
  uint i = get_global_id(0);
  ol[i] = sub_group_scan_inclusive_add(l[i]);
  oul[i] = sub_group_reduce_max(ul[i]);
  of[i] = sub_group_scan_exclusive_min(f[i]);
  od[i] = sub_group_reduce_add(d[i]);
  oh[i] = sub_group_reduce_add(h[i]);
  ou[i] = sub_group_scan_inclusive_max(u[i]);
}

// Block reads and writes: the sub-group reads S*N consecutive elements at a uniform address.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void block_io(global uint *src, global uint *dst, global ushort *src16, global ushort *dst16) {
  uint base = get_sub_group_id() * 8 * 4 + get_group_id(0) * get_local_size(0) * 4;
  uint4 v = intel_sub_group_block_read4(src + base);
  intel_sub_group_block_write4(dst + base, v + (uint4)(get_sub_group_local_id()));
  uint base16 = get_sub_group_id() * 8 * 2 + get_group_id(0) * get_local_size(0) * 2;
  ushort2 w = intel_sub_group_block_read_us2(src16 + base16);
  intel_sub_group_block_write_us2(dst16 + base16, w);
  uint s = intel_sub_group_block_read(src + base);
  dst[get_global_size(0) * 4 + get_global_id(0)] = s;
}

// Collectives in divergent control flow, four results per work-item: only odd
// sub-groups reach a reduction; the lanes of one sub-group split between two
// collectives in an if and its else; a reduction in a loop whose trip count
// depends on the sub-group (zero for every third); a broadcast in a loop whose
// trip count depends on the lane, so that lanes leave the loop one by one.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void divergent_collectives(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  int x = in[i];
  uint sg = get_sub_group_id(), lane = get_sub_group_local_id();
  global int *o = out + i * 4;
  o[0] = -1;
  if (sg % 2 == 1) o[0] = sub_group_reduce_add(x);
  if (lane < 3) {
    o[1] = sub_group_non_uniform_scan_inclusive_add(x);
  } else {
    o[1] = sub_group_non_uniform_reduce_max(x);
  }
  int acc = 0;
  for (uint k = 0; k < sg % 3; ++k) acc += sub_group_reduce_add(x * (int)(k + 1));
  o[2] = acc;
  int last = 0;
  for (uint k = 0; k < lane; ++k) last = sub_group_broadcast_first(x + (int)k);
  o[3] = last;
}

// Collectives, work-group barriers and local memory in one kernel: the
// work-group's exclusive prefix sum through per-sub-group sums in a
// kernel-scope array, then rounds that each rotate a value through `ring`
// between barriers and mix it with a sub-group shuffle.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void collectives_and_barriers(global const int *in, global int *prefix, global int *mixed, local int *ring) {
  local int sums[128];
  size_t i = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  uint sg = get_sub_group_id(), lane = get_sub_group_local_id(), groups = get_num_sub_groups();
  int x = in[i];
  int s = sub_group_reduce_add(x);
  if (lane == 0) sums[sg] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (sg == 0) {
    int carry = 0;
    for (uint base = 0; base < groups; base += get_sub_group_size()) {
      uint k = base + lane;
      int v = k < groups ? sums[k] : 0;
      int before = sub_group_scan_exclusive_add(v) + carry;
      carry += sub_group_reduce_add(v);
      if (k < groups) sums[k] = before;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  prefix[i] = sums[sg] + sub_group_scan_exclusive_add(x);
  int y = x;
  for (int r = 0; r < 3; ++r) {
    ring[l] = y;
    barrier(CLK_LOCAL_MEM_FENCE);
    y = ring[(l + 1) % n] * 2 + sub_group_shuffle(y, (lane + 1) % get_sub_group_size());
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  mixed[i] = y;
}

// A 3-D work-group: sub-groups follow the local linear id across rows and planes.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void collectives_3d(global int *out) {
  int l = (int)get_local_linear_id();
  uint lane = get_sub_group_local_id();
  size_t g = get_global_linear_id() * 3;
  out[g + 0] = sub_group_reduce_add(l);
  out[g + 1] = sub_group_scan_inclusive_add(1);
  out[g + 2] = sub_group_shuffle((int)(get_local_id(2) * 10000 + get_local_id(1) * 100 + get_local_id(0)),
                                 (lane + 1) % get_sub_group_size());
}

// Two collectives every work-item reaches, then one in a loop: where rows hold
// whole sub-groups the first regions run sub-group by sub-group, the combines
// between lane loops, up to the loop, whose region may go two ways.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void chained_collectives(global const int *in, global int *out, int rounds) {
  size_t i = get_global_id(0);
  int x = in[i];
  int s = sub_group_reduce_add(x);
  int t = sub_group_scan_inclusive_add(x + s);
  for (int r = 0; r < rounds; ++r) x += sub_group_shuffle_xor(t, 1u);
  out[i] = x;
}

// Every collective the dispatcher may compile into the region code, for one
// element type: 24 results per work-item, compared bit for bit between the
// compiled combine (whole sub-groups of 16) and the host's (fibers, and a
// partial sub-group). Shuffle arguments come both as constants and per lane.
#define EVERY_COLLECTIVE(T, name, EXTRA)                                                            \
  __attribute__((intel_reqd_sub_group_size(16)))                                                    \
  kernel void every_collective_##name(global const T *in, global T *out) {                          \
    uint l = get_local_linear_id(), lane = get_sub_group_local_id();                               \
    T x = in[l], y = in[l] * (T)3;                                                                  \
    global T *o = out + l * 24;                                                                     \
    o[0] = sub_group_reduce_add(x);                                                                 \
    o[1] = sub_group_non_uniform_reduce_mul(x);                                                                 \
    o[2] = sub_group_reduce_min(x);                                                                 \
    o[3] = sub_group_reduce_max(x);                                                                 \
    o[4] = sub_group_scan_inclusive_add(x);                                                         \
    o[5] = sub_group_scan_exclusive_add(x);                                                         \
    o[6] = sub_group_scan_inclusive_min(x);                                                         \
    o[7] = sub_group_scan_exclusive_max(x);                                                         \
    o[8] = sub_group_non_uniform_scan_inclusive_mul(x);                                             \
    o[9] = sub_group_broadcast(x, 3u);                                                              \
    o[10] = sub_group_shuffle(x, (lane * 5 + 2) % 16);                                              \
    o[11] = sub_group_shuffle_xor(x, 5u);                                                           \
    o[12] = sub_group_shuffle_xor(x, lane % 4 + 1);                                                 \
    o[13] = sub_group_shuffle_up(x, 3u);                                                            \
    o[14] = sub_group_shuffle_down(x, lane % 3);                                                    \
    o[15] = intel_sub_group_shuffle_down(x, y, lane % 20);                                          \
    o[16] = intel_sub_group_shuffle_up(x, y, 5u);                                                   \
    o[17] = sub_group_broadcast_first(x);                                               \
    o[18] = sub_group_clustered_reduce_add(x, 4);                                                   \
    o[19] = sub_group_clustered_reduce_min(x, 8);                                                   \
    o[20] = (T)sub_group_non_uniform_all_equal(x);                                                  \
    o[21] = (T)sub_group_non_uniform_all_equal(y - y);                                              \
    o[22] = sub_group_shuffle(x, lane + 40);                                                        \
    EXTRA                                                                                           \
  }

#define NO_EXTRA o[23] = 0;
// Integers also have the bitwise and logical operations; int also votes and ballots.
#define INTEGER_EXTRA(T)                                                                            \
  o[23] = sub_group_non_uniform_reduce_and(x) ^ sub_group_non_uniform_scan_inclusive_or(x) ^ sub_group_non_uniform_scan_exclusive_xor(x) \
          ^ sub_group_non_uniform_reduce_logical_and(x & (T)1) ^ (sub_group_non_uniform_scan_inclusive_logical_or(x > (T)7) << 1) \
          ^ (sub_group_non_uniform_scan_exclusive_logical_xor(x & (T)2) << 2);
#define VOTE_EXTRA                                                                                  \
  INTEGER_EXTRA(int)                                                                                \
  uint4 b = sub_group_ballot(x > 2);                                                                \
  o[23] ^= (int)((b.x * 31u) ^ (b.y << 7)) ^ (sub_group_all(x > -100) << 20) ^ (sub_group_any(x > 90) << 21) \
           ^ (sub_group_elect() << 22);

EVERY_COLLECTIVE(int, int, VOTE_EXTRA)
EVERY_COLLECTIVE(uint, uint, INTEGER_EXTRA(uint))
EVERY_COLLECTIVE(long, long, INTEGER_EXTRA(long))
EVERY_COLLECTIVE(ulong, ulong, INTEGER_EXTRA(ulong))
EVERY_COLLECTIVE(char, char, INTEGER_EXTRA(char))
EVERY_COLLECTIVE(ushort, ushort, INTEGER_EXTRA(ushort))
EVERY_COLLECTIVE(float, float, NO_EXTRA)
EVERY_COLLECTIVE(double, double, NO_EXTRA)

// No collective, so no regions: when rows hold whole sub-groups the work-item
// loop runs sub-group by sub-group (lanes vectorised, marked independent), else
// work-item by work-item. A private array indexed per lane must stay private.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void lanes_plain(global const int *in, global int *out, global const uint *block_in, global uint *block_out) {
  size_t g = get_global_linear_id();
  uint lane = get_sub_group_local_id(), sg = get_sub_group_id();
  int priv[8];
  for (int k = 0; k < 8; ++k) priv[k] = in[g] * k + (int)lane;
  global int *o = out + g * 4;
  o[0] = (int)sg;
  o[1] = (int)lane;
  o[2] = priv[(lane * 3 + (uint)in[g]) & 7] + priv[lane];
  o[3] = o[2] + 1;
  size_t group = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);
  size_t base = (group * get_num_sub_groups() + sg) * get_max_sub_group_size();
  intel_sub_group_block_write(block_out + base, intel_sub_group_block_read(block_in + base) * 2u + lane);
}
