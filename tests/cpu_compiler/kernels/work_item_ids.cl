// Every work-item writes what each id and size query answered, at its global linear id.
#define FIELDS 26

kernel void work_item_ids(global ulong *out, uint runtime_dim) {
  global ulong *r = out + get_global_linear_id() * FIELDS;
  for (uint d = 0; d < 3; ++d) {
    r[0 + d] = get_global_id(d);
    r[3 + d] = get_local_id(d);
    r[6 + d] = get_group_id(d);
    r[9 + d] = get_global_size(d);
    r[12 + d] = get_local_size(d);
    r[15 + d] = get_num_groups(d);
    r[18 + d] = get_global_offset(d);
  }
  r[21] = get_work_dim();
  r[22] = get_local_linear_id();
  r[23] = get_enqueued_local_size(0);
  // Out-of-range dimensions answer the OpenCL defaults: 0 for ids, 1 for sizes.
  r[24] = get_global_id(3) + 10 * get_local_id(7) + 100 * get_group_id(runtime_dim) + 1000 * get_global_offset(runtime_dim);
  r[25] = get_global_size(3) + 10 * get_local_size(runtime_dim) + 100 * get_num_groups(runtime_dim);
}

// Ids through a function the optimiser must not inline: the hidden work-item
// parameter has to flow through the call.
__attribute__((noinline)) size_t flat_id(size_t scale) {
  return get_global_id(0) * scale + get_global_id(1);
}

kernel void ids_through_call(global ulong *out) {
  out[get_global_linear_id()] = flat_id(1000);
}
