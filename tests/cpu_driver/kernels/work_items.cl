// Kernels without barriers that check ids, sizes and local arguments as the runtime supplies them.

// Writes each work-item's global id in 2D, row-major.
kernel void ids_2d(global uint *out) {
  size_t x = get_global_id(0), y = get_global_id(1);
  out[y * get_global_size(0) + x] = (uint)(y * 1000 + x);
}

// Each work-item goes through its own slot of a local buffer: the buffer must be
// there, be large enough, and not be shared with work-groups running at the same time.
kernel void local_slot(global int *data, local int *scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = data[get_global_id(0)] * 2;
  data[get_global_id(0)] = scratch[lid] + (int)get_group_id(0);
}
