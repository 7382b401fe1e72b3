// The guard in front of LLVMSPIRVLib, which asserts instead of failing: the SPIR-V structure it trusts, checked first.
#include "spirv_frontend/translator_guard_ids.hpp"

#include "spirv/newer.hpp"

#include <fmt/format.h>
#include <spirv-tools/libspirv.h>

#include <cstring>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace zeal::frontend {
namespace {

bool is_terminator(uint32_t opcode) {
  return (opcode >= spv::OpBranch && opcode <= spv::OpUnreachable) || opcode == spv::OpTerminateInvocation;
}

Status check_version(uint32_t version) {
  uint32_t major = (version >> 16) & 0xff;
  uint32_t minor = (version >> 8) & 0xff;
  if ((version & 0xff0000ffu) != 0 || major == 0) {
    return invalid_binary(fmt::format("the SPIR-V version word 0x{:08x} is not a valid version number", version));
  }
  if (major == 1 && (minor == 5 || minor == 6)) { // legalize_for_translator read the others as 1.4
    return build_failure(fmt::format("the module is SPIR-V 1.{} and uses the Vulkan memory model, which this "
                                     "driver's SPIR-V reader (LLVMSPIRVLib 15) cannot read", minor));
  }
  if (major != 1 || minor > 6) {
    return build_failure(fmt::format(
        "the module is SPIR-V {}.{}, which this driver cannot read: it accepts SPIR-V 1.0 to 1.6", major, minor));
  }
  return {};
}

Status check_header(std::span<const uint32_t> words) {
  if (words[0] != spv::MagicNumber) {
    if (words[0] == __builtin_bswap32(spv::MagicNumber)) {
      return invalid_binary("the SPIR-V binary is big-endian, which this driver does not read");
    }
    return invalid_binary(fmt::format(
        "the binary does not start with the SPIR-V magic number 0x{:08x} (it starts with 0x{:08x})", spv::MagicNumber,
        words[0]));
  }
  if (Status version = check_version(words[1]); !version) return version;
  if (words[3] == 0) return invalid_binary("the SPIR-V header declares an id bound of 0");
  if (words[4] != 0) {
    return invalid_binary(fmt::format("the SPIR-V header's reserved schema word is {}, not 0", words[4]));
  }
  return {};
}

// Every instruction fits in the stream, so the structure walk can index freely.
Status check_word_counts(std::span<const uint32_t> words) {
  if (words.size() == header_words) return invalid_binary("the SPIR-V module holds no instructions after its header");
  for (const spirv::Instruction &i : spirv::instructions(words)) {
    if (i.cut && i.count == 0) {
      return invalid_binary(
          fmt::format("the SPIR-V instruction at word {} (opcode {}) has a word count of 0", i.at, i.opcode));
    }
    if (i.cut) {
      return invalid_binary(fmt::format(
          "the SPIR-V binary is truncated: the instruction at word {} (opcode {}) needs {} words but only {} remain",
          i.at, i.opcode, i.count, words.size() - i.at));
    }
  }
  return {};
}

// Functions open and close, blocks end in a terminator, and every entry point
// and call names a function of the module: a module cut short at an
// instruction boundary fails one of these.
class StructureCheck {
public:
  explicit StructureCheck(std::span<const uint32_t> words) : words_(words), bound_(words[3]) {}

  Status run() {
    for (const spirv::Instruction &i : spirv::instructions(words_)) {
      if (Status step = visit(i.at, i.opcode, i.words); !step) return step;
    }
    if (in_function_) return invalid_binary("the SPIR-V binary is truncated: its last function has no OpFunctionEnd");
    if (memory_models_ != 1) {
      return invalid_binary(
          fmt::format("the SPIR-V module has {} OpMemoryModel instructions instead of 1", memory_models_));
    }
    for (uint32_t id : referenced_functions_) {
      if (!functions_.contains(id)) {
        return invalid_binary(fmt::format("the SPIR-V module refers to function %{}, which it does not contain", id));
      }
    }
    return {};
  }

private:
  Status operands(size_t at, std::span<const uint32_t> inst, size_t needed) {
    if (inst.size() >= needed) return {};
    return invalid_binary(fmt::format("the SPIR-V instruction at word {} (opcode {}) has {} words, fewer than its {}",
                                      at, inst[0] & 0xffff, inst.size(), needed));
  }

