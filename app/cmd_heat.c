/* cmd_heat.c - keyplan heat [LOG|-] [--json] [--top N] [--seconds S] [--pk NAME]: the
 * hottest partition keys of a real access log (standard input for "-" or no argument). The line
 * formats are model/accesslog.h's and storage/exchange/heatlog.h's; the tally is accesslog's,
 * the text and JSON output heatlog's.
 *
 * Exit status: 0; 1 when --seconds shows a key at >= 100 % of a partition's limit (a hot key);
 * 2 for an unreadable log or a malformed line (LOG:LINE: what is wrong). */
#include "commands.h"
#include "source.h"

#include "fileio.h"
#include "heatlog.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void heat_usage(FILE *out)
{
    fprintf(out,
            "usage: keyplan heat [LOG|-] [--json] [--top N] [--seconds S] [--pk NAME]\n"
            "  the hottest partition keys of an access log (standard input when LOG is - or absent).\n"
            "  one request per line: PK, or PK<TAB>SK<TAB>UNITS[<TAB>read|write], or a DynamoDB JSON\n"
            "  line ({\"Key\": {\"PK\": {\"S\": \"...\"}}, \"ConsumedCapacity\": {\"CapacityUnits\": 1},\n"
            "  \"Operation\": \"PutItem\"}, or the key map alone); '#' lines are comments.\n"
            "  --json       one JSON object\n"
            "  --top N      how many keys to list (default 10)\n"
            "  --seconds S  the time the log covers: units/s and the per-partition limits\n"
            "               (3,000 read and 1,000 write units per second)\n"
            "  --pk NAME    the partition attribute of JSON lines (default PK, else the first)\n"
            "exit status: 0, 1 when --seconds finds a key at or over a partition's limit, 2 bad input\n");
}

int cmd_heat(int argc, char **argv)
{
    const char *path = NULL, *pk = NULL;
    bool json = false;
    long top = 10;
    double seconds = NAN;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            heat_usage(stdout);
            return 0;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--top") == 0 || strcmp(a, "--seconds") == 0 || strcmp(a, "--pk") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "keyplan heat: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            char *end;
            if (strcmp(a, "--pk") == 0) {
                pk = v;
            } else if (strcmp(a, "--top") == 0) {
                top = strtol(v, &end, 10);
                if (end == v || *end || top < 1) {
                    fprintf(stderr, "keyplan heat: --top '%s': expected a whole number >= 1\n", v);
                    return 2;
                }
            } else {
                seconds = strtod(v, &end);
                if (end == v || *end || !(seconds > 0) || isinf(seconds)) {
                    fprintf(stderr, "keyplan heat: --seconds '%s': expected a number of seconds > 0\n", v);
                    return 2;
                }
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "keyplan heat: unknown option '%s'\n", a);
            heat_usage(stderr);
            return 2;
        } else if (!path) {
            path = a;
        } else {
            fprintf(stderr, "keyplan heat: one log at a time ('%s' and '%s')\n", path, a);
            return 2;
        }
    }
    bool from_stdin = !path || strcmp(path, "-") == 0;
    const char *name = from_stdin ? "<stdin>" : path;
    size_t len = 0;
    char *err = NULL;
    char *text = fileio_read_max(from_stdin ? "-" : path, ACCESSLOG_MAX_BYTES, &len, &err);
    if (!text) {
        fprintf(stderr, "keyplan heat: %s\n", err ? err : "cannot read the log");
        free(err);
        return 2;
    }

    /* display widths of UTF-8 keys (DIRECCIÓN#casa) whatever the caller's locale */
    source_utf8_locale();

    accesslog h;
    accesslog_init(&h);
    size_t lineno = 0;
    err = NULL;
    kp_status st = heatlog_read(&h, text, len, pk, &lineno, &err);
    free(text);
    if (st != KP_OK) {
        fprintf(stderr, "%s:%zu: error: %s\n", name, lineno, err);
        free(err);
        accesslog_free(&h);
        return 2;
    }
    accesslog_sort(&h);
    char *out = json ? heatlog_json(&h, name, (size_t)top, seconds, &err)
                     : heatlog_text(&h, name, (size_t)top, seconds);
    if (!out) {
        fprintf(stderr, "keyplan heat: %s\n", err);
        free(err);
        accesslog_free(&h);
        return 2;
    }
    fputs(out, stdout);
    free(out);
    int status = accesslog_hot(&h, seconds) ? 1 : 0;
    accesslog_free(&h);
    return status;
}
