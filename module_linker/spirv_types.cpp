// Types, constants, spec constants and module-scope variables: printable names and structural keys.
#include "module_linker/inspect_state.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstring>

namespace zeal::module_linker::detail {
namespace {

// OpenCL's address-space numbering of SPIR-V storage classes (as LLVM's SPIR-V target uses it).
std::string address_space(uint32_t storage_class) {
  switch (storage_class) {
  case 7: case 6: return "";                         // Function, Private
  case 5: return " addrspace(1)";                     // CrossWorkgroup: global
  case 0: return " addrspace(2)";                     // UniformConstant: constant
  case 4: return " addrspace(3)";                     // Workgroup: local
  case 8: return " addrspace(4)";                     // Generic
  case 1: return " addrspace(input)";                 // Input: built-in variables
  default: return fmt::format(" addrspace(sc{})", storage_class);
  }
}

std::string int_name(uint32_t width) { return fmt::format("i{}", width); }

std::string float_name(uint32_t width) {
  switch (width) {
  case 16: return "half";
  case 32: return "float";
  case 64: return "double";
  default: return fmt::format("f{}", width);
  }
}

// Operands from `first` on, as type names joined by ", ".
std::string type_list(const ParseState &s, const spv_parsed_instruction_t &inst, uint16_t first) {
  std::string out;
  for (uint16_t i = first; i < inst.num_words; ++i) out += (out.empty() ? "" : ", ") + type_name(s, inst.words[i]);
  return out;
}

std::string name_of_type(const ParseState &s, const spv_parsed_instruction_t &inst) {
  const uint32_t *w = inst.words;
  auto named = [&](const char *fallback) {
    auto it = s.names.find(w[1]);
    return it != s.names.end() ? "%" + it->second : std::string(fallback);
  };
  switch (inst.opcode) {
  case OpTypeVoid: return "void";
  case OpTypeBool: return "i1";
  case OpTypeInt: return int_name(w[2]);
  case OpTypeFloat: return float_name(w[2]);
  case OpTypeVector: return fmt::format("<{} x {}>", w[3], type_name(s, w[2]));
  case OpTypeMatrix: return fmt::format("<{} x {}>", w[3], type_name(s, w[2]));
  case OpTypeArray: {
    // The length is a constant id; its key-less value is shown when it is a plain 32-bit constant.
    return fmt::format("[{} x {}]", s.names.count(w[3]) ? s.names.at(w[3]) : "N", type_name(s, w[2]));
  }
  case OpTypeRuntimeArray: return fmt::format("[? x {}]", type_name(s, w[2]));
  case OpTypeStruct: {
    auto it = s.names.find(w[1]);
    return it != s.names.end() ? "%" + it->second : "{" + type_list(s, inst, 2) + "}";
  }
  case OpTypePointer: return type_name(s, w[3]) + address_space(w[2]) + "*";
  case OpTypeFunction: return type_name(s, w[2]) + "(" + type_list(s, inst, 3) + ")";
  case OpTypeOpaque: return "%opaque." + literal_string(inst, inst.operands[1]);
  case OpTypeEvent: return named("event_t");
  case OpTypeDeviceEvent: return named("clk_event_t");
  case OpTypeReserveId: return named("reserve_id_t");
  case OpTypeQueue: return named("queue_t");
  case OpTypePipe: return named("pipe_t");
  case OpTypeSampler: return named("sampler_t");
  case OpTypeImage: return named("image_t");
  case OpTypeSampledImage: return named("sampled_image_t");
  default: return fmt::format("type{}", inst.opcode);
  }
}

// What values of the type need of a device; a pointer to double needs nothing until loaded.
uint32_t features_of_type(const ParseState &s, const spv_parsed_instruction_t &inst) {
  const uint32_t *w = inst.words;
  if (inst.opcode == OpTypeFloat) return w[2] == 64 ? uint32_t{kFeatureFp64} : w[2] == 16 ? uint32_t{kFeatureFp16} : 0u;
  if (inst.opcode == OpTypeVector || inst.opcode == OpTypeMatrix || inst.opcode == OpTypeArray)
    return s.types.get(w[2]).features;
  if (inst.opcode == OpTypeStruct) {
    uint32_t f = 0;
    for (uint16_t i = 2; i < inst.num_words; ++i) f |= s.types.get(w[i]).features;
    return f;
  }
  return 0;
}

} // namespace

uint64_t hash_string(std::string_view text) {
  uint64_t h = kHashSeed;
  for (char c : text) {
    h ^= static_cast<uint8_t>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string type_name(const ParseState &s, uint32_t type_id) {
  const TypeInfo *t = s.types.find(type_id);
  if (t == nullptr || t->key == 0) {
    auto it = s.names.find(type_id); // a struct only forward-declared so far
    return it != s.names.end() ? "%" + it->second : fmt::format("%{}", type_id);
  }
  return t->name;
}

void on_type(ParseState &s, const spv_parsed_instruction_t &inst) {
  if (inst.opcode == OpTypeForwardPointer) return;
  TypeInfo t;
  t.name = name_of_type(s, inst);
  t.features = features_of_type(s, inst);
  if (inst.opcode == OpTypeInt) t.int_width = inst.words[2];
  // The key is structural: opcode, literals and the keys of member types, so that two
  // modules' identical types compare equal whatever their ids and names.
  uint64_t key = mix(kHashSeed, inst.opcode);
  for (uint16_t i = 0; i < inst.num_operands; ++i) {
    const spv_parsed_operand_t &op = inst.operands[i];
    if (op.type == SPV_OPERAND_TYPE_RESULT_ID) continue;
    for (uint16_t j = 0; j < op.num_words; ++j) {
      uint32_t word = inst.words[op.offset + j];
      if (op.type != SPV_OPERAND_TYPE_ID) key = mix(key, word);
      else if (uint64_t k = s.global_keys.get(word); k != 0) key = mix(key, k);
      else key = mix(key, hash_string(type_name(s, word))); // a forward-declared struct
    }
  }
  t.key = key == 0 ? 1 : key;
  s.global_keys[inst.result_id] = t.key;
  s.types[inst.result_id] = std::move(t);
}

namespace {

std::string literal_value(const ParseState &s, const spv_parsed_instruction_t &inst) {
  const TypeInfo &t = s.types.get(inst.type_id);
  if (inst.num_words < 4) return "?";
  uint64_t bits = inst.words[3];
  if (inst.num_words >= 5) bits |= uint64_t{inst.words[4]} << 32;
  if (t.name == "float") return fmt::format("{}", std::bit_cast<float>(inst.words[3]));
  if (t.name == "double") return fmt::format("{}", std::bit_cast<double>(bits));
  if (t.name == "half") return fmt::format("half({:#06x})", inst.words[3] & 0xffffu);
  if (t.int_width > 0 && t.int_width < 64) {
    // Sign-extend from the type's width: OpenCL SPIR-V integers carry no signedness.
    int64_t v = static_cast<int64_t>(bits << (64 - t.int_width)) >> (64 - t.int_width);
    return fmt::format("{}", v);
  }
  return fmt::format("{}", static_cast<int64_t>(bits));
}

} // namespace

void on_constant(ParseState &s, const spv_parsed_instruction_t &inst) {
  uint64_t key = mix(mix(kHashSeed, inst.opcode), s.global_keys.get(inst.type_id));
  for (uint16_t i = 3; i < inst.num_words; ++i) {
    uint64_t k = s.global_keys.get(inst.words[i]);
    key = mix(key, k != 0 ? k : inst.words[i]);
  }
  s.global_keys[inst.result_id] = key == 0 ? 1 : key;
  s.value_types[inst.result_id] = inst.type_id;
  if (inst.opcode == OpConstant && inst.num_words == 4) {
    // Arrays print their length through this: "[16 x float]".
    s.names.emplace(inst.result_id, literal_value(s, inst));
  }
  bool spec = inst.opcode >= OpSpecConstantTrue && inst.opcode <= OpSpecConstantOp;
  auto id = s.spec_ids.find(inst.result_id);
  if (!spec || id == s.spec_ids.end()) return;
  SpecConstant c{id->second, inst.result_id, type_name(s, inst.type_id), ""};
  switch (inst.opcode) {
  case OpSpecConstantTrue: c.default_value = "true"; break;
  case OpSpecConstantFalse: c.default_value = "false"; break;
  case OpSpecConstant: c.default_value = literal_value(s, inst); break;
  default: c.default_value = "composite"; break;
  }
  s.info.spec_constants.push_back(std::move(c));
}

void on_variable(ParseState &s, const spv_parsed_instruction_t &inst) {
  s.value_types[inst.result_id] = inst.type_id;
  uint64_t key = mix(mix(kHashSeed, OpVariable), s.global_keys.get(inst.type_id));
  if (inst.num_words >= 5) key = mix(key, s.global_keys.get(inst.words[4])); // initializer
  auto link = s.linkage.find(inst.result_id);
  auto name = s.names.find(inst.result_id);
  if (link != s.linkage.end()) key = mix(key, hash_string(link->second.name));
  else if (name != s.names.end()) key = mix(key, hash_string(name->second));
  s.global_keys[inst.result_id] = key == 0 ? 1 : key;
  s.variables.push_back(inst.result_id);
}

std::string symbol_type(const ParseState &s, uint32_t id, SymbolKind kind) {
  if (kind == SymbolKind::Function) {
    const int32_t index = s.function_index.get(id);
    return index > 0 ? type_name(s, s.functions[size_t(index - 1)].type_id) : "?";
  }
  // A variable's type is a pointer; show what it points to, in its address space.
  std::string pointer = type_name(s, s.value_types.get(id));
  return pointer.ends_with("*") ? pointer.substr(0, pointer.size() - 1) : pointer;
}

} // namespace zeal::module_linker::detail
