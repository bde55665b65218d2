/* The C API's own checks beyond the seeds: errors and their messages, options, every walk order
 * over two aggregations, lquantize's parameter word, a joined walk's zero fill, a walk that
 * aborts, and faults as the error handler sees them. Prints what it sees; api_checks.expected is
 * the exact output. */
#include <dtrace.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *program =
    "BEGIN { @a[\"x\"] = count(); @a[\"y\"] = count(); @a[\"y\"] = count();"
    " @b[\"x\"] = sum(5); @b[\"z\"] = sum(1); @q = lquantize(3, 0, 10, 2); exit(0); }";

static void report(dtrace_hdl_t *dtp, const char *what, int rv) {
  if (rv == -1)
    printf("%s: -1, errno %d: %s\n", what, dtrace_errno(dtp), dtrace_errmsg(dtp, dtrace_errno(dtp)));
  else
    printf("%s: %d\n", what, rv);
}

/* A walker of the consumer's own, which dtrace_aggregate_print() does not take. */
static int own_walker(dtrace_hdl_t *dtp, dtrace_aggregate_f *func, void *arg) {
  return dtrace_aggregate_walk(dtp, func, arg);
}

static int print_tuple(const dtrace_aggdata_t *data, void *arg) {
  const dtrace_aggdesc_t *desc = data->dtada_desc;
  const dtrace_recdesc_t *value = &desc->dtagd_rec[desc->dtagd_nrecs - 1];
  const uint64_t *words = (const uint64_t *)(data->dtada_data + value->dtrd_offset);
  (void)arg;
  if (value->dtrd_action == DTRACEAGG_LQUANTIZE) {
    printf("  @%s lquantize base %d levels %u step %u, bucket [2, 4) %llu\n", desc->dtagd_name,
           DTRACE_LQUANTIZE_BASE(words[0]), DTRACE_LQUANTIZE_LEVELS(words[0]),
           DTRACE_LQUANTIZE_STEP(words[0]), (unsigned long long)words[3]);
    return DTRACE_AGGWALK_NEXT;
  }
  printf("  @%s[%s] = %llu (varid %lld, action 0x%x)\n", desc->dtagd_name,
         data->dtada_data + desc->dtagd_rec[1].dtrd_offset, (unsigned long long)words[0],
         (long long)*(const dtrace_aggvarid_t *)(data->dtada_data + desc->dtagd_rec[0].dtrd_offset),
         value->dtrd_action);
  return DTRACE_AGGWALK_NEXT;
}

static int joined(const dtrace_aggdata_t **data, const int n, void *arg) {
  const dtrace_aggdesc_t *a = data[1]->dtada_desc, *b = data[2]->dtada_desc;
  (void)arg;
  printf("  %d: %s count %llu sum %llu\n", n, data[0]->dtada_data + a->dtagd_rec[1].dtrd_offset,
         (unsigned long long)*(uint64_t *)(data[1]->dtada_data + a->dtagd_rec[2].dtrd_offset),
         (unsigned long long)*(uint64_t *)(data[2]->dtada_data + b->dtagd_rec[2].dtrd_offset));
  return DTRACE_AGGWALK_NEXT;
}

static int abort_walk(const dtrace_aggdata_t *data, void *arg) {
  (void)data;
  (void)arg;
  return DTRACE_AGGWALK_ABORT;
}

/* dtrace-utils' dtrace_errdata_t: the statement id, the pc, the kind and the address. */
static int on_fault(const dtrace_errdata_t *e, void *arg) {
  (void)arg;
  printf("  fault %d, statement %d, pc %d, address 0x%llx, probe %s\n  %s\n", e->dteda_fault, e->dteda_action,
         e->dteda_offset, (unsigned long long)e->dteda_addr, e->dteda_pdesc->dtpd_name, e->dteda_msg);
  return DTRACE_HANDLE_OK;
}

static void faults(void) {
  dtrace_prog_t *prog;
  dtrace_hdl_t *dtp;
  int err;

  printf("faults:\n");
  dtp = dtrace_open(DTRACE_VERSION, 0, &err);
  dtrace_setopt(dtp, "quiet", NULL);
  prog = dtrace_program_strcompile(dtp,
                                   "BEGIN { x = 0; } BEGIN, END { y = 1 / x; }"
                                   " BEGIN { trace(inet_ntoa(NULL)); } BEGIN { exit(0); }",
                                   DTRACE_PROBESPEC_NAME, 0, 0, NULL);
  report(dtp, "exec", dtrace_program_exec(dtp, prog, NULL));
  report(dtp, "handle_err", dtrace_handle_err(dtp, on_fault, NULL));
  report(dtp, "go", dtrace_go(dtp));
  while (dtrace_work(dtp, stdout, NULL, NULL, NULL) == DTRACE_WORKSTATUS_OKAY) {
  }
  dtrace_stop(dtp);
  while (dtrace_work(dtp, stdout, NULL, NULL, NULL) == DTRACE_WORKSTATUS_OKAY) {
  }
  dtrace_close(dtp);
}

