// Benchmarks of module_linker: inspect_spirv on a generated 1 MiB module, plan_link over 1,000 modules.
#include "module_linker/link_plan.hpp"
#include "module_linker/module_info.hpp"

#include <spirv-tools/libspirv.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace ml = zeal::module_linker;

namespace {

// A minimal SPIR-V writer: enough to emit a valid OpenCL kernel module of any size.
class Writer {
public:
  std::vector<uint32_t> words{0x07230203, 0x00010200, 0, 0, 0};
  uint32_t next_id = 1;

  uint32_t id() { return next_id++; }
  void op(uint32_t opcode, std::initializer_list<uint32_t> operands) {
    words.push_back(static_cast<uint32_t>((operands.size() + 1) << 16) | opcode);
    words.insert(words.end(), operands);
  }
  // An instruction whose operands end with a literal string.
  void op_with_string(uint32_t opcode, std::vector<uint32_t> before, const std::string &text,
                      std::vector<uint32_t> after = {}) {
    std::vector<uint32_t> str((text.size() + 4) / 4, 0);
    std::memcpy(str.data(), text.data(), text.size());
    words.push_back(static_cast<uint32_t>((1 + before.size() + str.size() + after.size()) << 16) | opcode);
    words.insert(words.end(), before.begin(), before.end());
    words.insert(words.end(), str.begin(), str.end());
    words.insert(words.end(), after.begin(), after.end());
  }
  std::vector<uint32_t> finish() {
    words[3] = next_id;
    return words;
  }
};

// A kernel module of about `target_words` words: functions i32(i32, i32) of 60 arithmetic
// instructions, each calling two earlier ones, every one exported and named.
std::vector<uint32_t> generate_module(size_t target_words) {
  constexpr size_t kWordsPerFunction = 330;
  const size_t functions = target_words / kWordsPerFunction;
  Writer w;
  std::vector<uint32_t> fn_ids(functions);
  for (uint32_t &f : fn_ids) f = w.id();
  uint32_t kernel = w.id(), void_t = w.id(), int_t = w.id(), fn_t = w.id(), kfn_t = w.id(), one = w.id();
  for (uint32_t cap : {4u, 5u, 6u}) w.op(17, {cap});                     // Addresses, Linkage, Kernel
  w.op(14, {2, 2});                                                        // Physical64 OpenCL
  w.op_with_string(15, {6, kernel}, "big_kernel");
  for (size_t i = 0; i < functions; ++i) w.op_with_string(5, {fn_ids[i]}, fmt::format("function_{}", i));
  for (size_t i = 0; i < functions; ++i) w.op_with_string(71, {fn_ids[i], 41}, fmt::format("function_{}", i), {0});
  w.op(19, {void_t});
  w.op(21, {int_t, 32, 0});
  w.op(33, {fn_t, int_t, int_t, int_t});
  w.op(33, {kfn_t, void_t});
  w.op(43, {int_t, one, 1});
  std::mt19937 rng(7);
  for (size_t i = 0; i < functions; ++i) {
    uint32_t a = w.id(), b = w.id();
    w.op(54, {int_t, fn_ids[i], 0, fn_t});
    w.op(55, {int_t, a});
    w.op(55, {int_t, b});
    w.op(248, {w.id()});                                                   // OpLabel
    uint32_t acc = a;
    for (int k = 0; k < 60; ++k) {
      uint32_t r = w.id();
      w.op(k % 2 == 0 ? 128 : 132, {int_t, r, acc, k % 3 == 0 ? b : one}); // OpIAdd / OpIMul
      acc = r;
    }
    for (int c = 0; c < 2 && i > 0; ++c) {
      uint32_t r = w.id();
      w.op(57, {int_t, r, fn_ids[rng() % i], acc, b});                     // OpFunctionCall
      acc = r;
    }
    w.op(254, {acc});                                                      // OpReturnValue
    w.op(56, {});
  }
  w.op(54, {void_t, kernel, 0, kfn_t});
  w.op(248, {w.id()});
  w.op(57, {int_t, w.id(), fn_ids.back(), one, one});
  w.op(253, {});
  w.op(56, {});
  return w.finish();
}

// 1,000 modules, 10 exports each (i32(i32)), one kernel each calling 5 symbols of other modules.
std::vector<ml::ModuleInput> generate_inputs(size_t modules, size_t exports_per_module) {
  std::mt19937 rng(11);
  std::vector<ml::ModuleInput> inputs(modules);
  for (size_t m = 0; m < modules; ++m) {
    ml::ModuleInput &in = inputs[m];
    in.name = fmt::format("image_{}.spv", m);
    in.metadata.library = fmt::format("lib{}.so", m % 50);
    for (size_t e = 0; e < exports_per_module; ++e) {
      ml::Symbol s{fmt::format("sym_{}_{}", m, e), ml::SymbolKind::Function, "i32(i32)", uint32_t(e + 1), false,
                   rng() | 1ull, 0, {}};
      in.info.exports.push_back(s.name);
      in.info.exported_symbols.push_back(std::move(s));
    }
    ml::EntryPoint ep;
    ep.name = fmt::format("kernel_{}", m);
    for (int i = 0; i < 5 && m > 0; ++i) {
      std::string name = fmt::format("sym_{}_{}", rng() % m, rng() % exports_per_module);
      ml::Symbol imp{name, ml::SymbolKind::Function, "i32(i32)", 0, false, 0, 0, {}};
      if (in.info.find_import(name) != nullptr) continue;
      in.info.imports.push_back(name);
      in.info.imported_symbols.push_back(std::move(imp));
      std::sort(in.info.imported_symbols.begin(), in.info.imported_symbols.end(),
                [](auto &a, auto &b) { return a.name < b.name; });
      ep.reached_imports.push_back(name);
    }
    std::sort(ep.reached_imports.begin(), ep.reached_imports.end());
    in.info.entry_points.push_back(std::move(ep));
  }
  return inputs;
}

// Median of `runs` timings of `body`, in milliseconds.
double median_ms(int runs, const std::function<void()> &body) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    body();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

} // namespace

