// Threads zeal starts inside an application's process. Each blocks every signal the application may direct at
// the process (SIGINT, SIGTERM, SIGUSR1, ...), so that kill() reaches one of the application's own threads: a
// program that blocks a signal and waits for it with sigwait() gets it, instead of a handler running on one of
// zeal's threads. The signals a thread's own fault raises (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS) stay
// deliverable: the CPU driver turns a kernel's fault into a lost device with them.
#pragma once

#include <csignal>
#include <thread>
#include <utility>

#include <pthread.h>

namespace zeal {

template <class F>
std::thread start_own_thread(F &&body) {
  sigset_t blocked, previous;
  sigfillset(&blocked);
  for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS}) sigdelset(&blocked, fault);
  pthread_sigmask(SIG_BLOCK, &blocked, &previous); // the new thread starts with its creator's mask
  struct Restore {
    const sigset_t *mask;
    ~Restore() { pthread_sigmask(SIG_SETMASK, mask, nullptr); }
  } restore{&previous};
  return std::thread(std::forward<F>(body));
}

} // namespace zeal
