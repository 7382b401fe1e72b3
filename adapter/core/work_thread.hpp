// One thread that handles posted items in order, one at a time: the shape of the event watcher and of a queue's
// host tasks.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace zeal::adapter {

template <class Item>
class WorkThread {
public:
  // At destruction, the items not yet taken are dropped, or handled before the thread ends.
  enum class AtStop { kDrop, kDrain };

  // `handle(item)` runs on the thread for each item, in the order they were posted.
  WorkThread(AtStop at_stop, std::function<void(Item &)> handle)
      : at_stop_(at_stop), handle_(std::move(handle)), thread_([this] { run(); }) {}
  ~WorkThread() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  WorkThread(const WorkThread &) = delete;
  WorkThread &operator=(const WorkThread &) = delete;

  void post(Item item) {
    {
      std::lock_guard lock(mutex_);
      items_.push_back(std::move(item));
    }
    wake_.notify_one();
  }

  // Whether the thread is being stopped: a handler that waits a long time asks between slices of its wait.
  bool stopping() {
    std::lock_guard lock(mutex_);
    return stopping_;
  }

private:
  void run() {
    for (;;) {
      Item item;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || !items_.empty(); });
        if (stopping_ && (at_stop_ == AtStop::kDrop || items_.empty())) return;
        item = std::move(items_.front());
        items_.pop_front();
      }
      handle_(item);
    }
  }

  const AtStop at_stop_;
  const std::function<void(Item &)> handle_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Item> items_;
  bool stopping_ = false;
  std::thread thread_; // last: it starts once everything it uses is made
};

} // namespace zeal::adapter
