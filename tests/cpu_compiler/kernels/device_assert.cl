// DPC++'s assert as its headers lower it: a call to devicelib's __devicelib_assert_fail, imported by name
// (DPC++ passes generic pointers; OpenCL C cannot make one of a string constant, and the ABI is the same).
void __devicelib_assert_fail(constant char *expr, constant char *file, int line, constant char *func, ulong gid0, ulong gid1,
                             ulong gid2, ulong lid0, ulong lid1, ulong lid2);

kernel void checked_copy(global const int *in, global int *out) {
  size_t i = get_global_id(0);
  if (in[i] < 0) {
    __devicelib_assert_fail("in[i] >= 0", "copy.cpp", 12, "checked_copy", i, get_global_id(1), get_global_id(2),
                            get_local_id(0), get_local_id(1), get_local_id(2));
  }
  out[i] = in[i] * 2;
}
