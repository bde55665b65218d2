/*
 * dtpp's D library: block I/O as DTrace describes it (bufinfo_t, devinfo_t), translated from
 * Linux's struct bio through the kernel's BTF, and the B_* flags of b_flags.
 */

inline int B_BUSY = 0x000001;
inline int B_DONE = 0x000002;
inline int B_ERROR = 0x000004;
inline int B_PAGEIO = 0x000010;
inline int B_PHYS = 0x000020;
inline int B_READ = 0x000040;
inline int B_WRITE = 0x000100;
inline int B_ASYNC = 0x000400;

struct bufinfo {
	int b_flags;		/* B_READ or B_WRITE, B_ASYNC ... */
	size_t b_bcount;	/* bytes to transfer */
	uintptr_t b_addr;
	uint64_t b_blkno;	/* first 512-byte sector */
	uint64_t b_lblkno;
	size_t b_resid;
	size_t b_bufsize;
	uintptr_t b_iodone;
	int b_error;		/* the status: 0, or an errno */
	dev_t b_edev;		/* the device: major in bits 20-31, minor in bits 0-19 */
};
typedef struct bufinfo bufinfo_t;

struct devinfo {
	int dev_major;
	int dev_minor;
	int dev_instance;
	char dev_name[32];	/* the disk's name: sda, nvme0n1, vda ... */
	char dev_statname[32];
	char dev_pathname[64];
};
typedef struct devinfo devinfo_t;

/* REQ_OP_WRITE is 1 in the low byte of bi_opf (odd operations write); REQ_SYNC is bit 11. */
translator bufinfo_t < struct bio *B > {
	b_flags = ((B->bi_opf & 1) != 0 ? B_WRITE : B_READ) | ((B->bi_opf & (1 << 11)) != 0 ? 0 : B_ASYNC);
	b_bcount = B->bi_iter.bi_size;
	b_addr = (uintptr_t)B;
	b_blkno = B->bi_iter.bi_sector;
	b_lblkno = B->bi_iter.bi_sector;
	b_resid = 0;
	b_bufsize = B->bi_iter.bi_size;
	b_error = B->bi_status;
	b_edev = B->bi_bdev->bd_dev;
};

translator devinfo_t < struct bio *B > {
	dev_major = B->bi_bdev->bd_dev >> 20;
	dev_minor = B->bi_bdev->bd_dev & 0xfffff;
	dev_instance = 0;
	dev_name = B->bi_bdev->bd_disk->disk_name;
	dev_statname = B->bi_bdev->bd_disk->disk_name;
};
