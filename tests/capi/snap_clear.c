/*
 * Seed 003's Example 35 with its work() loop replaced by seed 000's periodic snap, print and
 * clear loop. Glue of ours: the includes after <dtrace.h>, main's arguments and reading the
 * program from the file named by argv[1] (the seed's dtrace_program_fcompile() change).
 */
#include <dtrace.h>
#include <stdarg.h>
#include <stdlib.h>
#include <strings.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

if (dtrace_getopt(g_dtp, "statusrate", &statustime) == -1)
        fatal("failed to get 'statusrate'");

for (int i = 0; i < 10; i++) {
        usleep(statustime / 1000);

        if (dtrace_status(g_dtp) == -1)    
                fatal("dtrace_status()");

        if (dtrace_aggregate_snap(g_dtp) != 0)
                fatal("failed to add to aggregate");

        if (dtrace_aggregate_print(g_dtp, stdout, NULL) == -1)
                fatal("failed to print aggregation");

        dtrace_aggregate_clear(g_dtp);
}
         
         if (dtrace_stop(g_dtp) == -1)
                 fatal("dtrace_stop()");

         if (dtrace_aggregate_print(g_dtp, stdout, NULL) == -1)
                 fatal("failed to print aggregation");

         dtrace_close(g_dtp);
         return (0);
}
