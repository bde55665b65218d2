/* libdtrace's consumer API in C, over dtpp's consumer handle: what `#include <dtrace.h>` gives. */
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* glibc declares caddr_t only with its default (not strict ISO) feature set; consumers cast record
 * data with it either way. */
#ifndef __daddr_t_defined
typedef char *caddr_t;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* dtrace_open()'s version: any other is refused with EDT_VERSION. */
#define DTRACE_VERSION 3

/* dtrace_open()'s flags, accepted for source compatibility; dtpp has no device to open. */
#define DTRACE_O_NODEV 0x01
#define DTRACE_O_NOSYS 0x02
#define DTRACE_O_LP64 0x04
#define DTRACE_O_ILP32 0x08
#define DTRACE_O_MASK 0x0f

/* Compiler flags. dtpp honours EMPTY, ETAGS, ARGREF and DEFARG; the others are refused (EINVAL). */
#define DTRACE_C_DIFV 0x0001   /* list the compiled program */
#define DTRACE_C_EMPTY 0x0002  /* allow an empty program */
#define DTRACE_C_ZDEFS 0x0004  /* allow probe descriptions that match nothing */
#define DTRACE_C_EATTR 0x0008  /* list attributes */
#define DTRACE_C_CPP 0x0010    /* run the C preprocessor first */
#define DTRACE_C_KNODEF 0x0020 /* allow undefined kernel symbols */
#define DTRACE_C_UNODEF 0x0040 /* allow undefined user symbols */
#define DTRACE_C_PSPEC 0x0080  /* the text is a probe description */
#define DTRACE_C_ETAGS 0x0100  /* [D_TAG]s in error messages */
#define DTRACE_C_ARGREF 0x0200 /* allow unreferenced macro arguments */
#define DTRACE_C_DEFARG 0x0800 /* unset macro arguments default to 0 or "" */
#define DTRACE_C_NOLIBS 0x1000 /* no D libraries */
#define DTRACE_C_CTL 0x2000    /* the text is a control file */

typedef enum dtrace_probespec {
  DTRACE_PROBESPEC_NONE = -1,
  DTRACE_PROBESPEC_PROVIDER = 0,
  DTRACE_PROBESPEC_MOD,
  DTRACE_PROBESPEC_FUNC,
  DTRACE_PROBESPEC_NAME
} dtrace_probespec_t;

typedef struct dtrace_hdl dtrace_hdl_t;   /* a consumer: dtpp::consumer::handle */
typedef struct dtrace_prog dtrace_prog_t; /* a compiled program, owned by its handle */

typedef uint32_t dtrace_id_t;       /* probe id */
typedef uint32_t dtrace_epid_t;     /* enabled probe id: dtpp numbers clauses */
typedef uint32_t dtrace_aggid_t;    /* aggregation id: dtpp's is the variable id */
typedef int64_t dtrace_aggvarid_t;  /* aggregation variable id, 1 up in order of appearance */
typedef uint16_t dtrace_actkind_t;  /* action kind: DTRACEACT_* or DTRACEAGG_* */
typedef int64_t dtrace_optval_t;    /* an option's value */

#define DTRACEOPT_UNSET ((dtrace_optval_t)-2) /* dtrace_getopt() of an option nobody set */

/* Action kinds of records. */
#define DTRACEACT_NONE 0
#define DTRACEACT_DIFEXPR 1 /* trace() and aggregation keys */
#define DTRACEACT_EXIT 2
#define DTRACEACT_PRINTF 3
#define DTRACEACT_PRINTA 4
#define DTRACEACT_LIBACT 5 /* clear(), trunc(), normalize() ...: carried out by the library */
#define DTRACEACT_PROC 0x0100
#define DTRACEACT_USTACK (DTRACEACT_PROC + 1)
#define DTRACEACT_KERNEL 0x0400
#define DTRACEACT_STACK (DTRACEACT_KERNEL + 1)
#define DTRACEACT_AGGREGATION 0x0700
#define DTRACEAGG_COUNT (DTRACEACT_AGGREGATION + 1)
#define DTRACEAGG_MIN (DTRACEACT_AGGREGATION + 2)
#define DTRACEAGG_MAX (DTRACEACT_AGGREGATION + 3)
#define DTRACEAGG_AVG (DTRACEACT_AGGREGATION + 4)
#define DTRACEAGG_SUM (DTRACEACT_AGGREGATION + 5)
#define DTRACEAGG_STDDEV (DTRACEACT_AGGREGATION + 6)
#define DTRACEAGG_QUANTIZE (DTRACEACT_AGGREGATION + 7)
#define DTRACEAGG_LQUANTIZE (DTRACEACT_AGGREGATION + 8)
#define DTRACEAGG_LLQUANTIZE (DTRACEACT_AGGREGATION + 9)

