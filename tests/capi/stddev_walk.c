/*
 * Seed 000's Example 36 (walk()) in seed 003's Example 35, joined as the seeds say: the program
 * is read from the file named by argv[1] (dtrace_program_fcompile), and walk() passed to
 * dtrace_aggregate_walk_keysorted() after the printf of the heading replaces the call to
 * dtrace_aggregate_print(). Glue of ours: the includes after <dtrace.h>, main's arguments and
 * the declaration of fp.
 */
#include <dtrace.h>
#include <stdarg.h>
#include <stdlib.h>
#include <strings.h>
#include <math.h>
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
chewrec(const dtrace_probedata_t *data, const dtrace_recdesc_t *rec,
    void *arg)
{ 
        return (DTRACE_CONSUME_THIS);
}

static int
chew(const dtrace_probedata_t *data, void *arg)
{
        return (DTRACE_CONSUME_THIS);
}

static int
walk(const dtrace_aggdata_t *data, void *arg)
{
        dtrace_aggdesc_t *aggdesc = data->dtada_desc;
        dtrace_recdesc_t *namerec, *datarec;
        char *name;
        uint64_t count, sum, sumsquares;  
        double avg, avgsquares, stddev;
        int i; 
        namerec = &aggdesc->dtagd_rec[1]; 
        name = data->dtada_data + namerec->dtrd_offset;
        datarec = &aggdesc->dtagd_rec[2];
        count = *((uint64_t *)(data->dtada_data + datarec->dtrd_offset));
        sum = *((uint64_t *)(data->dtada_data + datarec->dtrd_offset) + 1);
        sumsquares = *((uint64_t *)(data->dtada_data + datarec->dtrd_offset)+ 2); 
        avg = (double)sum / count;
        avgsquares = (double)sumsquares / count;
        stddev = sqrt (avgsquares - avg * avg); 
        printf("%10s %10lu %11.3f %11.3f\n", name, count, avg, stddev);
        return (DTRACE_AGGWALK_NEXT);
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

         printf("%10s %10s %11s %11s\n", "NAME", "COUNT", "AVG", "STDDEV");

         if (dtrace_aggregate_walk_keysorted(g_dtp, walk, NULL) == -1)
                 fatal("aggregation walk failed");

         dtrace_close(g_dtp);
         return (0);
}
