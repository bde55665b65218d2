#!/bin/sh
# symbol_address.sh DTPP KERNEL_CHECK: printf's and printa's %a name a kernel address by its
# symbol, with the offset into it, as dtrace(1) does (the Guide's out/printa.d); an address no
# symbol holds stays hexadecimal. The address is ksys_write's, read from kallsyms (root sees it).
set -u
dtpp=$1 check=$2
why=$("$check")
[ $? -eq 77 ] && { echo "dtpp-kernel-skip: $why"; exit 0; }
address=$(awk '$3 == "ksys_write" && ($2 == "T" || $2 == "t") { print $1; exit }' /proc/kallsyms)
[ -n "$address" ] || { echo "dtpp-kernel-skip: kallsyms has no ksys_write"; exit 0; }
out=$("$dtpp" -q -n "BEGIN { printf(\"%a|%a|%-20a|%a\n\", 0x$address, 0x$address + 5, 0x$address, 0x1234);
                             @[0x$address + 5] = count(); exit(0); } END { printa(\"%a %@d\n\", @); }")
expected='vmlinux`ksys_write|vmlinux`ksys_write+0x5|vmlinux`ksys_write  |0x1234
vmlinux`ksys_write+0x5 1'
echo "$out"
[ "$out" = "$expected" ]
