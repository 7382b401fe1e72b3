// Kernels with work-group barriers and kernel-scope local memory, in loops, branches and calls.

// Tree reduction of each group's slice through a local-memory argument; the barrier sits in a loop.
kernel void local_reduce(global const int *in, global int *out, local int *scratch) {
  size_t l = get_local_id(0), n = get_local_size(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t upper = (n + 1) / 2, width = n; width > 1; width = upper, upper = (upper + 1) / 2) {
    if (l < width - upper) scratch[l] += scratch[l + upper];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = scratch[0];
}

// Each round every work-item publishes its value and takes its right neighbour's, plus one.
kernel void rotate_rounds(global int *data, int rounds) {
  local int ring[1024];
  size_t l = get_local_id(0), n = get_local_size(0);
  int v = data[get_global_id(0)];
  for (int r = 0; r < rounds; ++r) {
    ring[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = ring[(l + 1) % n] + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  data[get_global_id(0)] = v;
}

// A barrier inside a branch every work-item of the group takes the same way.
kernel void uniform_branch(global int *data, int mirror) {
  local int tile[256];
  size_t l = get_local_id(0), n = get_local_size(0);
  int v = data[get_global_id(0)];
  if (mirror) {
    tile[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = tile[n - 1 - l];
  } else {
    v = -v;
  }
  data[get_global_id(0)] = v;
}

// 3-D groups: each work-item reads the mirror of its local linear id; two locals share the group's memory.
kernel void mirror_3d(global const int *in, global int *out) {
  local int values[512];
  local short marks[512];
  size_t lin = get_local_linear_id();
  size_t total = get_local_size(0) * get_local_size(1) * get_local_size(2);
  size_t g = get_global_linear_id();
  values[lin] = in[g];
  marks[lin] = (short)lin;
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = values[total - 1 - lin] * 1000 + marks[total - 1 - lin];
}

__attribute__((noinline)) int exchange(local int *slots, int v) {
  size_t l = get_local_id(0), n = get_local_size(0);
  slots[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  return slots[n - 1 - l];
}

// The barrier is in a function the kernel calls, not inlined.
kernel void barrier_in_call(global int *data, local int *slots) {
  data[get_global_id(0)] = exchange(slots, data[get_global_id(0)]) + 1;
}

// A kernel without barriers next to ones with them: it keeps the plain work-item loop.
kernel void no_barrier(global int *data) { data[get_global_id(0)] *= 2; }

// Many barriers in a loop: what the benchmark measures per work-item per barrier.
kernel void barrier_loop(global int *out, int count) {
  local int slot[1024];
  size_t l = get_local_id(0);
  int v = (int)l;
  for (int i = 0; i < count; ++i) {
    slot[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v += slot[0];
  }
  out[get_global_id(0)] = v;
}

// A private array filled before a barrier and read after it; the dynamic index keeps it in memory.
kernel void private_array_across(global int *data, local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  int mine[8];
  for (int i = 0; i < 8; ++i) mine[i] = data[get_global_id(0)] * (i + 1);
  tmp[l] = mine[l % 8];
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = tmp[n - 1 - l];
  for (int i = 0; i < 8; ++i) sum += mine[(i + l) % 8];
  data[get_global_id(0)] = sum;
}

// Barriers in an inner loop; every work-item skips the same rounds.
kernel void nested_loops(global int *data, int outer, int inner, local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  int v = data[get_global_id(0)];
  for (int i = 0; i < outer; ++i) {
    for (int j = 0; j < inner; ++j) {
      if (j % 3 == 2) continue;
      tmp[l] = v;
      barrier(CLK_LOCAL_MEM_FENCE);
      v = tmp[(l + 1) % n] + i;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  data[get_global_id(0)] = v;
}

typedef struct {
  int scale, bias;
} Params;

kernel void struct_across(global int *data, Params p, local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tmp[l] = data[get_global_id(0)] * p.scale;
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = tmp[n - 1 - l] + p.bias;
}

// exchange() twice: each call has its own barrier once inlined.
kernel void exchange_twice(global int *data, local int *slots) {
  int v = exchange(slots, data[get_global_id(0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = exchange(slots, v * 2);
}

kernel void early_return(global int *data, int stop, local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  int v = data[get_global_id(0)];
  if (stop) return;
  tmp[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = tmp[n - 1 - l];
}

kernel void neighbour_3d(global const int *in, global int *out, local int *tmp) {
  size_t lin = get_local_linear_id();
  size_t total = get_local_size(0) * get_local_size(1) * get_local_size(2);
  int v = in[get_global_linear_id()] * 3;
  tmp[lin] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_linear_id()] = v + tmp[(lin + 1) % total];
}

// Only the first sub-group (of 8) passes a sub-group barrier; the others never reach it.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void divergent_sub_group_barrier(global int *data, local int *tmp) {
  size_t l = get_local_id(0);
  int v = data[get_global_id(0)];
  if (get_sub_group_id() == 0) {
    tmp[l] = v;
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    v = tmp[get_sub_group_size() - 1 - get_sub_group_local_id()];
  } else {
    v = -v;
  }
  data[get_global_id(0)] = v;
}

// A quotient computed where the divisor was tested, then used after a barrier:
// it must not be computed anywhere the test did not pass (divisor 0 traps).
kernel void guarded_division(global int *data, int divisor, local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  if (divisor != 0) {
    int q = 1000 / divisor;
    tmp[l] = data[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    data[get_global_id(0)] = tmp[(l + 1) % n] + q;
  } else {
    data[get_global_id(0)] = -1;
  }
}

typedef struct {
  char tag;
  int value;
} Tagged;

// Private values of several sizes and alignments, each kept per work-item across
// two barriers (their slots are packed at their own alignment).
kernel void mixed_private_across(global int *data, local int *tmp) {
  size_t l = get_local_id(0), n = get_local_size(0);
  int x = data[get_global_id(0)];
  volatile char bytes[3] = {(char)x, (char)(x >> 1), (char)(x >> 2)};
  short s = (short)(x * 3);
  float3 f = (float3)((float)x, (float)x * 0.5f, (float)x * 0.25f);
  double d = (double)x * 1.5;
  volatile Tagged t = {(char)(x & 0x7f), x * 5};
  tmp[l] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  int neighbour = tmp[(l + 1) % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  tmp[l] = neighbour;
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = bytes[0] + bytes[1] + bytes[2] + s + (int)(f.x + f.y + f.z) + (int)d + t.tag + t.value +
                           tmp[(l + n - 1) % n] * 1000;
}

// After the barrier the first work-item of each row (x = 0) sums its row in a loop, as reductions end; every
// work-item then writes that (0 off the first column) beside its own value and its linear id.
kernel void row_leaders(global const int *in, global int *out) {
  local int values[512];
  size_t x = get_local_id(0), nx = get_local_size(0), lin = get_local_linear_id();
  size_t row = lin - x;
  values[lin] = in[get_global_linear_id()];
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = 0;
  if (x == 0) {
    for (size_t i = 0; i < nx; ++i) sum += values[row + i];
  }
  out[get_global_linear_id()] = sum * 1000 + values[lin] * 10 + (int)(lin % 10);
}
