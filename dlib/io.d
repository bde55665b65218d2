/*
 * dtpp's D library: block I/O as DTrace describes it (bufinfo_t, devinfo_t, fileinfo_t),
 * translated from Linux's struct request (io:::start and done: the block tracepoints' own) and
 * struct bio through the kernel's BTF, and the B_* flags of b_flags.
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

struct fileinfo {
	char fi_name[256];	/* the file's name, without its directory */
	char fi_dirname[256];
	char fi_pathname[256];
	loff_t fi_offset;	/* -1: not known */
	char fi_fs[32];		/* the file system's type: ext4, xfs ... */
	char fi_mount[256];
	int fi_oflags;
};
typedef struct fileinfo fileinfo_t;

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

/*
 * A request's device is its partition's (part), or its disk's where a request has no partition
 * (a flush). Its data direction and sync flag are in cmd_flags, as in a bio's bi_opf.
 */
translator bufinfo_t < struct request *R > {
	b_flags = ((R->cmd_flags & 1) != 0 ? B_WRITE : B_READ) | ((R->cmd_flags & (1 << 11)) != 0 ? 0 : B_ASYNC);
	b_bcount = R->__data_len;
	b_addr = (uintptr_t)R;
	b_blkno = R->__sector;
	b_lblkno = R->__sector;
	b_resid = 0;
	b_bufsize = R->__data_len;
	b_error = 0;
	b_edev = R->part != NULL ? R->part->bd_dev : R->q->disk->part0->bd_dev;
};

/*
 * The partition's number is the low byte of __bd_flags (BD_PARTNO; read as a byte: its atomic_t's
 * member is named counter, a D keyword); 0 is the whole disk.
 */
translator devinfo_t < struct request *R > {
	dev_major = R->q->disk->major;
	dev_minor = R->part != NULL ? R->part->bd_dev & 0xfffff : R->q->disk->first_minor;
	dev_instance = 0;
	dev_name = R->q->disk->disk_name;
	dev_statname = R->part == NULL || *(uint8_t *)&R->part->__bd_flags == 0 ? stringof(R->q->disk->disk_name) :
	    strjoin(stringof(R->q->disk->disk_name), lltostr(*(uint8_t *)&R->part->__bd_flags));
	dev_pathname = strjoin("/dev/", R->part == NULL || *(uint8_t *)&R->part->__bd_flags == 0 ?
	    stringof(R->q->disk->disk_name) :
	    strjoin(stringof(R->q->disk->disk_name), lltostr(*(uint8_t *)&R->part->__bd_flags)));
};

/*
 * The file a request reads or writes, when its first page is a file's: the page's mapping's
 * inode, named by its first dentry (i_dentry links each dentry's d_u.d_alias). A file system's
 * own blocks (its journal, inode tables: pages of the block device's inode, S_IFBLK)
 * and a request with no data (a flush) have none: "<unknown>", as dtrace-utils says of what it
 * cannot tell. A directory or a path would need d_path, which dtpp does not have yet.
 */
translator fileinfo_t < struct request *R > {
	fi_name = R->bio == NULL || R->bio->bi_vcnt == 0 || R->bio->bi_io_vec->bv_page->mapping == NULL ||
	    ((uintptr_t)R->bio->bi_io_vec->bv_page->mapping & 1) != 0 ||
	    (R->bio->bi_io_vec->bv_page->mapping->host->i_mode & 0170000) == 0060000 ||
	    R->bio->bi_io_vec->bv_page->mapping->host->i_dentry.first == NULL ? "<unknown>" :
	    stringof(((struct dentry *)((uintptr_t)R->bio->bi_io_vec->bv_page->mapping->host->i_dentry.first -
	    offsetof(struct dentry, d_u)))->d_name.name);
	fi_dirname = "<unknown>";
	fi_pathname = "<unknown>";
	fi_offset = -1;
	fi_fs = R->bio == NULL || R->bio->bi_vcnt == 0 || R->bio->bi_io_vec->bv_page->mapping == NULL ||
	    ((uintptr_t)R->bio->bi_io_vec->bv_page->mapping & 1) != 0 ? "<unknown>" :
	    stringof(R->bio->bi_io_vec->bv_page->mapping->host->i_sb->s_type->name);
	fi_mount = "<unknown>";
	fi_oflags = 0;
};
