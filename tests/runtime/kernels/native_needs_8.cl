// A native (AOT) image whose kernel requires sub-group size 8: the host profile has it, pvc does not.
__attribute__((intel_reqd_sub_group_size(8))) kernel void native_needs_8(global int *data) {
  size_t i = get_global_id(0);
  data[i] = (int)get_sub_group_size();
}
