// A FILE* writing into memory, as the consumer functions write to one: what a test reads back.
#pragma once

#include <stdio.h>

#include <cstdio>
#include <cstdlib>
#include <string>

class memory_file {
 public:
  memory_file() : file_(::open_memstream(&data_, &size_)) {}
  ~memory_file() {
    std::fclose(file_);
    std::free(data_);
  }
  memory_file(const memory_file&) = delete;
  memory_file& operator=(const memory_file&) = delete;

  std::FILE* get() const { return file_; }
  std::string text() {
    std::fflush(file_);
    return std::string(data_, size_);
  }

 private:
  char* data_ = nullptr;
  std::size_t size_ = 0;
  std::FILE* file_;
};
