// How DPC++'s device code meets the runtime, for the OpenCL C stand-ins in this folder.
#ifndef ZEAL_UR_CTS_SYCL_DEVICE_H
#define ZEAL_UR_CTS_SYCL_DEVICE_H

// A buffer accessor reaches the kernel as a global pointer followed by this struct: its
// sycl::id offset, passed by value. DPC++ also passes the accessor's access range and memory
// range, but for one-dimensional accessors nothing reads them and its dead-argument
// elimination removes both. (The field is ulong because OpenCL C refuses size_t in a kernel
// parameter; both are OpTypeInt 64 in SPIR-V.)
struct sycl_id1 {
  ulong offset[1];
};

// SYCL numbers the dimensions of an N-dimensional range the other way round from SPIR-V:
// SYCL's dimension d is SPIR-V's N-1-d (DPC++'s __spirv::initBuiltIn* helpers).
static inline size_t sycl_global_id(uint dims, uint d) { return get_global_id(dims - 1 - d); }
static inline size_t sycl_global_range(uint dims, uint d) { return get_global_size(dims - 1 - d); }
static inline size_t sycl_offset(uint dims, uint d) { return get_global_offset(dims - 1 - d); }
static inline size_t sycl_local_id(uint dims, uint d) { return get_local_id(dims - 1 - d); }
static inline size_t sycl_local_range(uint dims, uint d) { return get_local_size(dims - 1 - d); }

// nd_item<dims>::get_global_linear_id(): DPC++ computes it from the global id, range and
// offset rather than reading SPIR-V's GlobalLinearId.
static inline size_t sycl_global_linear_id(uint dims) {
  size_t id = 0;
  for (uint d = 0; d < dims; ++d)
    id = id * sycl_global_range(dims, d) + sycl_global_id(dims, d) - sycl_offset(dims, d);
  return id;
}

// nd_item<dims>::get_local_linear_id()
static inline size_t sycl_local_linear_id(uint dims) {
  size_t id = 0;
  for (uint d = 0; d < dims; ++d)
    id = id * sycl_local_range(dims, d) + sycl_local_id(dims, d);
  return id;
}

// The kernel of UR's fill_2d.cpp and fill_3d.cpp, which differ only in the range's dimensions: a write
// accessor to a one-dimensional buffer of uint32_t and a value, stored at the nd_item's global linear id.
#define SYCL_FILL_ACCESSOR_KERNEL(name, dims)                                                      \
  kernel void name(global uint *A_acc, struct sycl_id1 A_acc_offset, uint val) {                   \
    size_t id = sycl_global_linear_id(dims);                                                       \
    A_acc[A_acc_offset.offset[0] + id] = val;                                                      \
  }

#endif
