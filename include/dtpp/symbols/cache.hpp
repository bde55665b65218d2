// The symbol tables of a run: each ELF object read once (by path and build-id), and each
// process's mappings kept once read, so that a process's frames are still named after it exits
// (a -c command's stacks are printed when the run ends).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "dtpp/symbols/object.hpp"
#include "dtpp/symbols/process_maps.hpp"

namespace dtpp::symbols {

/// Thread-safe. Defined in src/symbols/cache.cpp.
class cache {
 public:
  /// The object at `path`, read the first time it is asked for with the build-id the file has
  /// now (a rebuilt file is read again); the reference lasts as long as the cache.
  const object& object_at(const std::string& path);

  /// Reads process `pid`'s mappings now and keeps them (with their objects read), replacing
  /// what was kept unless the process is gone. Call it before a process exits to name its
  /// frames afterwards.
  void remember(std::int64_t pid);

  /// A user program counter of `pid` as dtrace(1) prints a ustack() frame:
  /// "libc.so.6`__write+0x14", "a.out`ns::f(int)" (at a function's first byte), "libc.so.6`0x7f..."
  /// (in a mapping, no function there), "0x..." (nothing known); unresolved (-x noresolve), as
  /// dtrace-utils prints it, the offset into the mapping holding it: "libc.so.6:0x28d14". Maps
  /// are read again when `pc` is in none of those kept, as when a library was loaded since.
  std::string frame(std::int64_t pid, std::uint64_t pc);

  /// Where `pc` of `pid` is: the object's basename (empty when in no file mapping), the address in
  /// the process where that object is loaded, the mapping holding pc, and the function holding
  /// pc, if any.
  struct place {
    std::string module;
    std::uint64_t load_base = 0;
    std::uint64_t mapping_start = 0;
    const function* holder = nullptr;
    std::uint64_t function_start = 0;  ///< the holder's first byte in the process
  };
  place locate(std::int64_t pid, std::uint64_t pc);

  /// Names frames by their mangled C++ names (-x mangled) rather than demangled.
  void name_mangled(bool on);
  /// Names no functions in frames (-x noresolve), only objects and offsets.
  void name_unresolved(bool on);

  /// Every object read so far (for tests: each file once).
  std::size_t objects_read() const;

 private:
  struct process {
    std::vector<mapping> maps;
    std::vector<const object*> objects;  ///< per mapping, resolved once; null for no file
  };
  const object& object_locked(const std::string& path);
  const process& remember_locked(std::int64_t pid);

  mutable std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, std::unique_ptr<object>> objects_;  ///< by path, build-id
  std::map<std::int64_t, process> processes_;
  std::size_t reads_ = 0;
  std::atomic<bool> mangled_ = false;
  std::atomic<bool> unresolved_ = false;
};

/// The cache the whole program shares: the stack printer's, and the one a command fills before
/// its -c child exits.
cache& shared_cache();

}  // namespace dtpp::symbols
