// Programs and kernels through the UR face: a context on zeal's device, programs made from the test kernels, and
// everything made released when a test ends.
#pragma once

#include "tests/support/ur_kernel_args.hpp"
#include "ur_fixture.hpp"

namespace zeal_ur_test {

// Kernel arguments of urEnqueueKernelLaunchWithArgsExp, as libsycl fills them.
inline ur_exp_kernel_arg_properties_t arg(ur_exp_kernel_arg_type_t type, uint32_t index, size_t size, const void *value) {
  return zeal::test::ur_kernel_arg(type, index, size, value);
}
inline ur_exp_kernel_arg_properties_t pointer(uint32_t index, const void *p) {
  return arg(UR_EXP_KERNEL_ARG_TYPE_POINTER, index, sizeof(void *), p);
}
template <class T>
ur_exp_kernel_arg_properties_t value(uint32_t index, const T *v) {
  return arg(UR_EXP_KERNEL_ARG_TYPE_VALUE, index, sizeof(T), v);
}
inline ur_exp_kernel_arg_properties_t buffer_arg(uint32_t index, ur_mem_handle_t b) {
  ur_exp_kernel_arg_properties_t a = arg(UR_EXP_KERNEL_ARG_TYPE_MEM_OBJ, index, sizeof(void *), nullptr);
  a.value.memObjTuple = {b, UR_MEM_FLAG_READ_WRITE};
  return a;
}

class UrPrograms : public UrContextFace {
protected:
  void TearDown() override {
    for (void *p : shared_allocations) {
      UR_EXPECT_OK(urUSMFree(context, p));
    }
    for (ur_kernel_handle_t k : kernels) {
      UR_EXPECT_OK(urKernelRelease(k));
    }
    for (ur_program_handle_t p : programs) {
      UR_EXPECT_OK(urProgramRelease(p));
    }
    UrContextFace::TearDown();
  }

  // tests/ur's kernels and tests/adapter's are compiled into one folder; spec_constant.spv is assembled there.
  static std::vector<uint8_t> kernel_file(const std::string &name) {
    return read_kernel(name == "spec_constant.spv" ? ZEAL_ADAPTER_KERNEL_DIR : ZEAL_TEST_KERNEL_DIR, name);
  }
  ur_program_handle_t keep(ur_program_handle_t p) {
    if (p != nullptr) programs.push_back(p);
    return p;
  }
  ur_program_handle_t with_il(const std::string &file) {
    const std::vector<uint8_t> il = kernel_file(file);
    ur_program_handle_t p = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urProgramCreateWithIL(context, il.data(), il.size(), nullptr, &p)) << error();
    return keep(p);
  }
  ur_program_handle_t built(const std::string &file, const char *options = nullptr) {
    ur_program_handle_t p = with_il(file);
    EXPECT_EQ(UR_RESULT_SUCCESS, urProgramBuild(context, p, options)) << error();
    return p;
  }
  ur_program_handle_t compiled(const std::string &file) {
    ur_program_handle_t p = with_il(file);
    EXPECT_EQ(UR_RESULT_SUCCESS, urProgramCompile(context, p, nullptr)) << error();
    return p;
  }
  ur_kernel_handle_t kernel(ur_program_handle_t p, const char *name) {
    ur_kernel_handle_t k = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urKernelCreate(p, name, &k)) << error();
    if (k != nullptr) kernels.push_back(k);
    return k;
  }

  auto program_info(ur_program_handle_t p, ur_program_info_t key) {
    return [p, key](size_t size, void *value, size_t *ret) { return urProgramGetInfo(p, key, size, value, ret); };
  }
  auto build_info(ur_program_handle_t p, ur_program_build_info_t key) {
    return [this, p, key](size_t size, void *value, size_t *ret) {
      return urProgramGetBuildInfo(p, device, key, size, value, ret);
    };
  }
  auto kernel_info(ur_kernel_handle_t k, ur_kernel_info_t key) {
    return [k, key](size_t size, void *value, size_t *ret) { return urKernelGetInfo(k, key, size, value, ret); };
  }
  auto group_info(ur_kernel_handle_t k, ur_kernel_group_info_t key) {
    return [this, k, key](size_t size, void *value, size_t *ret) {
      return urKernelGetGroupInfo(k, device, key, size, value, ret);
    };
  }
  auto sub_group_info(ur_kernel_handle_t k, ur_kernel_sub_group_info_t key) {
    return [this, k, key](size_t size, void *value, size_t *ret) {
      return urKernelGetSubGroupInfo(k, device, key, size, value, ret);
    };
  }

  // A number no enumeration of UR's holds, as a caller may pass it.
  template <class E>
  static E unknown_key() {
    const int32_t k = 0x7ffffff0;
    E e;
    std::memcpy(&e, &k, sizeof e);
    return e;
  }

  // Shared USM for `count` values of T, freed when the test ends.
  template <class T>
  T *shared(size_t count) {
    void *p = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urUSMSharedAlloc(context, device, nullptr, nullptr, count * sizeof(T), &p));
    if (p != nullptr) shared_allocations.push_back(p);
    return static_cast<T *>(p);
  }

  std::vector<ur_program_handle_t> programs;
  std::vector<ur_kernel_handle_t> kernels;
  std::vector<void *> shared_allocations;
};

// The kernels of kernels/graph.cl, which command-buffer and graph tests record: init, square, accumulate, range.
class UrGraphKernels : public UrPrograms {
protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(UrPrograms::SetUp());
    program = built("graph.spv");
    init = kernel(program, "graph_init");
    square = kernel(program, "graph_square");
    accumulate = kernel(program, "graph_accumulate");
    range = kernel(program, "graph_range");
  }

  ur_program_handle_t program = nullptr;
  ur_kernel_handle_t init = nullptr, square = nullptr, accumulate = nullptr, range = nullptr;
};

} // namespace zeal_ur_test
