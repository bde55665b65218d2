/*
 * Seed 000's walk_joined() and the chewrec() that finds printa()'s aggregations, in seed 003's
 * Example 35 in place of its chewrec(). Glue of ours: the includes after <dtrace.h>, main's
 * arguments and reading the program from the file named by argv[1] (the seed's
 * dtrace_program_fcompile() change).
 */
#include <dtrace.h>
#include <stdarg.h>
#include <stdlib.h>
#include <strings.h>
#include <stdio.h>
#include <string.h>

static dtrace_hdl_t *g_dtp;

static void
fatal(const char *fmt, ...)
{  
        va_list ap;  
        va_start(ap, fmt);

        (void) vfprintf(stderr, fmt, ap);

        if (fmt[strlen(fmt) - 1] != '\n')
                (void) fprintf(stderr, ": %s\n",
                    dtrace_errmsg(g_dtp, dtrace_errno(g_dtp)));
        exit(EXIT_FAILURE);
}

static int
walk_joined(const dtrace_aggdata_t **data, const int naggs, void *arg)
{
        dtrace_aggdesc_t *aggdesc;
        dtrace_recdesc_t *keyrec, *datarec;
        char *syscall;
        int64_t stats[4], *avgdata;
        int i;

        aggdesc = data[0]->dtada_desc; 
        keyrec = &aggdesc->dtagd_rec[1];
        syscall = data[0]->dtada_data + keyrec->dtrd_offset;

        for (i = 1; i < naggs; i++) {
                aggdesc = data[i]->dtada_desc;
                datarec = &aggdesc->dtagd_rec[2];

                switch (datarec->dtrd_action) {
                case DTRACEAGG_MIN:
                case DTRACEAGG_MAX:
                        stats[i] = *((int64_t *)(data[i]->dtada_data +
                            datarec->dtrd_offset));
                        break;
                case DTRACEAGG_AVG:
                        avgdata = (int64_t *)(data[i]->dtada_data +
                            datarec->dtrd_offset);
                        stats[i] = avgdata[0] ? avgdata[1] / avgdata[0] : 0;
                        break;
                default:
                        fatal("Incorrect record type in walk_joined()\n");
                        break;
                }       
         }

         printf("%-20s min: %12lld max: %12lld avg: %12lld\n", syscall,
             stats[1], stats[2], stats[3]);

         return (DTRACE_AGGWALK_NEXT);
}

static int 
chewrec(const dtrace_probedata_t *data, const dtrace_recdesc_t *rec,
    void *arg)
{
       dtrace_actkind_t act;
       dtrace_eprobedesc_t *epd = data->dtpda_edesc;
       dtrace_aggvarid_t aggvars[3];
       const void *buf;
       int i, nagv;

       if (rec == NULL)
               return (DTRACE_CONSUME_NEXT);
       act = rec->dtrd_action;
       buf = data->dtpda_data - rec->dtrd_offset;
 
       if (act == DTRACEACT_EXIT)
               return (DTRACE_CONSUME_NEXT);

       if (act == DTRACEACT_PRINTA) {
               for (nagv = 0, i = 0; i < 3; i++) {
                       const dtrace_recdesc_t *nrec = &rec[i];

                       if (nrec->dtrd_uarg != rec->dtrd_uarg)
                               break;

                       aggvars[nagv++] = *((dtrace_aggvarid_t *)
                       ((caddr_t)buf + nrec->dtrd_offset));
                }
                if (nagv == 3)
                       if (dtrace_aggregate_walk_joined(g_dtp, aggvars, nagv,
                            walk_joined, NULL) == -1)
                               fatal("dtrace_aggregate_walk_joined failed");
        }
        return (DTRACE_CONSUME_NEXT);
}

static int
chew(const dtrace_probedata_t *data, void *arg)
{
        return (DTRACE_CONSUME_THIS);
}

int
main(int argc, char *argv[])
{
        dtrace_prog_t *prog;
        dtrace_proginfo_t info; 
        dtrace_optval_t statustime;
        int err;
        FILE *fp;

        if ((g_dtp = dtrace_open(DTRACE_VERSION, 0, &err)) == NULL)
                fatal("cannot open dtrace library: %s\n",
                    dtrace_errmsg(NULL, err));

        if ((fp = fopen(argv[1], "r")) == NULL)
                fatal("failed to open %s", argv[1]);

        if ((prog = dtrace_program_fcompile(g_dtp, fp, 0, 0, NULL)) == NULL) 
                fatal("invalid program");

        if (dtrace_program_exec(g_dtp, prog, &info) == -1)
                fatal("failed to enable probes");

        if (dtrace_setopt(g_dtp, "aggsize", "512k") == -1)
                fatal("failed to set aggsize");

        if (dtrace_go(g_dtp) != 0)
                fatal("dtrace_go()");

        for (int i = 0; i < 10; i++) {
       
                dtrace_sleep(g_dtp);
                switch (dtrace_work(g_dtp, stdout, chew, chewrec, NULL)) {
                case DTRACE_WORKSTATUS_DONE:
                        break;
                case DTRACE_WORKSTATUS_OKAY:
                        break;
                default:
                        fatal("processing aborted");
                }
         }
         
         if (dtrace_stop(g_dtp) == -1)
                 fatal("dtrace_stop()");

         if (dtrace_aggregate_print(g_dtp, stdout, NULL) == -1)
                 fatal("failed to print aggregation");

         dtrace_close(g_dtp);
         return (0);
}
