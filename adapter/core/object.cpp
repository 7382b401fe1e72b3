// The kind names handle errors use, on either face.
#include "adapter/core/object.hpp"

namespace zeal::adapter {

const char *kind_name(Kind kind) {
  switch (kind) {
  case Kind::Adapter: return "adapter";
  case Kind::Platform: return "platform";
  case Kind::Device: return "device";
  case Kind::Context: return "context";
  case Kind::Queue: return "queue";
  case Kind::Program: return "program";
  case Kind::Kernel: return "kernel";
  case Kind::Event: return "event";
  case Kind::Buffer: return "buffer";
  case Kind::UrProgram: return "program"; // what UR calls it
  case Kind::UrKernel: return "kernel";
  case Kind::CommandBuffer: return "command buffer";
  case Kind::BufferCommand: return "command-buffer command";
  case Kind::UsmPool: return "USM pool";
  case Kind::PhysicalMemory: return "physical memory";
  case Kind::Graph: return "graph";
  case Kind::ExecutableGraph: return "executable graph";
  case Kind::Image: return "image";
  case Kind::Sampler: return "sampler";
  case Kind::Dead: break;
  }
  return "object";
}

} // namespace zeal::adapter

