// D's library constants, as DTrace's errno.d, signal.d, its fault codes and its built-in NULL
// declare them (inline int EIO = 5; ...): the names every D script may use, with this system's
// values.

#include <cerrno>
#include <csignal>
#include <span>
#include <string_view>

#include "checker.hpp"

namespace dtpp::d::detail {

namespace {

struct library_inline {
  const char* name;
  int value;
};

// The names dtrace-utils generates from <errno.h> and <signal.h> (without SIGRTMIN, SIGRTMAX and
// the SIG_ and SIGEV_ macros, which are not signals).
constexpr library_inline errno_names[] = {
    {"EPERM", EPERM}, {"ENOENT", ENOENT}, {"ESRCH", ESRCH}, {"EINTR", EINTR}, {"EIO", EIO},
    {"ENXIO", ENXIO}, {"E2BIG", E2BIG}, {"ENOEXEC", ENOEXEC}, {"EBADF", EBADF},
    {"ECHILD", ECHILD}, {"EAGAIN", EAGAIN}, {"ENOMEM", ENOMEM}, {"EACCES", EACCES},
    {"EFAULT", EFAULT}, {"ENOTBLK", ENOTBLK}, {"EBUSY", EBUSY}, {"EEXIST", EEXIST},
    {"EXDEV", EXDEV}, {"ENODEV", ENODEV}, {"ENOTDIR", ENOTDIR}, {"EISDIR", EISDIR},
    {"EINVAL", EINVAL}, {"ENFILE", ENFILE}, {"EMFILE", EMFILE}, {"ENOTTY", ENOTTY},
    {"ETXTBSY", ETXTBSY}, {"EFBIG", EFBIG}, {"ENOSPC", ENOSPC}, {"ESPIPE", ESPIPE},
    {"EROFS", EROFS}, {"EMLINK", EMLINK}, {"EPIPE", EPIPE}, {"EDOM", EDOM}, {"ERANGE", ERANGE},
    {"EDEADLK", EDEADLK}, {"ENAMETOOLONG", ENAMETOOLONG}, {"ENOLCK", ENOLCK}, {"ENOSYS", ENOSYS},
    {"ENOTEMPTY", ENOTEMPTY}, {"ELOOP", ELOOP}, {"EWOULDBLOCK", EWOULDBLOCK}, {"ENOMSG", ENOMSG},
    {"EIDRM", EIDRM}, {"ECHRNG", ECHRNG}, {"EL2NSYNC", EL2NSYNC}, {"EL3HLT", EL3HLT},
    {"EL3RST", EL3RST}, {"ELNRNG", ELNRNG}, {"EUNATCH", EUNATCH}, {"ENOCSI", ENOCSI},
    {"EL2HLT", EL2HLT}, {"EBADE", EBADE}, {"EBADR", EBADR}, {"EXFULL", EXFULL},
    {"ENOANO", ENOANO}, {"EBADRQC", EBADRQC}, {"EBADSLT", EBADSLT}, {"EDEADLOCK", EDEADLOCK},
    {"EBFONT", EBFONT}, {"ENOSTR", ENOSTR}, {"ENODATA", ENODATA}, {"ETIME", ETIME},
    {"ENOSR", ENOSR}, {"ENONET", ENONET}, {"ENOPKG", ENOPKG}, {"EREMOTE", EREMOTE},
    {"ENOLINK", ENOLINK}, {"EADV", EADV}, {"ESRMNT", ESRMNT}, {"ECOMM", ECOMM},
    {"EPROTO", EPROTO}, {"EMULTIHOP", EMULTIHOP}, {"EDOTDOT", EDOTDOT}, {"EBADMSG", EBADMSG},
    {"EOVERFLOW", EOVERFLOW}, {"ENOTUNIQ", ENOTUNIQ}, {"EBADFD", EBADFD}, {"EREMCHG", EREMCHG},
    {"ELIBACC", ELIBACC}, {"ELIBBAD", ELIBBAD}, {"ELIBSCN", ELIBSCN}, {"ELIBMAX", ELIBMAX},
    {"ELIBEXEC", ELIBEXEC}, {"EILSEQ", EILSEQ}, {"ERESTART", ERESTART}, {"ESTRPIPE", ESTRPIPE},
    {"EUSERS", EUSERS}, {"ENOTSOCK", ENOTSOCK}, {"EDESTADDRREQ", EDESTADDRREQ},
    {"EMSGSIZE", EMSGSIZE}, {"EPROTOTYPE", EPROTOTYPE}, {"ENOPROTOOPT", ENOPROTOOPT},
    {"EPROTONOSUPPORT", EPROTONOSUPPORT}, {"ESOCKTNOSUPPORT", ESOCKTNOSUPPORT},
    {"EOPNOTSUPP", EOPNOTSUPP}, {"EPFNOSUPPORT", EPFNOSUPPORT}, {"EAFNOSUPPORT", EAFNOSUPPORT},
    {"EADDRINUSE", EADDRINUSE}, {"EADDRNOTAVAIL", EADDRNOTAVAIL}, {"ENETDOWN", ENETDOWN},
    {"ENETUNREACH", ENETUNREACH}, {"ENETRESET", ENETRESET}, {"ECONNABORTED", ECONNABORTED},
    {"ECONNRESET", ECONNRESET}, {"ENOBUFS", ENOBUFS}, {"EISCONN", EISCONN},
    {"ENOTCONN", ENOTCONN}, {"ESHUTDOWN", ESHUTDOWN}, {"ETOOMANYREFS", ETOOMANYREFS},
    {"ETIMEDOUT", ETIMEDOUT}, {"ECONNREFUSED", ECONNREFUSED}, {"EHOSTDOWN", EHOSTDOWN},
    {"EHOSTUNREACH", EHOSTUNREACH}, {"EALREADY", EALREADY}, {"EINPROGRESS", EINPROGRESS},
    {"ESTALE", ESTALE}, {"EUCLEAN", EUCLEAN}, {"ENOTNAM", ENOTNAM}, {"ENAVAIL", ENAVAIL},
    {"EISNAM", EISNAM}, {"EREMOTEIO", EREMOTEIO}, {"EDQUOT", EDQUOT}, {"ENOMEDIUM", ENOMEDIUM},
    {"EMEDIUMTYPE", EMEDIUMTYPE}, {"ECANCELED", ECANCELED}, {"ENOKEY", ENOKEY},
    {"EKEYEXPIRED", EKEYEXPIRED}, {"EKEYREVOKED", EKEYREVOKED}, {"EKEYREJECTED", EKEYREJECTED},
    {"EOWNERDEAD", EOWNERDEAD}, {"ENOTRECOVERABLE", ENOTRECOVERABLE}, {"ERFKILL", ERFKILL},
    {"EHWPOISON", EHWPOISON}, {"ENOTSUP", ENOTSUP},
};
constexpr library_inline signal_names[] = {
    {"SIGABRT", SIGABRT}, {"SIGALRM", SIGALRM}, {"SIGBUS", SIGBUS}, {"SIGCHLD", SIGCHLD},
    {"SIGCLD", SIGCLD}, {"SIGCONT", SIGCONT}, {"SIGFPE", SIGFPE}, {"SIGHUP", SIGHUP},
    {"SIGILL", SIGILL}, {"SIGINT", SIGINT}, {"SIGIO", SIGIO}, {"SIGIOT", SIGIOT},
    {"SIGKILL", SIGKILL}, {"SIGPIPE", SIGPIPE}, {"SIGPOLL", SIGPOLL}, {"SIGPROF", SIGPROF},
    {"SIGPWR", SIGPWR}, {"SIGQUIT", SIGQUIT}, {"SIGSEGV", SIGSEGV}, {"SIGSTKFLT", SIGSTKFLT},
    {"SIGSTOP", SIGSTOP}, {"SIGSYS", SIGSYS}, {"SIGTERM", SIGTERM}, {"SIGTRAP", SIGTRAP},
    {"SIGTSTP", SIGTSTP}, {"SIGTTIN", SIGTTIN}, {"SIGTTOU", SIGTTOU}, {"SIGURG", SIGURG},
    {"SIGUSR1", SIGUSR1}, {"SIGUSR2", SIGUSR2}, {"SIGVTALRM", SIGVTALRM}, {"SIGWINCH", SIGWINCH},
    {"SIGXCPU", SIGXCPU}, {"SIGXFSZ", SIGXFSZ},
};
// dtrace-utils' regs.d for x86-64: the 64-bit registers in struct pt_regs's order (R_ERR is its
// orig_ax), then the segment registers and trap number pt_regs lacks (read from the task's
// thread_struct), and the 32-bit and generic names as aliases of the 64-bit ones.
constexpr library_inline register_names[] = {
    {"R_R15", 0}, {"R_R14", 1}, {"R_R13", 2}, {"R_R12", 3}, {"R_RBP", 4}, {"R_RBX", 5},
    {"R_R11", 6}, {"R_R10", 7}, {"R_R9", 8}, {"R_R8", 9}, {"R_RAX", 10}, {"R_RCX", 11},
    {"R_RDX", 12}, {"R_RSI", 13}, {"R_RDI", 14}, {"R_ERR", 15}, {"R_RIP", 16}, {"R_CS", 17},
    {"R_RFL", 18}, {"R_RSP", 19}, {"R_SS", 20}, {"R_DS", 21}, {"R_ES", 22}, {"R_FS", 23},
    {"R_GS", 24}, {"R_TRAPNO", 25}, {"R_EBX", 5}, {"R_ECX", 11}, {"R_EDX", 12}, {"R_ESI", 13},
    {"R_EDI", 14}, {"R_EBP", 4}, {"R_EAX", 10}, {"R_EIP", 16}, {"R_EFL", 18}, {"R_ESP", 19},
    {"R_PC", 16}, {"R_FP", 4}, {"R_SP", 19}, {"R_PS", 18}, {"R_R0", 10}, {"R_R1", 5},
};

// The link types pcap() takes (dtrace-utils' pcap.d: libpcap's DLT_* numbers).
constexpr library_inline link_types[] = {{"PCAP_NULL", 0},  {"PCAP_ETHER", 1}, {"PCAP_WIFI", 105},
                                         {"PCAP_PPP", 9},   {"PCAP_IP", 12},   {"PCAP_IPOIB", 242}};

// The address families inet_ntop() takes (dtrace-utils' net.d).
constexpr library_inline address_families[] = {{"AF_INET", 2}, {"AF_INET6", 10}};

// The hardware address types link_ntop() takes (dtrace-utils' net.d, Linux's if_arp.h).
constexpr library_inline hardware_types[] = {{"ARPHRD_ETHER", 1}, {"ARPHRD_INFINIBAND", 32}};

// The fault codes an ERROR clause sees in arg4 (dtrace-utils' faults_defines.h).
constexpr library_inline fault_names[] = {
    {"DTRACEFLT_UNKNOWN", 0},    {"DTRACEFLT_BADADDR", 1},   {"DTRACEFLT_BADALIGN", 2},
    {"DTRACEFLT_ILLOP", 3},      {"DTRACEFLT_DIVZERO", 4},   {"DTRACEFLT_NOSCRATCH", 5},
    {"DTRACEFLT_KPRIV", 6},      {"DTRACEFLT_UPRIV", 7},     {"DTRACEFLT_TUPOFLOW", 8},
    {"DTRACEFLT_BADSTACK", 9},   {"DTRACEFLT_BADSIZE", 10},  {"DTRACEFLT_BADINDEX", 11},
    {"DTRACEFLT_LIBRARY", 1000},
};

}  // namespace

std::optional<type> library_constant(std::string_view name, std::int64_t& value) {
  if (name == "NULL") {  // 0 the size of an int, as DTrace's own NULL (sizeof(NULL) is 4)
    value = 0;
    return int_type();
  }
  for (const auto& table :
       {std::span<const library_inline>(errno_names), std::span<const library_inline>(signal_names),
        std::span<const library_inline>(fault_names), std::span<const library_inline>(register_names),
        std::span<const library_inline>(address_families), std::span<const library_inline>(hardware_types),
        std::span<const library_inline>(link_types)})
    for (const auto& c : table)
      if (name == c.name) {
        value = c.value;
        return int_type();
      }
  return std::nullopt;
}

}  // namespace dtpp::d::detail
