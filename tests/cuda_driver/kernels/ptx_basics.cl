// Kernels for the NVPTX back end's tests: arguments, work-items, local memory, barriers, atomics and math.
typedef struct { float scale; int offset; long pad[3]; } Params;

kernel void vadd(global const float *a, global const float *b, global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}

__attribute__((reqd_work_group_size(64, 2, 1))) __attribute__((work_group_size_hint(64, 2, 1)))
kernel void fixed_size(global int *out) {
  out[get_global_linear_id()] = (int)get_local_linear_id();
}

kernel void local_reverse(global const int *in, global int *out, local int *scratch, constant int *bias) {
  local int fixed[64];
  size_t l = get_local_id(0), n = get_local_size(0);
  scratch[l] = in[get_global_id(0)];
  fixed[l % 64] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[n - 1 - l] + fixed[(n - 1 - l) % 64] + bias[0];
}

kernel void work_items(global ulong *out) {
  size_t i = get_global_linear_id() * 12;
  out[i + 0] = get_global_id(1);
  out[i + 1] = get_global_size(2);
  out[i + 2] = get_local_id(1);
  out[i + 3] = get_local_size(0);
  out[i + 4] = get_enqueued_local_size(1);
  out[i + 5] = get_group_id(2);
  out[i + 6] = get_num_groups(0);
  out[i + 7] = get_global_offset(1);
  out[i + 8] = get_work_dim();
  out[i + 9] = get_local_linear_id();
  out[i + 10] = get_global_linear_id();
}

kernel void math(global float *x, global double *y) {
  size_t i = get_global_id(0);
  x[i] = sin(x[i]) + exp(x[i]) + pow(x[i], 2.5f) + native_sin(x[i]) + native_exp(x[i]) + sqrt(x[i]);
  y[i] = cos(y[i]) + log(y[i]) + convert_double(convert_int_sat(x[i]));
}

kernel void atomics(global int *g, global long *g64, global float *f, local int *l, global atomic_int *ai) {
  atomic_add(g, 1);
  atomic_inc(g + 1);
  atomic_max(g + 2, (int)get_global_id(0));
  atomic_cmpxchg(g + 3, 0, 1);
  atom_add(g64, 2);
  atomic_xchg(f, 1.0f);
  if (get_local_id(0) == 0) *l = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(l, 1);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  int expected = 0;
  atomic_fetch_add_explicit(ai, *l, memory_order_relaxed, memory_scope_device);
  atomic_compare_exchange_strong(ai + 1, &expected, 5);
  atomic_store(ai + 2, atomic_load(ai + 3));
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
}

kernel void by_value(Params p, global float *out, float4 v) {
  out[get_global_id(0)] = p.scale * (float)p.offset + v.y + (float)p.pad[2];
}

// Not inlined into the kernel: the hidden values must reach it.
__attribute__((noinline)) size_t offset_of(uint d) { return get_global_offset(d) + get_work_dim(); }

kernel void hidden_in_callee(global ulong *out) {
  out[get_global_id(0)] = offset_of(0);
}
