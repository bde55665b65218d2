#!/bin/sh
# io_start_file's workload: writes 256 KiB to a new file and syncs it, where /var/tmp is a
# block device's ext4 file system (elsewhere no request may name the file, or its fi_fs differs).
dir=$(mktemp -d /var/tmp/dtpp-io.XXXXXX) || exit 1
case $(stat -f -c %T "$dir") in
  ext2/ext3) dd if=/dev/zero of="$dir/dtpp-io-file" bs=64k count=4 conv=fsync status=none ;;
  *) echo "dtpp-kernel-skip: /var/tmp is $(stat -f -c %T "$dir"), not ext4 on a block device" ;;
esac
rm -r "$dir"