int main() {
  std::vector<uint32_t> module = generate_module(256 * 1024);
  auto check = ml::inspect_spirv(std::span<const uint32_t>(module), ml::InspectOptions{ml::Validation::Off});
  if (!check.ok()) {
    fmt::print(stderr, "generated module does not parse: {}\n", check.error().message);
    return 1;
  }
  double inspect = median_ms(21, [&] {
    auto info = ml::inspect_spirv(std::span<const uint32_t>(module), ml::InspectOptions{ml::Validation::Off});
    if (!info.ok()) std::abort();
  });
  // The floor: SPIRV-Tools' parser with callbacks that do nothing.
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  double parse_only = median_ms(21, [&] {
    auto nothing = [](void *, const spv_parsed_instruction_t *) { return SPV_SUCCESS; };
    (void)spvBinaryParse(context, nullptr, module.data(), module.size(), nullptr, nothing, nullptr);
  });
  spvContextDestroy(context);
  double validate = median_ms(5, [&] { (void)ml::validate_spirv(module); });
  fmt::print("inspect_spirv, {:.2f} MiB module ({} exports), no validation: median {:.2f} ms (target <= 10 ms)\n",
             double(module.size() * 4) / (1024 * 1024), check->exports.size(), inspect);
  fmt::print("spvBinaryParse alone (the floor): median {:.2f} ms\n", parse_only);
  fmt::print("validate_spirv (spirv-val) on the same module: median {:.2f} ms (no target)\n", validate);

  std::vector<ml::ModuleInput> inputs = generate_inputs(1000, 10);
  const ml::DeviceProfile &host = *ml::find_device_profile("host");
  ml::LinkPlan sample = ml::plan_link(inputs, {}, host);
  double plan = median_ms(21, [&] { (void)ml::plan_link(inputs, {}, host); });
  fmt::print("plan_link, 1000 modules exporting 10000 symbols ({} resolutions, {} diagnostics): median {:.2f} ms "
             "(target <= 5 ms)\n",
             sample.resolutions.size(), sample.diagnostics.size(), plan);
  return 0;
}