/* quantize(): 127 power-of-two buckets, from -2^63 to 2^63. */
#define DTRACE_QUANTIZE_NBUCKETS (((sizeof(uint64_t) * 8 - 1) * 2) + 1)
#define DTRACE_QUANTIZE_ZEROBUCKET ((sizeof(uint64_t) * 8) - 1)
#define DTRACE_QUANTIZE_BUCKETVAL(buck)                                                       \
  (int64_t)((buck) < DTRACE_QUANTIZE_ZEROBUCKET                                             \
                ? -(1LL << (DTRACE_QUANTIZE_ZEROBUCKET - 1 - (buck)))                       \
                : (buck) == DTRACE_QUANTIZE_ZEROBUCKET ? 0                                  \
                                                       : 1LL << ((buck) - DTRACE_QUANTIZE_ZEROBUCKET - 1))

/* lquantize()'s first word: step (bits 48-63), levels (32-47), base (0-31, signed). */
#define DTRACE_LQUANTIZE_STEP(x) (uint16_t)(((x) >> 48) & 0xffff)
#define DTRACE_LQUANTIZE_LEVELS(x) (uint16_t)(((x) >> 32) & 0xffff)
#define DTRACE_LQUANTIZE_BASE(x) (int32_t)((x) & 0xffffffff)

/* llquantize()'s first word: factor (48-63), low (32-47) and high (16-31) magnitudes, steps. */
#define DTRACE_LLQUANTIZE_FACTOR(x) (uint16_t)(((x) >> 48) & 0xffff)
#define DTRACE_LLQUANTIZE_LMAG(x) (uint16_t)(((x) >> 32) & 0xffff)
#define DTRACE_LLQUANTIZE_HMAG(x) (uint16_t)(((x) >> 16) & 0xffff)
#define DTRACE_LLQUANTIZE_STEPS(x) (uint16_t)((x) & 0xffff)

/* One record of an enabled probe's data or of an aggregation's. */
typedef struct dtrace_recdesc {
  dtrace_actkind_t dtrd_action; /* what wrote it */
  uint32_t dtrd_size;           /* bytes */
  uint32_t dtrd_offset;         /* from the start of the data */
  uint16_t dtrd_alignment;
  uint16_t dtrd_format;         /* non-zero for printf() and printa() with a format */
  uint64_t dtrd_arg;            /* stack(): frames; an aggregation's value: its parameter word */
  uint64_t dtrd_uarg;           /* the same for every record of one statement */
} dtrace_recdesc_t;

/* An enabled probe: one clause of the program (dtpp numbers EPIDs by clause). */
typedef struct dtrace_eprobedesc {
  dtrace_epid_t dtepd_epid;
  dtrace_id_t dtepd_probeid; /* the probe that fired last */
  uint64_t dtepd_uarg;
  uint32_t dtepd_size;       /* bytes of data */
  int dtepd_nrecs;
  dtrace_recdesc_t dtepd_rec[1]; /* dtepd_nrecs of them */
} dtrace_eprobedesc_t;

#define DTRACE_PROVNAMELEN 64
#define DTRACE_MODNAMELEN 64
#define DTRACE_FUNCNAMELEN 192
#define DTRACE_NAMELEN 64

typedef struct dtrace_probedesc {
  dtrace_id_t dtpd_id;
  char dtpd_provider[DTRACE_PROVNAMELEN];
  char dtpd_mod[DTRACE_MODNAMELEN];
  char dtpd_func[DTRACE_FUNCNAMELEN];
  char dtpd_name[DTRACE_NAMELEN];
} dtrace_probedesc_t;

