// The native binary format: object code plus the metadata that makes it a module, checked before it is trusted.
#include "cpu_driver/compiler/linking.hpp"

#include "common/persistent_cache.hpp"

#include <fmt/format.h>
#include <llvm/Config/llvm-config.h>

#include <cstring>

namespace zeal::cpu {

std::string driver_build_id() { return fmt::format("zeal-cpu {} (LLVM {})", ZEAL_CPU_DRIVER_VERSION, LLVM_VERSION_STRING); }

namespace detail {
namespace {

// Layout (little-endian): magic[8], format u32, reserved u32, total size u64,
// then fields (strings are u32 length + bytes): driver build id, target id,
// kernels (each with its refusal, empty when it runs), imports, exported functions, exported globals, object code; then an
// FNV-1a 64 checksum of everything before it.
constexpr char magic[8] = {'Z', 'E', 'A', 'L', 'C', 'P', 'U', '\0'};
// 2: the work-item record gained the sub-group size; 3: kernels record the size they run with;
// 4: and whether barriers became regions; 5: host-access names kept; 6: a work-group
// function runs GroupContext::group_count groups per call; 7: kernels carry their refusal; 8: kernels and
// exported functions carry the imports they reach, and exported functions what unsupported call they reach.
// 10: image and sampler arguments; kernels calling image built-ins run (a binary of 9 recorded them refused).
constexpr uint32_t format_version = 10;
constexpr size_t header_bytes = 24, checksum_bytes = 8;

class Writer {
public:
  template <class T>
  void put(T value) {
    size_t at = bytes.size();
    bytes.resize(at + sizeof(T));
    std::memcpy(bytes.data() + at, &value, sizeof(T));
  }
  void put(const std::string &text) {
    put(uint32_t(text.size()));
    bytes.insert(bytes.end(), text.begin(), text.end());
  }
  std::vector<uint8_t> bytes;
};

// Every read is bounds-checked; the first failure sticks and later reads return zeros.
class Reader {
public:
  explicit Reader(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    T value{};
    if (!take(sizeof(T))) return value;
    std::memcpy(&value, bytes_.data() + at_ - sizeof(T), sizeof(T));
    return value;
  }
  std::string string() { return bytes(get<uint32_t>()); }
  std::string bytes(uint64_t size) {
    if (!take(size > bytes_.size() ? bytes_.size() + 1 : size_t(size))) return {};
    return std::string(reinterpret_cast<const char *>(bytes_.data() + at_ - size), size);
  }
  // A count of items of at least `min_item_bytes` each, refused when the rest cannot hold them.
  uint32_t count(size_t min_item_bytes) {
    uint32_t n = get<uint32_t>();
    if (n > (bytes_.size() - at_) / min_item_bytes) failed_ = true;
    return failed_ ? 0 : n;
  }
  bool ok() const { return !failed_; }
  bool at_end() const { return at_ == bytes_.size(); }

private:
  bool take(size_t n) {
    if (failed_ || n > bytes_.size() - at_) {
      failed_ = true;
      return false;
    }
    at_ += n;
    return true;
  }
  std::span<const uint8_t> bytes_;
  size_t at_ = 0;
  bool failed_ = false;
};

Error invalid(std::string sentence) { return malformed_native_binary(std::move(sentence)); }

void write_names(Writer &w, const std::vector<std::string> &names) {
  w.put(uint32_t(names.size()));
  for (const std::string &name : names) w.put(name);
}

std::vector<std::string> read_names(Reader &r) {
  std::vector<std::string> names(r.count(4));
  for (std::string &name : names) name = r.string();
  return names;
}

void write_kernel(Writer &w, const KernelInfo &kernel) {
  w.put(kernel.name);
  w.put(uint32_t(kernel.args.size()));
  for (const ArgInfo &arg : kernel.args) {
    w.put(uint8_t(arg.kind));
    w.put(arg.size);
    w.put(arg.type_name);
  }
  for (uint32_t size : kernel.required_group_size) w.put(size);
  w.put(kernel.required_subgroup_size);
  for (uint32_t size : kernel.group_size_hint) w.put(size);
  w.put(kernel.vec_type_hint);
  w.put(kernel.subgroup_size);
  w.put(kernel.static_local_bytes);
  w.put(kernel.private_bytes);
  w.put(uint8_t(kernel.uses_barriers));
  w.put(uint8_t(kernel.barrier_regions));
  w.put(kernel.refusal);
  write_names(w, kernel.imports_reached);
}

KernelInfo read_kernel(Reader &r) {
  KernelInfo kernel;
  kernel.name = r.string();
  kernel.args.resize(r.count(9));
  for (ArgInfo &arg : kernel.args) {
    uint8_t kind = r.get<uint8_t>();
    arg.kind = kind <= uint8_t(ArgKind::Sampler) ? ArgKind(kind) : ArgKind::Value;
    arg.size = r.get<uint32_t>();
    arg.type_name = r.string();
  }
  for (uint32_t &size : kernel.required_group_size) size = r.get<uint32_t>();
  kernel.required_subgroup_size = r.get<uint32_t>();
  for (uint32_t &size : kernel.group_size_hint) size = r.get<uint32_t>();
  kernel.vec_type_hint = r.string();
  kernel.subgroup_size = r.get<uint32_t>();
  kernel.static_local_bytes = r.get<uint64_t>();
  kernel.private_bytes = r.get<uint64_t>();
  kernel.uses_barriers = r.get<uint8_t>() != 0;
  kernel.barrier_regions = r.get<uint8_t>() != 0;
  kernel.refusal = r.string();
  kernel.imports_reached = read_names(r);
  return kernel;
}


Status check_envelope(std::span<const uint8_t> blob) {
  if (blob.size() < header_bytes + checksum_bytes) {
    return invalid(fmt::format("the native binary is {} bytes long, shorter than the {}-byte header and checksum of "
                               "a zeal CPU native binary", blob.size(), header_bytes + checksum_bytes));
  }
  if (std::memcmp(blob.data(), magic, sizeof(magic)) != 0) {
    return invalid("the binary is not a zeal CPU native binary: it does not start with the magic 'ZEALCPU'");
  }
  uint32_t format = 0;
  uint64_t total = 0;
  std::memcpy(&format, blob.data() + 8, 4);
  std::memcpy(&total, blob.data() + 16, 8);
  if (format != format_version) {
    return invalid(fmt::format("the native binary has format version {}; this driver reads version {}", format,
                               format_version));
  }
  if (total != blob.size()) {
    return invalid(fmt::format("the native binary is {}: its header says {} bytes, but {} were given",
                               total > blob.size() ? "truncated" : "malformed", total, blob.size()));
  }
  uint64_t stored = 0;
  std::memcpy(&stored, blob.data() + blob.size() - checksum_bytes, checksum_bytes);
  uint64_t actual = zeal::detail::fnv1a64(blob.first(blob.size() - checksum_bytes));
  if (stored != actual) {
    return invalid(fmt::format("the native binary is corrupted: its checksum is {:016x} but its contents hash to {:016x}",
                               stored, actual));
  }
  return {};
}

} // namespace

std::vector<uint8_t> write_native_binary(const NativeContents &contents, const std::string &target_id) {
  Writer w;
  w.bytes.assign(magic, magic + sizeof(magic));
  w.put(format_version);
  w.put(uint32_t(0));
  w.put(uint64_t(0)); // total size, patched below
  w.put(driver_build_id());
  w.put(target_id);
  w.put(contents.build_options);
  w.put(uint32_t(contents.kernels.size()));
  for (const KernelInfo &kernel : contents.kernels) write_kernel(w, kernel);
  write_names(w, contents.linkage.imports);
  write_names(w, contents.linkage.exported_functions);
  w.put(uint32_t(contents.linkage.exported_globals.size()));
  for (const GlobalSymbol &global : contents.linkage.exported_globals) {
    w.put(global.name);
    w.put(global.size);
    w.put(global.symbol);
  }
  w.put(uint32_t(contents.linkage.reach.size()));
  for (const auto &[name, reach] : contents.linkage.reach) {
    w.put(name);
    w.put(reach.unsupported);
    write_names(w, reach.imports);
  }
  w.put(uint64_t(contents.object.size()));
  w.bytes.insert(w.bytes.end(), contents.object.begin(), contents.object.end());
  uint64_t total = w.bytes.size() + checksum_bytes;
  std::memcpy(w.bytes.data() + 16, &total, 8);
  w.put(zeal::detail::fnv1a64(w.bytes));
  return std::move(w.bytes);
}

Result<NativeContents> read_native_binary(std::span<const uint8_t> blob) {
  if (Status envelope = check_envelope(blob); !envelope) return std::move(envelope).error();
  Reader r(blob.subspan(header_bytes, blob.size() - header_bytes - checksum_bytes));
  std::string driver = r.string();
  if (r.ok() && driver != driver_build_id()) {
    return invalid(fmt::format("the native binary was built by {}, not by this driver ({}); build the module from "
                               "SPIR-V again", driver, driver_build_id()));
  }
  std::string target = r.string();
  if (r.ok() && target != host_target_id()) {
    return invalid(fmt::format("the native binary was built for another CPU ({}); this one is {}", target,
                               host_target_id()));
  }
  NativeContents contents;
  contents.build_options = r.string();
  contents.kernels.resize(r.count(16));
  for (KernelInfo &kernel : contents.kernels) kernel = read_kernel(r);
  contents.linkage.imports = read_names(r);
  contents.linkage.exported_functions = read_names(r);
  contents.linkage.exported_globals.resize(r.count(16));
  for (GlobalSymbol &global : contents.linkage.exported_globals) {
    global.name = r.string();
    global.size = r.get<uint64_t>();
    global.symbol = r.string();
  }
  for (size_t n = r.count(12); n > 0 && r.ok(); --n) {
    std::string name = r.string();
    ExportReach reach;
    reach.unsupported = r.string();
    reach.imports = read_names(r);
    contents.linkage.reach.emplace(std::move(name), std::move(reach));
  }
  contents.object = r.bytes(r.get<uint64_t>());
  if (!r.ok() || !r.at_end()) {
    return invalid("the native binary is malformed: its fields do not fit its size");
  }
  return contents;
}

} // namespace detail
} // namespace zeal::cpu
