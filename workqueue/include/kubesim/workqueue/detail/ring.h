// Ring: a growable FIFO ring buffer of trivially copyable values (slot numbers), the order in
// which a queue hands out its items. Pushing allocates only when the ring doubles.
#ifndef KUBESIM_WORKQUEUE_DETAIL_RING_H_
#define KUBESIM_WORKQUEUE_DETAIL_RING_H_

#include <cassert>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace kubesim::workqueue::internal {

template <class T>
class Ring {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  void push_back(T value) {
    if (size_ == buffer_.size()) grow();
    buffer_[(head_ + size_) & (buffer_.size() - 1)] = value;
    ++size_;
  }

  T front() const {
    assert(size_ > 0);
    return buffer_[head_];
  }

  T pop_front() {
    assert(size_ > 0);
    T value = buffer_[head_];
    head_ = (head_ + 1) & (buffer_.size() - 1);
    --size_;
    return value;
  }

  // The i-th value from the front.
  T operator[](std::size_t i) const { return buffer_[(head_ + i) & (buffer_.size() - 1)]; }

  void clear() {
    head_ = 0;
    size_ = 0;
  }

 private:
  void grow() {
    std::vector<T> bigger(buffer_.empty() ? 64 : buffer_.size() * 2);
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = (*this)[i];
    buffer_.swap(bigger);
    head_ = 0;
  }

  std::vector<T> buffer_;  // size 0 or a power of two
  std::size_t head_ = 0;
  std::size_t size_ = 0;
};

}  // namespace kubesim::workqueue::internal

#endif  // KUBESIM_WORKQUEUE_DETAIL_RING_H_