typedef enum { DTRACEFLOW_ENTRY, DTRACEFLOW_RETURN, DTRACEFLOW_NONE } dtrace_flowkind_t;

/* One firing, as dtrace_work()'s callbacks see it. */
typedef struct dtrace_probedata {
  dtrace_hdl_t *dtpda_handle;
  dtrace_eprobedesc_t *dtpda_edesc;
  dtrace_probedesc_t *dtpda_pdesc;
  int dtpda_cpu;
  caddr_t dtpda_data; /* the firing's data; for a record, that record's bytes */
  dtrace_flowkind_t dtpda_flow;
  const char *dtpda_prefix;
  int dtpda_indent;
} dtrace_probedata_t;

/* An aggregation: record 0 holds its variable id, 1 .. nrecs - 2 its keys, the last its value. */
typedef struct dtrace_aggdesc {
  char *dtagd_name; /* without the '@'; "" for @ */
  dtrace_aggvarid_t dtagd_varid;
  int dtagd_flags;
  dtrace_aggid_t dtagd_id;
  dtrace_epid_t dtagd_epid; /* the first clause that aggregates into it */
  uint32_t dtagd_size;      /* bytes of one tuple's data */
  int dtagd_nrecs;
  uint32_t dtagd_pad;
  dtrace_recdesc_t dtagd_rec[1]; /* dtagd_nrecs of them */
} dtrace_aggdesc_t;

#define DTRACE_A_PERCPU 0x0001 /* dtada_percpu is set (the aggpercpu option) */

/* One tuple of an aggregation, as walkers see it. */
typedef struct dtrace_aggdata {
  dtrace_hdl_t *dtada_handle;
  dtrace_aggdesc_t *dtada_desc;
  dtrace_eprobedesc_t *dtada_edesc;
  dtrace_probedesc_t *dtada_pdesc;
  caddr_t dtada_data;           /* the records dtada_desc describes */
  uint64_t dtada_normal;        /* normalize()'s divisor, 1 when not normalized */
  size_t dtada_size;            /* bytes at dtada_data */
  caddr_t dtada_delta;          /* always NULL */
  caddr_t *dtada_percpu;        /* with aggpercpu: each CPU's value record, else NULL */
  caddr_t *dtada_percpu_delta;  /* always NULL */
  int dtada_flags;              /* DTRACE_A_* */
} dtrace_aggdata_t;

/* What dtrace_program_exec() tells of a program. */
typedef struct dtrace_proginfo {
  unsigned int dpi_aggregates;   /* aggregations */
  unsigned int dpi_recgens;      /* statements that write records */
  unsigned int dpi_matches;      /* probes enabled */
  unsigned int dpi_speculations; /* always 0 */
} dtrace_proginfo_t;

/* Error numbers above errno's (dtrace_errno()); dtrace_errmsg() names every one. */
#define EDT_BASE 1000
#define EDT_COMPILER 1000    /* the program has errors: dtrace_errmsg() gives them */
#define EDT_BADOPTNAME 1001  /* no such option */
#define EDT_BADOPTVAL 1002   /* the option refuses the value */
#define EDT_ACTIVE 1003      /* not while tracing */
#define EDT_DIRABORT 1004    /* a callback said abort */
#define EDT_BADRVAL 1005     /* a callback said error, or returned no valid value */
#define EDT_ERRABORT 1006    /* a probe faulted and no error handler took it */
#define EDT_VERSION 1100     /* dtrace_open() of a version other than DTRACE_VERSION */
#define EDT_DROPABORT 1007   /* data was dropped with no drop handler, or the handler said abort */

dtrace_hdl_t *dtrace_open(int version, int flags, int *errp);
void dtrace_close(dtrace_hdl_t *dtp);
int dtrace_errno(dtrace_hdl_t *dtp);
const char *dtrace_errmsg(dtrace_hdl_t *dtp, int error);

dtrace_prog_t *dtrace_program_strcompile(dtrace_hdl_t *dtp, const char *s, dtrace_probespec_t spec,
                                         unsigned int cflags, int argc, char *const argv[]);
