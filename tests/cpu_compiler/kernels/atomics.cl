// Atomics on global and local memory: OpenCL 1.x atomic_*/atom_* and OpenCL 2.0 atomic_*_explicit.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

// Every work-item updates shared slots; the results do not depend on the order.
kernel void int_ops(volatile global int *i, volatile global uint *u) {
  int g = (int)get_global_id(0);
  atomic_add(&i[0], g);
  atomic_sub(&i[1], g);
  atomic_inc(&i[2]);
  atomic_dec(&i[3]);
  atomic_min(&i[4], g - 100);
  atomic_max(&i[5], g - 100);
  atomic_and(&i[6], ~(1 << (g % 31)));
  atomic_or(&i[7], 1 << (g % 31));
  atomic_xor(&i[8], g);
  atom_add(&i[9], 2);
  atomic_min(&u[0], (uint)g + 7u);
  atomic_max(&u[1], (uint)g * 3u);
  atomic_min(&u[2], (uint)(g - 1)); // g = 0 gives 0xffffffff, the largest unsigned
  atomic_max(&u[3], (uint)(g - 1));
}

kernel void long_ops(volatile global long *l, volatile global ulong *u) {
  long g = (long)get_global_id(0);
  atom_add(&l[0], g << 32);
  atom_sub(&l[1], g);
  atom_inc(&l[2]);
  atom_min(&l[3], g - 5);
  atom_max(&l[4], g << 33);
  atom_or(&l[5], 1L << (g % 63));
  atom_xor(&l[6], g);
  atom_max(&u[0], (ulong)(g - 1));
  atomic_fetch_add((volatile global atomic_long *)&l[7], 3L);
}

// OpenCL 2.0 forms with explicit orders and scopes, on int.
kernel void explicit_ops(volatile global atomic_int *a, global int *seen) {
  int g = (int)get_global_id(0);
  atomic_fetch_add_explicit(&a[0], g, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_sub_explicit(&a[1], g, memory_order_acq_rel, memory_scope_device);
  atomic_fetch_or_explicit(&a[2], 1 << (g % 31), memory_order_seq_cst, memory_scope_all_svm_devices);
  atomic_fetch_and_explicit(&a[3], ~(1 << (g % 31)), memory_order_release);
  atomic_fetch_xor_explicit(&a[4], g, memory_order_acquire);
  atomic_fetch_min_explicit(&a[5], -g, memory_order_relaxed);
  atomic_fetch_max_explicit(&a[6], g, memory_order_relaxed);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  // Only the work-item whose exchange saw the initial 0 writes 1 to `seen`.
  int expected = 0;
  if (atomic_compare_exchange_strong_explicit(&a[7], &expected, g + 1, memory_order_acq_rel, memory_order_acquire)) {
    atomic_store_explicit((volatile global atomic_int *)&seen[g], 1, memory_order_release);
  }
  int before = atomic_exchange(&a[8], g);
  seen[get_global_size(0) + g] = before;
  seen[2 * get_global_size(0) + g] = atomic_load_explicit(&a[9], memory_order_acquire);
}

// A counter incremented with a compare-and-swap loop.
kernel void cmpxchg_counter(volatile global int *counter, volatile global float *f, global float *old) {
  int seen = *counter, prior;
  while ((prior = atomic_cmpxchg(counter, seen, seen + 1)) != seen) seen = prior;
  old[get_global_id(0)] = atomic_xchg(f, (float)get_global_id(0));
}

// A histogram in local memory, merged into global memory with global atomics.
kernel void local_histogram(global const uint *in, global int *bins) {
  local int counts[16];
  size_t l = get_local_id(0);
  if (l < 16) counts[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&counts[in[get_global_id(0)] % 16]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 16) atomic_add(&bins[l], counts[l]);
}
