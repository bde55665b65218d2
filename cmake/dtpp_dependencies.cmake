# Every third-party dependency, found once, as imported targets.

find_package(Boost 1.74 REQUIRED)  # header-only parts: Spirit X3, Hana -> Boost::headers
find_package(Threads REQUIRED)
# JSON output (-x oformat=json, the handle's JSON documents): nlohmann-json3-dev, header-only.
find_package(nlohmann_json 3.10 REQUIRED)  # nlohmann_json::nlohmann_json

# The kernel shim will link these; found now so a missing package fails at configure time.
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBBPF REQUIRED IMPORTED_TARGET libbpf)  # PkgConfig::LIBBPF
pkg_check_modules(LIBELF REQUIRED IMPORTED_TARGET libelf)  # PkgConfig::LIBELF
# MiniDebugInfo (.gnu_debugdata) is xz-compressed: liblzma-dev.
pkg_check_modules(LIBLZMA REQUIRED IMPORTED_TARGET liblzma)  # PkgConfig::LIBLZMA

if(DTPP_TESTS)
  # Catch2 2.13 (Debian 12). Its package config puts Catch.cmake on CMAKE_MODULE_PATH.
  find_package(Catch2 2 REQUIRED)
  include(Catch)
endif()

if(DTPP_BENCH)
  find_package(benchmark REQUIRED)
endif()
