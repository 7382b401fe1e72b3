// Catching the faults of kernel code on the threads that run it, and the lost state they leave a device in.
#include "cpu_driver/runtime/fault.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

#include <csetjmp>
#include <csignal>
#include <mutex>

#include <sys/mman.h>

namespace zeal::cpu {

void DeviceHealth::lose(const std::string &why) {
  std::lock_guard lock(mutex_);
  if (lost_.load(std::memory_order_relaxed)) {
    zeal::logger("zeal-cpu").debug("device '{}': {} (the device was already lost)", device_, why);
    return;
  }
  reason_ = why;
  lost_.store(true, std::memory_order_release);
  zeal::logger("zeal-cpu").error("device '{}': {}; the device is lost: what was queued on it completes without "
                                 "running, and its queues and events report ZE_RESULT_ERROR_DEVICE_LOST",
                                 device_, why);
}

std::string DeviceHealth::reason() const {
  std::lock_guard lock(mutex_);
  return reason_;
}

namespace {

constexpr int caught_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
struct sigaction previous_actions[std::size(caught_signals)];

// Where a fault of the running call lands, and what it was.
struct Catch {
  sigjmp_buf landing;
  int signal = 0;
  int code = 0;
  void *address = nullptr;
};
// Initial-exec: the handler reads it on any thread, the application's too. The
// usual model for a library loaded with dlopen() would make a thread's first
// read allocate its copy with malloc(), which a signal handler must not call
// (the fault may have come in the middle of malloc()).
thread_local Catch *catching __attribute__((tls_model("initial-exec"))) = nullptr;

// The signal's default action, as if the driver had never handled it: the faulting instruction runs again and ends
// the process with the usual core dump; a signal someone sent is sent again.
void take_default_action(int signal, const siginfo_t *info) {
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal, &fallback, nullptr);
  if (info == nullptr || info->si_code <= 0) raise(signal);
}

// Hands a signal that was not a kernel's fault to the handler installed before the driver's.
void pass_on(int signal, siginfo_t *info, void *ucontext) {
  for (size_t i = 0; i < std::size(caught_signals); ++i) {
    if (caught_signals[i] != signal) continue;
    const struct sigaction &before = previous_actions[i];
    if ((before.sa_flags & SA_SIGINFO) != 0 && before.sa_sigaction != nullptr) {
      before.sa_sigaction(signal, info, ucontext);
      return;
    }
    if (before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN) {
      before.sa_handler(signal);
      return;
    }
  }
  take_default_action(signal, info);
}

// Async-signal-safe: reads this thread's landing and jumps there.
void on_fault(int signal, siginfo_t *info, void *ucontext) {
  Catch *c = catching;
  // si_code > 0: raised by an instruction of this thread, not sent by kill(), raise() or sigqueue().
  if (c != nullptr && info != nullptr && info->si_code > 0) {
    catching = nullptr;
    c->signal = signal;
    c->code = info->si_code;
    c->address = info->si_addr;
    siglongjmp(c->landing, 1);
  }
  pass_on(signal, info, ucontext);
}

void install_handlers() {
  struct sigaction action {};
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK; // on the alternate stack: a work-item overflowing its stack faults too
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < std::size(caught_signals); ++i) sigaction(caught_signals[i], &action, &previous_actions[i]);
}

// A stack for the handler of a thread that has none (the driver's threads; a sanitizer gives threads their
// own), so that a fault caused by running out of stack can still be handled. Removed when the thread ends.
class AlternateStack {
public:
  AlternateStack() {
    stack_t current{};
    if (sigaltstack(nullptr, &current) != 0) return;
    present_ = (current.ss_flags & SS_DISABLE) == 0;
    if (present_) return; // the thread's own (a sanitizer's, the application's)
    void *memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return;
    stack_t mine{};
    mine.ss_sp = memory;
    mine.ss_size = bytes;
    if (sigaltstack(&mine, nullptr) != 0) {
      munmap(memory, bytes);
      return;
    }
    memory_ = memory;
    present_ = true;
  }
  ~AlternateStack() {
    if (memory_ == nullptr) return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    munmap(memory_, bytes);
  }
  AlternateStack(const AlternateStack &) = delete;
  AlternateStack &operator=(const AlternateStack &) = delete;
  // Whether the thread has an alternate stack, its own or this one.
  bool present() const { return present_; }

private:
  static constexpr size_t bytes = 64 * 1024;
  void *memory_ = nullptr; // the stack made here, if any
  bool present_ = false;
};
thread_local AlternateStack alternate_stack;

std::string describe(const Catch &c) {
  switch (c.signal) {
  case SIGSEGV:
    if (c.code == SEGV_MAPERR) return fmt::format("it accessed address {}, which is not mapped", c.address);
    if (c.code == SEGV_ACCERR)
      return fmt::format("it accessed address {}, which it may not (read-only memory, or the guard page below a "
                         "work-item's stack, which deep recursion or large private arrays reach)",
                         c.address);
    return "it accessed an address outside the process's memory (a segmentation fault)";
  case SIGBUS: return fmt::format("a bus error at address {}", c.address);
  case SIGFPE:
    if (c.code == FPE_INTDIV || c.code == FPE_INTOVF)
      return "an integer division by zero (or of the smallest integer by -1)";
    return fmt::format("an arithmetic exception (SIGFPE, code {})", c.code);
  case SIGILL:
    return fmt::format("an illegal instruction at {} (a trap in its code, such as unreachable code)", c.address);
  default: return fmt::format("signal {}", c.signal);
  }
}

} // namespace

std::optional<std::string> run_catching_faults(void (*body)(void *context), void *context) {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  (void)alternate_stack.present(); // made at this thread's first call; without one, a stack overflow ends the process
  Catch c;
  Catch *const outer = catching;
  if (sigsetjmp(c.landing, 1) == 0) {
    catching = &c;
    body(context);
    catching = outer;
    return std::nullopt;
  }
  catching = outer; // the handler's jump lands here, with the signal mask as it was at sigsetjmp
  return describe(c);
}

} // namespace zeal::cpu
