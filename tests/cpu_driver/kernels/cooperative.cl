// Groups that wait for each other: each group's first item counts itself in, then spins until every group of the
// launch has arrived, which only ends when all groups run at once (a cooperative launch).
kernel void meet(volatile global int *arrived, global int *seen) {
  if (get_local_id(0) == 0) {
    atomic_inc(arrived);
    while (atomic_add(arrived, 0) < (int)get_num_groups(0)) {
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  seen[get_global_id(0)] = atomic_add(arrived, 0);
}

// Keeps every thread that takes one of its groups until the host sets *release.
kernel void hold(volatile global int *release) {
  while (atomic_add(release, 0) == 0) {
  }
}
