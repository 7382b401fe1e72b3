// Internal to inspect_spirv: the state its parse callbacks fill, shared by the spirv_*.cpp passes.
#pragma once

#include "module_linker/module_info.hpp"

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace zeal::module_linker::detail {

// The SPIR-V numbers the passes react to, by their names in the SPIR-V headers (OpName, DecorationBuiltIn,
// LinkageTypeImport), beside this namespace's own `spv` (module_info.hpp).
using enum ::spv::Op;
using enum ::spv::Decoration;
using enum ::spv::LinkageType;

// A table indexed by id: a vector up to a plausible bound, a map beyond it, so that a
// hostile id bound in the header cannot make us allocate gigabytes.
template <class T>
class IdTable {
public:
  void reserve(uint32_t bound, size_t word_count) {
    dense_.resize(std::min<size_t>(bound, 4 * word_count + 64));
  }
  const T *find(uint32_t id) const {
    if (id < dense_.size()) return &dense_[id];
    auto it = sparse_.find(id);
    return it == sparse_.end() ? nullptr : &it->second;
  }
  T &operator[](uint32_t id) { return id < dense_.size() ? dense_[id] : sparse_[id]; }
  // The entry of `id`, or a default one; a reference, so large entries are not copied.
  const T &get(uint32_t id) const {
    static const T kDefault{};
    const T *p = find(id);
    return p != nullptr ? *p : kDefault;
  }

private:
  std::vector<T> dense_;
  std::unordered_map<uint32_t, T> sparse_;
};

// What the module says about one type id.
struct TypeInfo {
  std::string name;      // printable, e.g. "i32 addrspace(1)*"
  uint64_t key = 0;      // structural hash, 0 when the id is not a type
  uint32_t features = 0; // kFeatureFp64 / kFeatureFp16 when a value of the type is a double / half
  uint32_t int_width = 0;
};

struct Linkage {
  std::string name;
  uint32_t type = 0;
};

// One OpFunction: what it calls and needs, and the fingerprint of its body.
struct FunctionState {
  uint32_t id = 0;
  uint32_t type_id = 0;
  bool has_body = false;
  uint32_t features = 0;
  uint64_t hash = 0;
  std::vector<uint32_t> callees;
};

// Everything reachable from a function within the module: features and real imports (sorted).
struct Reach {
  uint32_t features = 0;
  std::vector<std::string> imports;
};

struct ReachMemo {
  enum State : uint8_t { Unvisited, InProgress, Done } state = Unvisited;
  Reach reach;
};

struct ParseState {
  ModuleInfo info;
  size_t word_count = 0;
  std::map<uint32_t, Linkage> linkage;                       // by target id
  std::map<uint32_t, uint32_t> builtins;                     // id -> BuiltIn
  std::map<uint32_t, uint32_t> spec_ids;                     // id -> SpecId
  std::map<uint32_t, std::vector<ExecutionModeInfo>> modes;  // by entry-point function id
  std::unordered_map<uint32_t, std::string> names;           // OpName
  IdTable<TypeInfo> types;
  IdTable<uint64_t> global_keys;     // types, constants, variables, ext-inst sets: id -> key
  IdTable<uint32_t> value_types;     // id -> type id of every value with a result type
  IdTable<int32_t> function_index;   // id -> index into functions + 1
  std::vector<FunctionState> functions;
  std::vector<uint32_t> variables;   // module-scope OpVariable ids
  // The function being parsed: its index, and its local ids in order of first sight, stored as
  // (current + 1) << 32 | number, so that entries of earlier functions read as absent.
  int32_t current = -1;
  IdTable<uint64_t> locals;
  uint32_t local_count = 0;
  std::vector<ReachMemo> reach;      // by function index, filled by reach_from
};

// Hash mixing shared by the passes: one multiply-xorshift step per value, which is what a
// fingerprint of every instruction of a 1 MiB module can afford.
inline uint64_t mix(uint64_t h, uint64_t v) {
  h = (h ^ v) * 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 29);
}
inline constexpr uint64_t kHashSeed = 0xcbf29ce484222325ull;
uint64_t hash_string(std::string_view s);

std::string literal_string(const spv_parsed_instruction_t &inst, const spv_parsed_operand_t &op);

// spirv_types.cpp: type, constant and module-scope variable instructions.
void on_type(ParseState &s, const spv_parsed_instruction_t &inst);
void on_constant(ParseState &s, const spv_parsed_instruction_t &inst);
void on_variable(ParseState &s, const spv_parsed_instruction_t &inst);
std::string type_name(const ParseState &s, uint32_t type_id);
// The printable type of a linkage target: a function's signature or a variable's pointee.
std::string symbol_type(const ParseState &s, uint32_t id, SymbolKind kind);

// spirv_functions.cpp: function bodies, then the per-root closures once the parse is done.
void on_function_instruction(ParseState &s, const spv_parsed_instruction_t &inst);
// The closure of the function `id` (memoised in s.reach); empty for an id that is no function.
const Reach &reach_from(ParseState &s, uint32_t id);
bool is_builtin_import(const ParseState &s, uint32_t id, const std::string &name);

} // namespace zeal::module_linker::detail
