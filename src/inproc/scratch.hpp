// A clause's scratch memory in the process (alloca(), copyin(), stores through pointers, bcopy(),
// copyinto()): the firing thread's own bytes, so that probes firing on many threads at once take
// no lock, with the kernel engine's bounds and faults.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fault.hpp"

namespace dtpp::inproc::detail {

class scratch {
 public:
  /// The calling thread's scratch memory.
  static scratch& mine() {
    thread_local scratch s;
    return s;
  }

  /// A clause that uses scratch memory starts with none taken and every byte zero. Only the bytes
  /// taken can have been written, so only they are cleared again. The area has scratchsize bytes
  /// of slack before it and after it, nothing else's, so that a pointer gone astray from it is
  /// known as one (check_load).
  void reset(std::size_t size) {
    std::fill_n(bytes_.begin() + static_cast<std::ptrdiff_t>(size_), top_, std::byte{0});  // (a thread's first has no bytes yet)
    top_ = 0;
    if (bytes_.size() < 3 * size) bytes_.resize(3 * size);
    size_ = size;
  }

  /// alloca(size), copyin()'s bytes: the address of `size` bytes (taken rounded up to 8). More
  /// than is left, or a negative size, is DTrace's "out of scratch space".
  std::int64_t take(std::int64_t size) {
    const auto wanted = static_cast<std::uint64_t>(size);
    if (wanted > size_ || top_ + ((wanted + 7) & ~std::uint64_t{7}) > size_)
      throw fault_signal{fault_kind::no_scratch, size};
    const auto at = top_;
    top_ += (wanted + 7) & ~std::uint64_t{7};
    return address(at);
  }

  /// Where `bytes` bytes at `address` (at most scratchsize) may be written: within the bytes
  /// taken, else a fault (check_taken).
  std::byte* writable(std::int64_t at, std::size_t bytes) {
    const auto offset = static_cast<std::uint64_t>(at) - static_cast<std::uint64_t>(address(0));
    check_taken(at, offset, bytes);
    return bytes_.data() + size_ + offset;
  }

  /// A size for bcopy() and copyinto(): at most scratchsize, else "invalid size".
  std::size_t copy_size(std::int64_t size) const {
    if (static_cast<std::uint64_t>(size) > size_) bad_size(size);
    return static_cast<std::size_t>(size);
  }

  /// A load of `bytes` bytes at `at`: one near the area (from scratchsize before it to its slack's
  /// end) must lie within the bytes taken (check_taken), as dtrace-utils checks an alloca()'d
  /// pointer's loads; other addresses are the process's memory.
  void check_load(std::int64_t at, std::size_t bytes) const {
    const auto offset = static_cast<std::uint64_t>(at) - static_cast<std::uint64_t>(address(0));
    if (offset + size_ < 3 * size_) check_taken(at, offset, bytes);
  }

  /// bcopy() from scratch reads only bytes taken: a source range past them is an invalid size.
  /// As in the kernel engine, whose area has scratchsize bytes of slack after it, a source up to
  /// twice scratchsize past the start counts as in scratch.
  void check_source(std::int64_t from, std::size_t bytes) const {
    const auto offset = static_cast<std::uint64_t>(from) - static_cast<std::uint64_t>(address(0));
    if (offset < 2 * size_ && offset + bytes > top_) bad_size(static_cast<std::int64_t>(bytes));
  }

 private:
  // `bytes` bytes at `at`, `offset` bytes into the area, lie within the bytes taken; else an offset
  // outside them (a negative one too, unsigned) is an invalid address and an access running past
  // them an invalid size, as dtrace-utils checks an alloca()'d pointer's accesses.
  void check_taken(std::int64_t at, std::uint64_t offset, std::size_t bytes) const {
    if (offset >= top_) bad_address(at);
    if (offset + bytes > top_) bad_size(static_cast<std::int64_t>(bytes));
  }

  std::int64_t address(std::uint64_t offset) const {
    return static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(bytes_.data()) + size_ + offset);
  }

  std::vector<std::byte> bytes_;
  std::size_t size_ = 0;  // scratchsize, for the clause running
  std::size_t top_ = 0;   // bytes taken, a multiple of 8
};

}  // namespace dtpp::inproc::detail
