// A launch that ends only when all its work-groups run at once: each group's first work-item arrives, then waits
// for every other group to arrive (a cooperative launch promises that; an ordinary one does not).
kernel void all_arrive(volatile global int *arrived, global int *seen, int groups) {
  if (get_local_id(0) != 0) return;
  atomic_add(arrived, 1);
  int now = atomic_add(arrived, 0);
  while (now < groups) now = atomic_add(arrived, 0);
  seen[get_group_id(0)] = now;
}
