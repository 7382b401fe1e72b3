// The sub-group test plan, unknown sub-group size: every work-item records its sub-group's queries.
// Each id and range is recorded twice, by its built-in and by a sub-group collective, so that the
// "equal to its linear form" checks compare two computations, not one value with itself.
#define QUERIES 11

kernel void sub_group_queries(global uint *out) {
  global uint *o = out + get_global_linear_id() * QUERIES;
  uint lane = get_sub_group_local_id();
  o[0] = get_sub_group_id();                                   // get_group_id()
  o[1] = sub_group_broadcast(get_sub_group_id(), 0);           // get_group_linear_id()
  o[2] = lane;                                                 // get_local_id()
  o[3] = sub_group_scan_exclusive_add(1u);                     // get_local_linear_id()
  o[4] = get_sub_group_size();                                 // get_local_range()
  o[5] = sub_group_reduce_add(1u);                             // get_local_linear_range()
  o[6] = get_num_sub_groups();                                 // get_group_range()
  o[7] = sub_group_broadcast(get_num_sub_groups(), 0);         // get_group_linear_range()
  o[8] = get_max_sub_group_size();                             // get_max_local_range()
  o[9] = sub_group_scan_inclusive_add(1u) == 1u ? 1u : 0u;     // leader()
  o[10] = (uint)((get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0));
}
