// Stand-in for UR's device_code/usm_ll.cpp: single_task<class linkedlist> capturing [=] the head
// s_head of a linked list of Node (a pointer to the next Node, then a uint32_t) in shared USM,
// that replaces each node's Num with Num * 2 + 1. The nodes' links are generic pointers, as
// in DPC++'s device code.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E10linkedlist

struct Node {
  struct Node *pNext;
  uint Num;
};

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E10linkedlist(global struct Node *s_head) {
  struct Node *pHead = s_head;
  while (pHead) {
    pHead->Num = pHead->Num * 2 + 1;
    pHead = pHead->pNext;
  }
}
