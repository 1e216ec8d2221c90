/* cmd_heat.c - keyplan heat [LOG|-] [--json] [--top N] [--seconds S] [--pk NAME] [--approx K]
 * [--threads N], keyplan heat --merge PART... : the hottest partition keys of a real access log
 * (standard input for "-" or no argument), streamed, or of part results merged. The line formats
 * are model/accesslog.h's and storage/exchange/heatlog.h's; the tally is accesslog's, the
 * reading, the merge and the text and JSON output heatlog's.
 *
 * Exit status: 0; 1 when --seconds shows a key at >= 100 % of a partition's limit (a hot key);
 * 2 for an unreadable log or a malformed line (LOG:LINE: what is wrong). */
#include "commands.h"
#include "source.h"

#include "heatlog.h"
#include "i18n.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void heat_usage(FILE *out)
{
    /* TRANSLATORS: the usage of `keyplan heat`: the command, its options and the line formats
       stay as they are; %d is the most threads */
    fprintf(out,
            _("usage: keyplan heat [LOG|-] [--json] [--top N] [--seconds S] [--pk NAME] [--approx K]\n"
              "                    [--threads N]\n"
              "       keyplan heat --merge PART... [--json] [--top N] [--seconds S]\n"
              "  the hottest partition keys of an access log (standard input when LOG is - or absent),\n"
              "  read a chunk at a time: memory grows with the distinct keys, not with the log.\n"
              "  one request per line: PK, or PK<TAB>SK<TAB>UNITS[<TAB>read|write], or a DynamoDB JSON\n"
              "  line ({\"Key\": {\"PK\": {\"S\": \"...\"}}, \"ConsumedCapacity\": {\"CapacityUnits\": 1},\n"
              "  \"Operation\": \"PutItem\"}, or the key map alone), or CloudTrail data events (one per\n"
              "  line, or {\"Records\": [...]} files); '#' lines are comments.\n"
              "  --json       one JSON object (with --top 0 every key: a part for --merge)\n"
              "  --top N      how many keys to list (default 10; 0: all)\n"
              "  --seconds S  the time the log covers: units/s and the per-partition limits\n"
              "               (3,000 read and 1,000 write units per second)\n"
              "  --pk NAME    the partition attribute of JSON lines (default PK, else the first)\n"
              "  --approx K   keep at most K keys (Space-Saving): bounded memory for logs with more\n"
              "               keys than memory holds; each key's error is reported\n"
              "  --threads N  threads to tally with (default: the processors, one fewer for a pipe;\n"
              "               at most %d)\n"
              "  --merge      the arguments are parts: `heat --json` results, or PK<TAB>COUNT<TAB>UNITS\n"
              "               files (Athena, Spark); the result is that of the whole log\n"
              "exit status: 0, 1 when --seconds finds a key at or over a partition's limit, 2 bad input\n"),
            ACCESSLOG_MAX_THREADS);
}

/* A whole number from v into *out, at least `min`; false (with a message) otherwise. */
static bool whole(const char *opt, const char *v, long min, long *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (end == v || *end || x < min) {
        /* TRANSLATORS: %1$s is the option (--top), %2$s the value given, %3$ld the least allowed */
        fprintf(stderr, _("keyplan heat: %1$s '%2$s': expected a whole number >= %3$ld\n"), opt, v, min);
        return false;
    }
    *out = x;
    return true;
}

