/* fuzz_accesslog.c - libFuzzer target: an access log in every line format `keyplan heat` reads
 * (PK, PK<TAB>SK<TAB>UNITS<TAB>kind, DynamoDB JSON lines, CloudTrail events, part files),
 * streamed the way heatlog_stream streams it. The same text is tallied three ways: whole with one
 * thread, whole with two, and fed in small chunks (sizes taken from the input, so chunk
 * boundaries fall everywhere, inside lines and inside CR LF pairs). A log either tallies or fails
 * with a message and a line number inside the text, the same line and status all three ways; a
 * tally gives the same figures all three ways, finite, and its text and JSON reports are written
 * without trouble. Half the inputs run in approximate mode (a tiny table: evictions). */
#include "accesslog.h"
#include "heatlog.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void bug(const char *what)
{
    fprintf(stderr, "ACCESSLOG BUG: %s\n", what);
    abort();
}

/* Tallies text[0..size) fed in pieces of `step` bytes (0: whole) as heatlog_stream does: the
 * unused rest is handed again with the next piece. */
static kp_status tally(accesslog *h, const char *text, size_t size, size_t step, size_t *lineno, char **err)
{
    if (!step)
        return accesslog_read(h, text, size, lineno, err);
    size_t start = 0, have = 0;
    for (;;) {
        have = have + step < size - start ? have + step : size - start;
        bool eof = start + have == size;
        size_t used;
        kp_status st = accesslog_feed(h, text + start, have, eof, &used, lineno, err);
        if (st != KP_OK || eof)
            return st;
        start += used;
        have -= used;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    size_t lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    size_t step = size ? 1 + data[0] % 17 : 1;
    bool approx = size > 1 && data[1] % 2;
    bool parts = size > 2 && data[2] % 5 == 0;
    accesslog_result res[3];
    kp_status st[3];
    size_t line[3];
    unsigned threads = size > 3 && data[3] % 2 ? 3 : 2; /* the log in two or three parts */
    for (int way = 0; way < 3; way++) {
        accesslog_opts o = {way == 1 ? threads : 1,
                            approx ? 32 : 0,
                            parts,
                            heatlog_json_line,
                            size % 2 ? (void *)"PK" : NULL,
                            1};
        accesslog *h = accesslog_new(&o);
        char *err = NULL;
        line[way] = 0;
        st[way] = tally(h, text, size, way == 2 ? step : 0, &line[way], &err);
        if (st[way] != KP_OK) {
            if (!err || line[way] == 0 || line[way] > lines)
                bug("a failure without a message, or with a line outside the text");
            free(err);
        } else {
            accesslog_result_get(h, size % 3 ? 10 : 0, size % 3 ? 60 : NAN, &res[way]);
            if (!isfinite(res[way].units) || !isfinite(res[way].requests))
                bug("totals not finite");
        }
        accesslog_free(h);
    }
    if (st[0] != st[1] || st[0] != st[2] || line[0] != line[1] || line[0] != line[2])
        bug("one thread, several threads and chunks disagree on the failure");
    if (st[0] != KP_OK)
        return 0;
    for (int way = 1; way < 3; way++) {
        const accesslog_result *a = &res[0], *b = &res[way];
        if (a->distinct != b->distinct || a->n != b->n || a->units != b->units ||
            a->requests != b->requests || a->read_units != b->read_units || a->bound != b->bound)
            bug("one thread, several threads and chunks disagree on the figures");
        for (size_t i = 0; i < a->n; i++)
            if (strcmp(a->v[i].key, b->v[i].key) != 0 || a->v[i].units != b->v[i].units ||
                a->v[i].requests != b->v[i].requests || a->v[i].error != b->v[i].error)
                bug("one thread, several threads and chunks disagree on a key");
    }
    free(heatlog_text(&res[0], "fuzz.log", size % 3 ? 60 : NAN));
    free(heatlog_json(&res[0], "fuzz.log", 0));
    for (int way = 0; way < 3; way++)
        accesslog_result_free(&res[way]);
    return 0;
}
