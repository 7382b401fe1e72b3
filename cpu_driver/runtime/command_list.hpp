// Command lists: regular lists record commands for a queue; immediate lists hand each one to their own submission thread.
#pragma once

#include "cpu_driver/runtime/executor.hpp"
#include "cpu_driver/runtime/handles.hpp"

#include <memory>
#include <mutex>
#include <vector>

namespace zeal::cpu {

class Context;

class CommandList : public _ze_command_list_handle_t {
public:
  // `immediate` null: a regular list. Otherwise appends go straight to it. `group`: the queue group's ordinal.
  CommandList(Context &context, std::unique_ptr<Executor> immediate, uint32_t group, bool synchronous);
  ~CommandList();
  CommandList(const CommandList &) = delete;
  CommandList &operator=(const CommandList &) = delete;
  static CommandList *from(ze_command_list_handle_t h) { return static_cast<CommandList *>(h); }

  Context &context() { return context_; }
  bool is_immediate() const { return immediate_ != nullptr; }
  uint32_t group() const { return group_; }

  // Records the command, or on an immediate list submits it (and, when
  // synchronous, waits for it). INVALID_ARGUMENT on a closed regular list.
  ze_result_t append(Command command);
  void close();
  void reset();
  // The commands of a closed regular list, shared with queues that run them (a
  // reset starts a new vector, so running executions keep theirs); null if open.
  Executor::Batch recorded() const;

private:
  Context &context_;
  std::unique_ptr<Executor> immediate_;
  uint32_t group_;
  bool synchronous_;
  mutable std::mutex mutex_;
  std::shared_ptr<std::vector<Command>> commands_;
  bool closed_ = false;
};

// Turns an append's signal and wait handles into a command around `op`, checking them.
ze_result_t make_command(Operation op, ze_event_handle_t signal, uint32_t wait_count, ze_event_handle_t *waits,
                         Command &out);

} // namespace zeal::cpu
