// Kernels that fault or hang, for device_lost_test.cpp. Addresses and divisors come in as arguments, so that the
// compiler cannot see the fault coming and fold it into something else.

// Work-item `which` writes to `address` (an unmapped one); the others write their id.
kernel void fault_write(global int *out, ulong address, int which) {
  int i = (int)get_global_id(0);
  if (i == which) *(global int *)address = i;
  else out[i] = i;
}

// out[i] = num[i] / den[i]: an integer division by zero where den[i] is 0.
kernel void fault_divide(global int *out, global const int *num, global const int *den) {
  int i = (int)get_global_id(0);
  out[i] = num[i] / den[i];
}

// A work-group barrier first (the work-items then run as fibers or barrier regions), then work-item `which` of
// each group writes to `address`.
kernel void fault_after_barrier(global int *out, local int *scratch, ulong address, int which) {
  int l = (int)get_local_id(0);
  scratch[l] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == which) *(global int *)address = scratch[0];
  out[get_global_id(0)] = scratch[get_local_size(0) - 1 - l];
}

// Spins until the host sets *flag, then records that it ran.
kernel void spin(volatile global int *flag, global int *out) {
  while (*flag == 0) {
  }
  out[get_global_id(0)] = 1;
}

// A harmless kernel: out[i] = i.
kernel void ids(global int *out) { out[get_global_id(0)] = (int)get_global_id(0); }