  Status visit(size_t at, uint32_t opcode, std::span<const uint32_t> inst) {
    // Between OpFunction and its first block only parameters stand (the translator asserts on anything else).
    if (in_header_ && opcode != spv::OpFunctionParameter && opcode != spv::OpLabel && opcode != spv::OpFunctionEnd &&
        opcode != spv::OpLine && opcode != spv::OpNoLine) {
      return misplaced(at, "an instruction among a function's parameters");
    }
    switch (opcode) {
    case spv::OpMemoryModel: ++memory_models_; return {};
    case spv::OpEntryPoint:
      if (Status ok = operands(at, inst, 4); !ok) return ok;
      referenced_functions_.push_back(inst[2]);
      return {};
    case spv::OpFunction:
      if (Status ok = operands(at, inst, 5); !ok) return ok;
      if (in_function_) return misplaced(at, "OpFunction inside a function");
      if (inst[2] == 0 || inst[2] >= bound_) return misplaced(at, "a function id outside the id bound");
      in_function_ = true;
      in_header_ = true;
      functions_.insert(inst[2]);
      return {};
    case spv::OpFunctionEnd:
      if (!in_function_ || in_block_) return misplaced(at, "OpFunctionEnd outside a function or inside a block");
      in_function_ = false;
      in_header_ = false;
      return {};
    case spv::OpFunctionCall:
      if (Status ok = operands(at, inst, 4); !ok) return ok;
      referenced_functions_.push_back(inst[3]);
      break;
    case spv::OpLabel:
      if (!in_function_ || in_block_) {
        return misplaced(at, "OpLabel outside a function or inside an unterminated block");
      }
      in_block_ = true;
      in_header_ = false;
      return {};
    default: break;
    }
    if (is_terminator(opcode)) {
      if (!in_block_) return misplaced(at, "a block terminator outside a block");
      in_block_ = false;
    }
    return {};
  }

  Error misplaced(size_t at, const char *what) {
    return invalid_binary(fmt::format("the SPIR-V module is malformed: {} at word {}", what, at));
  }

  std::span<const uint32_t> words_;
  uint32_t bound_;
  bool in_function_ = false;
  bool in_header_ = false; // between OpFunction and its first OpLabel
  bool in_block_ = false;
  int memory_models_ = 0;
  std::unordered_set<uint32_t> functions_;
  std::vector<uint32_t> referenced_functions_;
};

// Operands of non-semantic extended instructions (debug info) name types and strings freely.
bool loose_operands(const spv_parsed_instruction_t *inst) {
  return inst->opcode == spv::OpExtInst && inst->ext_inst_type != SPV_EXT_INST_TYPE_OPENCL_STD;
}

// A memory access operand with the Aligned bit carries an alignment, which LLVM needs a power of two.
Status check_memory_access(const spv_parsed_instruction_t *inst, uint16_t i, uint32_t at) {
  const spv_parsed_operand_t &operand = inst->operands[i];
  if (operand.type != SPV_OPERAND_TYPE_MEMORY_ACCESS && operand.type != SPV_OPERAND_TYPE_OPTIONAL_MEMORY_ACCESS) {
    return {};
  }
  if ((inst->words[operand.offset] & spv::MemoryAccessAlignedMask) == 0 || i + 1 >= inst->num_operands) return {};
  uint32_t alignment = inst->words[inst->operands[i + 1].offset];
  if (alignment != 0 && (alignment & (alignment - 1)) == 0) return {};
  return invalid_binary(fmt::format("the SPIR-V instruction at word {} (opcode {}) has a memory alignment of {}, "
                                    "which is not a power of 2", at, inst->opcode, alignment));
}

// The bytes after a literal string's terminating nul are nul too: the translator asserts they are.
Status check_string_padding(const spv_parsed_instruction_t *inst, const spv_parsed_operand_t &operand, uint32_t at) {
  if (operand.type != SPV_OPERAND_TYPE_LITERAL_STRING || operand.num_words == 0) return {};
  uint32_t last = inst->words[operand.offset + operand.num_words - 1];
  bool ended = false;
  for (int byte = 0; byte < 4; ++byte) {
    char c = char((last >> (8 * byte)) & 0xff);
    if (ended && c != '\0') {
      return invalid_binary(fmt::format("the SPIR-V instruction at word {} (opcode {}) has a string operand with "
                                        "bytes after its terminating nul", at, inst->opcode));
    }
    ended = ended || c == '\0';
  }
  return {};
}

spv_result_t collect_ids(void *user, const spv_parsed_instruction_t *inst) {
  auto &ids = *static_cast<IdCheck *>(user);
  auto at = uint32_t(inst->words - ids.base);
  for (uint16_t i = 0; i < inst->num_operands; ++i) {
    const spv_parsed_operand_t &operand = inst->operands[i];
    uint32_t id = inst->words[operand.offset];
    switch (operand.type) {
    case SPV_OPERAND_TYPE_RESULT_ID:
      if (id >= ids.bound || !ids.defined.emplace(id, Definition{inst->opcode, inst->type_id, at}).second) {
        ids.problem = fmt::format("the SPIR-V module defines id %{} twice or beyond its id bound {}", id, ids.bound);
        return SPV_ERROR_INVALID_ID;
      }
      break;
    case SPV_OPERAND_TYPE_ID:
    case SPV_OPERAND_TYPE_TYPE_ID:
    case SPV_OPERAND_TYPE_SCOPE_ID:
    case SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID:
      ids.used.push_back({at, id, inst->opcode, operand.offset, operand.type, loose_operands(inst)});
      break;
    default:
      Status ok = check_memory_access(inst, i, at);
      if (ok) ok = check_string_padding(inst, operand, at);
      if (!ok) {
        ids.problem = std::move(ok).error().log;
        return SPV_ERROR_INVALID_BINARY;
      }
      break;
    }
  }
  return SPV_SUCCESS;
}

// SPIRV-Tools' sentence; an unknown capability is named, and is a feature this driver lacks, not bad input.
Error parse_failure(const std::string &message) {
  if (std::optional<uint32_t> capability = spirv::unknown_capability(message)) {
    return build_failure(fmt::format("the module declares {}, which this driver's SPIR-V tools (SPIRV-Tools "
                                     "2023.1) do not know", spirv::capability_name(*capability)));
  }
  return invalid_binary(fmt::format("the SPIR-V binary could not be parsed: {}", message));
}

// Operand-level parse (opcodes, operand counts and kinds) without the full
// validator, which refuses modules llvm-spirv really produces (an
// OpCompositeExtract of lane 3 for get_global_id(3)), then the type checks.
Status check_ids(std::span<const uint32_t> module) {
  static const spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_4); // immutable, shared by threads
  // The bfloat16 conversions, as SPIRV-Tools can parse them.
  std::vector<uint32_t> view = spirv::spirv_tools_view(module);
  std::span<const uint32_t> words = view.empty() ? module : std::span<const uint32_t>(view);
  IdCheck ids;
  ids.base = words.data();
  ids.bound = words[3];
  if (!view.empty()) { // the module has bfloat16 conversions: where they are
    for (const spirv::Instruction &i : spirv::instructions(module)) {
      if (i.opcode == spirv::op_convert_f_to_bf16 || i.opcode == spirv::op_convert_bf16_to_f) {
        ids.bfloat16_conversions.emplace_back(uint32_t(i.at), i.opcode == spirv::op_convert_f_to_bf16);
      }
    }
  }
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result =
      spvBinaryParse(context, &ids, words.data(), words.size(), nullptr, collect_ids, &diagnostic);
  std::string message = diagnostic && diagnostic->error ? diagnostic->error : "";
  spvDiagnosticDestroy(diagnostic);
  if (!ids.problem.empty()) return invalid_binary(ids.problem);
  if (result != SPV_SUCCESS) return parse_failure(message);
  for (const Use &use : ids.used) {
    if (!ids.defined.contains(use.id)) {
      return invalid_binary(fmt::format("the SPIR-V module uses id %{}, which it never defines", use.id));
    }
  }
  return check_types(words, ids);
}

