// WaitList and WaitNode: an intrusive doubly-linked list of waiters, the building block of every
// sim primitive and of primitives built on sim elsewhere (workqueue's Queue).
//
// A WaitNode lives inside an awaiter (in a coroutine frame); it is linked into the list of the
// primitive it waits on. Nodes unlink themselves when destroyed, and a list detaches its nodes
// when it is destroyed, so either side may go first. Nodes are served in the order they were
// pushed; fire_all() fires only the nodes linked when it starts. No allocation. Single-threaded:
// loop thread only.
#ifndef KUBESIM_SIM_WAIT_LIST_H_
#define KUBESIM_SIM_WAIT_LIST_H_

#include <cassert>

namespace kubesim::sim {

class WaitList;

class WaitNode {
 public:
  WaitNode() = default;
  WaitNode(const WaitNode&) = delete;
  WaitNode& operator=(const WaitNode&) = delete;
  virtual ~WaitNode() { unlink(); }

  // Called by the owner of the list after it has unlinked this node.
  virtual void fire() = 0;

  bool linked() const { return list_ != nullptr; }
  inline void unlink();

 private:
  friend class WaitList;
  WaitList* list_ = nullptr;
  WaitNode* prev_ = nullptr;
  WaitNode* next_ = nullptr;
};

class WaitList {
 public:
  WaitList() = default;
  WaitList(const WaitList&) = delete;
  WaitList& operator=(const WaitList&) = delete;
  ~WaitList() {
    while (head_ != nullptr) pop_front();
  }

  bool empty() const { return head_ == nullptr; }

  void push_back(WaitNode* node) {
    assert(node->list_ == nullptr);
    node->list_ = this;
    node->prev_ = tail_;
    node->next_ = nullptr;
    if (tail_ != nullptr) {
      tail_->next_ = node;
    } else {
      head_ = node;
    }
    tail_ = node;
  }

  WaitNode* front() const { return head_; }

  // Unlinks and returns the first node (nullptr when empty).
  WaitNode* pop_front() {
    WaitNode* node = head_;
    if (node != nullptr) remove(node);
    return node;
  }

  // Unlinks every node, oldest first, and fires it. Nodes linked by a fire() are not fired.
  void fire_all() {
    WaitNode* stop = tail_;
    while (head_ != nullptr) {
      WaitNode* node = pop_front();
      bool last = node == stop;
      node->fire();
      if (last) break;
    }
  }

  void remove(WaitNode* node) {
    assert(node->list_ == this);
    if (node->prev_ != nullptr) {
      node->prev_->next_ = node->next_;
    } else {
      head_ = node->next_;
    }
    if (node->next_ != nullptr) {
      node->next_->prev_ = node->prev_;
    } else {
      tail_ = node->prev_;
    }
    node->list_ = nullptr;
    node->prev_ = node->next_ = nullptr;
  }

 private:
  WaitNode* head_ = nullptr;
  WaitNode* tail_ = nullptr;
};

inline void WaitNode::unlink() {
  if (list_ != nullptr) list_->remove(this);
}

}  // namespace kubesim::sim

#endif  // KUBESIM_SIM_WAIT_LIST_H_