int main(void) {
  static const struct {
    const char *name;
    dtrace_aggregate_walk_f *walk;
  } walks[] = {{"keysorted", dtrace_aggregate_walk_keysorted},
               {"valsorted", dtrace_aggregate_walk_valsorted},
               {"keyrevsorted", dtrace_aggregate_walk_keyrevsorted},
               {"valrevsorted", dtrace_aggregate_walk_valrevsorted},
               {"keyvarsorted", dtrace_aggregate_walk_keyvarsorted},
               {"valvarsorted", dtrace_aggregate_walk_valvarsorted},
               {"keyvarrevsorted", dtrace_aggregate_walk_keyvarrevsorted},
               {"valvarrevsorted", dtrace_aggregate_walk_valvarrevsorted}};
  dtrace_aggvarid_t ab[2] = {1, 2}, bad[1] = {9};
  dtrace_optval_t value;
  dtrace_proginfo_t info;
  dtrace_prog_t *prog;
  dtrace_hdl_t *dtp;
  size_t i;
  int err;

  dtp = dtrace_open(DTRACE_VERSION + 1, 0, &err);
  printf("open of another version: %s, %d: %s\n", dtp ? "a handle" : "NULL", err, dtrace_errmsg(NULL, err));
  dtp = dtrace_open(DTRACE_VERSION, 0, &err);
  report(dtp, "setopt nosuch", dtrace_setopt(dtp, "nosuch", "1"));
  report(dtp, "setopt bufsize=lots", dtrace_setopt(dtp, "bufsize", "lots"));
  report(dtp, "getopt strsize", dtrace_getopt(dtp, "strsize", &value));
  printf("  strsize %lld\n", (long long)value);
  report(dtp, "getopt errtags (compile-time)", dtrace_getopt(dtp, "errtags", &value));
  dtrace_getopt(dtp, "quiet", &value);
  printf("  quiet unset: %d\n", value == DTRACEOPT_UNSET);
  prog = dtrace_program_strcompile(dtp, program, DTRACE_PROBESPEC_NAME, DTRACE_C_CPP, 0, NULL);
  report(dtp, "compile with DTRACE_C_CPP", prog ? 0 : -1);
  prog = dtrace_program_strcompile(dtp, "BEGIN { x = ; }", DTRACE_PROBESPEC_NAME, 0, 0, NULL);
  report(dtp, "compile of bad D", prog ? 0 : -1);
  report(dtp, "go before exec", dtrace_go(dtp));

  prog = dtrace_program_strcompile(dtp, program, DTRACE_PROBESPEC_NAME, 0, 0, NULL);
  report(dtp, "exec", dtrace_program_exec(dtp, prog, &info));
  printf("  %u aggregations, %u record statements, %u probes\n", info.dpi_aggregates,
         info.dpi_recgens, info.dpi_matches);
  report(dtp, "go", dtrace_go(dtp));
  report(dtp, "status (exit() ran in BEGIN)", dtrace_status(dtp));
  report(dtp, "status again", dtrace_status(dtp));
  for (i = 0; i < sizeof walks / sizeof walks[0]; i++) {
    printf("%s:\n", walks[i].name);
    walks[i].walk(dtp, print_tuple, NULL);
  }
  printf("joined @a, @b:\n");
  dtrace_aggregate_walk_joined(dtp, ab, 2, joined, NULL);
  report(dtp, "joined of variable id 9", dtrace_aggregate_walk_joined(dtp, bad, 1, joined, NULL));
  report(dtp, "a walk that aborts", dtrace_aggregate_walk(dtp, abort_walk, NULL));
  report(dtp, "print with a walker of ours", dtrace_aggregate_print(dtp, stdout, own_walker));
  printf("print keysorted:\n");
  dtrace_aggregate_print(dtp, stdout, dtrace_aggregate_walk_keysorted);
  dtrace_close(dtp);
  faults();
  return 0;
}
