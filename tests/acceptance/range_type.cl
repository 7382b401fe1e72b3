// Kernels declaring a range_type (sycl_ext_oneapi_range_type) through image metadata.
// Each writes out of bounds of a one-element buffer as soon as more than one work-item runs,
// so a launch that should have been refused cannot go unnoticed.

// kernel.int_range.range_type=int: at most 2,147,483,647 work-items.
kernel void int_range(global uint *count, global uint *one) {
  atomic_inc(count);
  one[get_global_linear_id()] = 1u;
}

// kernel.int8_range.range_type=int8_t: at most 127 work-items; the boundary, cheap to run.
kernel void int8_range(global uint *count) {
  atomic_inc(count);
}