dtrace_prog_t *dtrace_program_fcompile(dtrace_hdl_t *dtp, FILE *fp, unsigned int cflags, int argc,
                                       char *const argv[]);
int dtrace_program_exec(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_proginfo_t *pip);

int dtrace_setopt(dtrace_hdl_t *dtp, const char *opt, const char *val);
int dtrace_getopt(dtrace_hdl_t *dtp, const char *opt, dtrace_optval_t *val);

int dtrace_go(dtrace_hdl_t *dtp);
int dtrace_stop(dtrace_hdl_t *dtp);
void dtrace_sleep(dtrace_hdl_t *dtp);

#define DTRACE_STATUS_NONE 0    /* nothing has happened */
#define DTRACE_STATUS_OKAY 1    /* tracing */
#define DTRACE_STATUS_EXITED 2  /* exit() ran: tracing has stopped (reported once) */
#define DTRACE_STATUS_FILLED 3  /* never: dtpp has no fill buffers */
#define DTRACE_STATUS_STOPPED 4 /* tracing has stopped */
int dtrace_status(dtrace_hdl_t *dtp);

/* What the consume callbacks return. */
#define DTRACE_CONSUME_ERROR -1 /* stop with an error (EDT_BADRVAL) */
#define DTRACE_CONSUME_THIS 0   /* the library prints the firing or record */
#define DTRACE_CONSUME_NEXT 1   /* the callback dealt with it */
#define DTRACE_CONSUME_ABORT 2  /* stop (EDT_DIRABORT) */

typedef int dtrace_consume_probe_f(const dtrace_probedata_t *data, void *arg);
/* rec is NULL once the firing's records are done. */
typedef int dtrace_consume_rec_f(const dtrace_probedata_t *data, const dtrace_recdesc_t *rec,
                                 void *arg);

typedef enum dtrace_workstatus {
  DTRACE_WORKSTATUS_ERROR = -1,
  DTRACE_WORKSTATUS_OKAY,
  DTRACE_WORKSTATUS_DONE
} dtrace_workstatus_t;

dtrace_workstatus_t dtrace_work(dtrace_hdl_t *dtp, FILE *fp, dtrace_consume_probe_f *pfunc,
                                dtrace_consume_rec_f *rfunc, void *arg);
int dtrace_consume(dtrace_hdl_t *dtp, FILE *fp, dtrace_consume_probe_f *pfunc,
                   dtrace_consume_rec_f *rfunc, void *arg);

/* Handlers: what they return. */
#define DTRACE_HANDLE_ABORT -1 /* stop: dtrace_work() fails */
#define DTRACE_HANDLE_OK 0

/* Fault codes of dtrace_errdata_t (dtpp::engine::fault_kind has the same numbers). */
#define DTRACEFLT_UNKNOWN 0
#define DTRACEFLT_BADADDR 1
#define DTRACEFLT_BADALIGN 2
#define DTRACEFLT_ILLOP 3
#define DTRACEFLT_DIVZERO 4
#define DTRACEFLT_NOSCRATCH 5
#define DTRACEFLT_KPRIV 6
#define DTRACEFLT_UPRIV 7
#define DTRACEFLT_TUPOFLOW 8
#define DTRACEFLT_BADSTACK 9
#define DTRACEFLT_BADSIZE 10
#define DTRACEFLT_BADINDEX 11
#define DTRACEFLT_LIBRARY 1000 /* a probe that could not be enabled */

typedef struct dtrace_errdata {
  dtrace_hdl_t *dteda_handle;
  dtrace_eprobedesc_t *dteda_edesc;
  dtrace_probedesc_t *dteda_pdesc;
  int dteda_cpu;    /* -1: not known */
  int dteda_action; /* the statement id (N of dt_clause_N); -1: none */
  int dteda_offset; /* the pc in the clause's code; -1: none */
  int dteda_fault;  /* DTRACEFLT_* */
  uint64_t dteda_addr; /* the faulting address or value */
  const char *dteda_msg; /* "error in dt_clause_N for probe ID ...", as dtrace(1) prints it */
} dtrace_errdata_t;
typedef int dtrace_handle_err_f(const dtrace_errdata_t *data, void *arg);
int dtrace_handle_err(dtrace_hdl_t *dtp, dtrace_handle_err_f *hdlr, void *arg);

