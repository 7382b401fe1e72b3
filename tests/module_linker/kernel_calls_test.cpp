// walk_kernel_calls: the calls into other modules a kernel reaches, directly and through other modules' functions.
#include "module_linker/kernel_calls.hpp"

#include "test_support.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace ml = zeal::module_linker;
using ml::test::input;

namespace {

struct Visited {
  std::string caller;  // "kernel call_f" or "function f", with its module index
  std::string callee;
  size_t callee_module = 0;
  bool has_symbol = false;
};

// Walks kernel `call_f` of inputs[0] with imports resolved by name to the input exporting them;
// inputs listed in `native` resolve without their SPIR-V.
std::vector<Visited> walk(const std::vector<ml::ModuleInput> &in, std::vector<size_t> native = {}) {
  auto resolve = [&](std::string_view name) -> std::optional<ml::ImportTarget> {
    for (size_t i = 0; i < in.size(); ++i)
      if (const ml::Symbol *s = in[i].info.find_export(name)) {
        bool is_native = std::find(native.begin(), native.end(), i) != native.end();
        return ml::ImportTarget{i, is_native ? nullptr : s};
      }
    return std::nullopt;
  };
  std::vector<Visited> out;
  auto visit = [&](const ml::CallSite &site, std::string_view callee, const ml::ImportTarget &target) {
    std::string caller = site.kernel ? "kernel " + site.kernel->name : "function " + site.function->name;
    out.push_back({caller + " of " + std::to_string(site.module), std::string(callee), target.module,
                   target.symbol != nullptr});
  };
  const ml::EntryPoint *k = in[0].info.find_entry_point("call_f");
  EXPECT_NE(k, nullptr);
  if (k != nullptr) ml::walk_kernel_calls(0, *k, resolve, visit);
  return out;
}

} // namespace

TEST(KernelCalls, GivenACalleeThatCallsIntoAThirdModule_ThenBothCallsAreVisitedWithTheirCallers) {
  std::vector<ml::ModuleInput> in = {input("call_f.spv"), input("def_f_via_g.spv"), input("def_g.spv")};
  std::vector<Visited> v = walk(in);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].caller, "kernel call_f of 0");
  EXPECT_EQ(v[0].callee, "f");
  EXPECT_EQ(v[0].callee_module, 1u);
  EXPECT_EQ(v[1].caller, "function f of 1");
  EXPECT_EQ(v[1].callee, "g");
  EXPECT_EQ(v[1].callee_module, 2u);
}

TEST(KernelCalls, GivenACalleeWithoutSpirv_ThenItsCallIsVisitedAndTheWalkStopsThere) {
  std::vector<ml::ModuleInput> in = {input("call_f.spv"), input("def_f_via_g.spv"), input("def_g.spv")};
  std::vector<Visited> v = walk(in, {1});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].callee, "f");
  EXPECT_FALSE(v[0].has_symbol);
}

TEST(KernelCalls, GivenAnImportNothingResolves_ThenItIsSkipped) {
  std::vector<ml::ModuleInput> in = {input("call_f.spv"), input("def_f_via_g.spv")};
  std::vector<Visited> v = walk(in);
  ASSERT_EQ(v.size(), 1u) << "g has no provider";
  EXPECT_EQ(v[0].callee, "f");
}