// LLVMSPIRVLib exits the process on an extension it does not know (and
// knows only those it implements), so they are refused here with their name.
Status check_extensions(std::span<const uint32_t> words) {
  static const std::unordered_set<std::string_view> known = {
#define EXT(X) #X,
#include <LLVMSPIRVLib/LLVMSPIRVExtensions.inc>
#undef EXT
  };
  for (const spirv::Instruction &i : spirv::instructions(words)) {
    if (i.opcode == spv::OpFunction) break;
    if (i.opcode != spv::OpExtension) continue;
    std::string name = spirv::literal_string(i.words.subspan(1));
    if (!known.contains(name)) {
      return build_failure(fmt::format("the module uses SPIR-V extension '{}', which this driver's SPIR-V reader "
                                       "(LLVMSPIRVLib 15) does not implement", name));
    }
  }
  return {};
}

} // namespace

Status check_translator_input(std::span<const uint8_t> spirv) {
  if (spirv.empty()) return invalid_binary("the SPIR-V binary is empty");
  if (spirv.size() % 4 != 0) {
    return invalid_binary(
        fmt::format("the SPIR-V binary is {} bytes long, which is not a multiple of 4", spirv.size()));
  }
  if (spirv.size() < header_words * 4) {
    return invalid_binary(
        fmt::format("the SPIR-V binary is {} bytes long, shorter than the 20-byte SPIR-V header", spirv.size()));
  }
  std::vector<uint32_t> words(spirv.size() / 4); // copied: the input need not be 4-byte aligned
  std::memcpy(words.data(), spirv.data(), spirv.size());
  if (Status header = check_header(words); !header) return header;
  if (Status counts = check_word_counts(words); !counts) return counts;
  if (Status structure = StructureCheck(words).run(); !structure) return structure;
  if (Status extensions = check_extensions(words); !extensions) return extensions;
  return check_ids(words);
}

} // namespace zeal::frontend