/* libdtrace's numbers; 3 and 4 (dynamic variable rinses and dirty drops) never happen here. */
typedef enum {
  DTRACEDROP_PRINCIPAL,
  DTRACEDROP_AGGREGATION,
  DTRACEDROP_DYNAMIC,
  DTRACEDROP_SPEC = 5,
  DTRACEDROP_SPECBUSY,
  DTRACEDROP_SPECUNAVAIL
} dtrace_dropkind_t;
typedef struct dtrace_dropdata {
  dtrace_hdl_t *dtdda_handle;
  int dtdda_cpu;
  dtrace_dropkind_t dtdda_kind;
  uint64_t dtdda_drops; /* since the last report */
  uint64_t dtdda_total; /* in all */
  const char *dtdda_msg; /* "N drops on CPU c", as dtrace(1) prints it */
} dtrace_dropdata_t;
typedef int dtrace_handle_drop_f(const dtrace_dropdata_t *data, void *arg);
int dtrace_handle_drop(dtrace_hdl_t *dtp, dtrace_handle_drop_f *hdlr, void *arg);

/* With a buffered handler, what dtrace_work() and dtrace_aggregate_print() would write to their
 * FILE goes to it instead, one call per piece of output. */
typedef struct dtrace_bufdata {
  dtrace_hdl_t *dtbda_handle;
  const char *dtbda_buffered; /* the text */
  dtrace_probedata_t *dtbda_probe;       /* always NULL */
  const dtrace_recdesc_t *dtbda_recdesc; /* always NULL */
  const dtrace_aggdata_t *dtbda_aggdata; /* always NULL */
  uint32_t dtbda_flags;
} dtrace_bufdata_t;
typedef int dtrace_handle_buffered_f(const dtrace_bufdata_t *data, void *arg);
int dtrace_handle_buffered(dtrace_hdl_t *dtp, dtrace_handle_buffered_f *hdlr, void *arg);

/* What an aggregation walker's callback returns. */
#define DTRACE_AGGWALK_ERROR -1      /* stop with an error (EDT_BADRVAL) */
#define DTRACE_AGGWALK_NEXT 0        /* go on */
#define DTRACE_AGGWALK_ABORT 1       /* stop (EDT_DIRABORT) */
#define DTRACE_AGGWALK_CLEAR 2       /* not supported: EDT_BADRVAL */
#define DTRACE_AGGWALK_NORMALIZE 3   /* not supported: EDT_BADRVAL */
#define DTRACE_AGGWALK_DENORMALIZE 4 /* not supported: EDT_BADRVAL */
#define DTRACE_AGGWALK_REMOVE 5      /* not supported: EDT_BADRVAL */

typedef int dtrace_aggregate_f(const dtrace_aggdata_t *data, void *arg);
typedef int dtrace_aggregate_walk_f(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
typedef int dtrace_aggregate_walk_joined_f(const dtrace_aggdata_t **data, const int naggvars,
                                           void *arg);

int dtrace_aggregate_snap(dtrace_hdl_t *dtp);
void dtrace_aggregate_clear(dtrace_hdl_t *dtp);
/* func: NULL (sorted, as dtrace(1) prints) or one of the walkers below. */
int dtrace_aggregate_print(dtrace_hdl_t *dtp, FILE *fp, dtrace_aggregate_walk_f *func);

int dtrace_aggregate_walk(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_sorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_keysorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_valsorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_keyrevsorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_valrevsorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_keyvarsorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_valvarsorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_keyvarrevsorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
int dtrace_aggregate_walk_valvarrevsorted(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg);
/* data[0] holds the key (it is data[1]); data[1 .. naggvars] the aggregations, zero-filled where
 * one has no value for the key. */
int dtrace_aggregate_walk_joined(dtrace_hdl_t *dtp, dtrace_aggvarid_t *aggvars, int naggvars,
                                 dtrace_aggregate_walk_joined_f *func, void *arg);

#ifdef __cplusplus
}
#endif
