// Opening -o FILE safely for a root dtpp: the rules of Linux's fs.protected_symlinks and
// fs.protected_regular, applied by dtpp itself since not every system turns them on.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace dtpp::command {

/// A file opened for appending, or why it could not be.
struct opened_output {
  std::FILE* file = nullptr;
  std::string error;  ///< strerror's words, and the rule that refused the file
};

/// Opens `path` for appending (created with mode 0644, less the umask). In a sticky
/// world-writable directory (/tmp), where anyone may plant a name, it neither follows a symbolic
/// link nor writes to a file that someone other than dtpp's user and the directory's owner owns;
/// FIFOs and devices there are not waited on.
inline opened_output open_output(const std::string& path) {
  const auto fail = [](int e, const char* rule = nullptr) {
    std::string why = std::strerror(e);
    if (rule) why += std::string(": ") + rule + " another user owns in a sticky world-writable directory";
    return opened_output{nullptr, why};
  };
  // The directory is opened once and the file opened in it, so that the directory checked is the
  // one written to.
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.empty()) name = ".";  // "dir/": opening it for writing fails with EISDIR
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  struct stat dir_stat {};
  if (dir_fd < 0 || ::fstat(dir_fd, &dir_stat) != 0) {
    const int e = errno;
    if (dir_fd >= 0) ::close(dir_fd);
    return fail(e);
  }
  const bool shared = (dir_stat.st_mode & S_ISVTX) && (dir_stat.st_mode & S_IWOTH);
  const auto trusted = [&](uid_t owner) { return owner == ::geteuid() || owner == dir_stat.st_uid; };
  int flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC;
  if (shared) {
    flags |= O_NOFOLLOW | O_NONBLOCK;
    // A link one of us owns may be followed: the sticky bit keeps others from replacing it.
    struct stat link {};
    if (::fstatat(dir_fd, name.c_str(), &link, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(link.st_mode)) {
      if (!trusted(link.st_uid)) {
        ::close(dir_fd);
        return fail(EACCES, "a symbolic link");
      }
      flags &= ~O_NOFOLLOW;
    }
  }
  const int fd = ::openat(dir_fd, name.c_str(), flags, 0644);
  const int open_error = errno;
  ::close(dir_fd);
  if (fd < 0) return fail(open_error == ELOOP && shared ? EACCES : open_error,
                          open_error == ELOOP && shared ? "a symbolic link" : nullptr);
  if (shared) {
    struct stat file {};
    if (::fstat(fd, &file) != 0 || !trusted(file.st_uid)) {
      ::close(fd);
      return fail(EACCES, "a file");
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  }
  std::FILE* file = ::fdopen(fd, "a");
  if (!file) {
    const int e = errno;
    ::close(fd);
    return fail(e);
  }
  return {file, ""};
}

}  // namespace dtpp::command