int cmd_heat(int argc, char **argv)
{
    const char *pk = NULL;
    const char **paths = xcalloc((size_t)argc, sizeof *paths);
    size_t npaths = 0;
    bool json = false, merge = false;
    long top = 10, approx = 0, threads = 0;
    double seconds = NAN;
    int status = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            heat_usage(stdout);
            status = 0;
            goto out;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--merge") == 0) {
            merge = true;
        } else if (strcmp(a, "--top") == 0 || strcmp(a, "--seconds") == 0 || strcmp(a, "--pk") == 0 ||
                   strcmp(a, "--approx") == 0 || strcmp(a, "--threads") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, _("keyplan heat: %s needs a value\n"), a);
                goto out;
            }
            const char *v = argv[++i];
            if (strcmp(a, "--pk") == 0) {
                pk = v;
            } else if (strcmp(a, "--top") == 0) {
                if (!whole(a, v, 0, &top))
                    goto out;
            } else if (strcmp(a, "--approx") == 0) {
                if (!whole(a, v, ACCESSLOG_SHARDS, &approx))
                    goto out;
            } else if (strcmp(a, "--threads") == 0) {
                if (!whole(a, v, 1, &threads))
                    goto out;
            } else {
                char *end;
                seconds = strtod(v, &end);
                if (end == v || *end || !(seconds > 0) || isinf(seconds)) {
                    fprintf(stderr, _("keyplan heat: --seconds '%s': expected a number of seconds > 0\n"), v);
                    goto out;
                }
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, _("keyplan heat: unknown option '%s'\n"), a);
            heat_usage(stderr);
            goto out;
        } else {
            paths[npaths++] = a;
        }
    }
    if (!merge && npaths > 1) {
        fprintf(stderr, _("keyplan heat: one log at a time ('%s' and '%s'); --merge combines parts\n"),
                paths[0], paths[1]);
        goto out;
    }
    if (merge && approx) {
        fprintf(stderr, _("keyplan heat: --merge and --approx: a merge keeps every key its parts list\n"));
        goto out;
    }
    if (!npaths)
        paths[npaths++] = "-";
    if (!threads) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        /* a pipe is written by another program, which takes a processor: one fewer for the
           tally (a file, standard input redirected from one too, is copied in by a thread of
           keyplan's own, whose copies from the page cache take little) */
        struct stat sb;
        for (size_t i = 0; i < npaths; i++)
            if (strcmp(paths[i], "-") == 0 && !(fstat(STDIN_FILENO, &sb) == 0 && S_ISREG(sb.st_mode))) {
                n--;
                break;
            }
        threads = n < 1 ? 1 : n > ACCESSLOG_MAX_THREADS ? ACCESSLOG_MAX_THREADS : n;
    }

    /* display widths of UTF-8 keys (DIRECCIÓN#casa) whatever the caller's locale */
    source_utf8_locale();

    accesslog_opts o = {(unsigned)threads, (size_t)approx, merge, heatlog_json_line, (void *)pk, 0};
    if (merge)
        o.json = NULL;
    accesslog *h = accesslog_new(&o);
    double raise = 0;
    for (size_t i = 0; i < npaths; i++) {
        const char *name = strcmp(paths[i], "-") == 0 ? "<stdin>" : paths[i];
        size_t lineno = 0;
        char *err = NULL;
        kp_status st = merge ? heatlog_merge_part(h, paths[i], &raise, &lineno, &err)
                             : heatlog_stream(h, paths[i], &lineno, &err);
        if (st != KP_OK) {
            if (lineno)
                fprintf(stderr, "%s:%zu: error: %s\n", name, lineno, err);
            else
                fprintf(stderr, _("keyplan heat: %s\n"), err ? err : _("cannot read the log"));
            free(err);
            accesslog_free(h);
            goto out;
        }
    }
    accesslog_raise(h, raise);
    /* the name in the text report is the reader's; JSON's "source" stays English */
    const char *name = merge                        ? (npaths == 1 ? paths[0]
                                                       : json      ? "the merged parts"
                                                                   : _("the merged parts"))
                       : strcmp(paths[0], "-") == 0 ? "<stdin>"
                                                    : paths[0];
    accesslog_result r;
    accesslog_result_get(h, (size_t)top, seconds, &r);
    accesslog_free(h);
    char *text = json ? heatlog_json(&r, name, seconds) : heatlog_text(&r, name, seconds);
    fputs(text, stdout);
    free(text);
    status = r.hot ? 1 : 0;
    accesslog_result_free(&r);
out:
    free(paths);
    return status;
}
