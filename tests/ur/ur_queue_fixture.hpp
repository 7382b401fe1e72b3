// The UrQueue fixture of the queue tests (ur_queue_test.cpp: queues, USM, copies and fills, pools, virtual memory;
// ur_queue_order_test.cpp: ordering, events and host work): a context, an in-order queue and helpers.
#pragma once

#include "ur_fixture.hpp"

namespace zeal_ur_test {

class UrQueue : public UrQueueFace {
protected:
  ur_queue_handle_t make_queue(ur_queue_flags_t flags) {
    ur_queue_properties_t props{UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, nullptr, flags};
    ur_queue_handle_t q = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urQueueCreate(context, device, &props, &q));
    return q;
  }
  ur_result_t create_queue(ur_queue_flags_t flags) {
    ur_queue_properties_t props{UR_STRUCTURE_TYPE_QUEUE_PROPERTIES, nullptr, flags};
    ur_queue_handle_t q = nullptr;
    ur_result_t r = urQueueCreate(context, device, &props, &q);
    if (q != nullptr) urQueueRelease(q);
    return r;
  }
  template <class T>
  T queue_info(ur_queue_handle_t q, ur_queue_info_t key) {
    return info_value<T>([&](size_t size, void *value, size_t *ret) { return urQueueGetInfo(q, key, size, value, ret); });
  }
  template <class T>
  T event_info(ur_event_handle_t e, ur_event_info_t key) {
    return info_value<T>([&](size_t size, void *value, size_t *ret) { return urEventGetInfo(e, key, size, value, ret); });
  }
  void *shared(size_t size) {
    void *p = nullptr;
    EXPECT_EQ(UR_RESULT_SUCCESS, urUSMSharedAlloc(context, device, nullptr, nullptr, size, &p));
    return p;
  }
};

} // namespace zeal_ur_test
