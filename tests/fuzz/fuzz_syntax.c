/* fuzz_syntax.c - libFuzzer target: the design's text syntaxes (model/syntax.h) on arbitrary
 * bytes. The first byte picks the parser (number, by, order, join, sparse condition, signal,
 * split); the rest is its text. A parser either succeeds with spans inside the text or fails with
 * a message (and an offset inside the text); a parsed condition or signal written back reads the
 * same. */
#include "syntax.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void inside(syn_span s, size_t len, const char *what)
{
    if (s.at > len || s.len > len - s.at) {
        fprintf(stderr, "SYNTAX BUG: %s span %zu+%zu outside %zu bytes\n", what, s.at, s.len, len);
        abort();
    }
}

static void failed(kp_status st, char *err, const char *what)
{
    if (st == KP_OK)
        return;
    if (!err) {
        fprintf(stderr, "SYNTAX BUG: %s failed without a message\n", what);
        abort();
    }
    free(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned pick = data[0] % 7;
    size_t len = size - 1;
    char *s = xmalloc(len + 1); /* an exact copy: the parsers get (text, len) */
    memcpy(s, data + 1, len);
    s[len] = '\0';
    char *err = NULL;
    size_t at = 0;
    switch (pick) {
    case 0: {
        double v;
        if (syn_number(s, len, len % 2 ? SYN_NUM_COMMAS : 0, &v)) {
            char buf[64], *back = xstrdup(syn_number_text(v, buf, sizeof buf));
            double w;
            if (!syn_number(back, strlen(back), 0, &w) || w != v) {
                fprintf(stderr, "SYNTAX BUG: number %s written as %s does not read back\n", s, back);
                abort();
            }
            free(back);
        }
        break;
    }
    case 1: {
        syn_by b;
        kp_status st = syn_by_parse(s, len, &b, &err);
        if (st == KP_OK) {
            inside(b.attr, len, "by attribute");
            if (b.has_value)
                inside(b.value, len, "by value");
        }
        failed(st, err, "by");
        break;
    }
    case 2: {
        syn_span a;
        bool desc;
        kp_status st = syn_order_parse(s, len, &a, &desc, &err);
        if (st == KP_OK)
            inside(a, len, "order attribute");
        failed(st, err, "order");
        break;
    }
    case 3: {
        syn_span to, from;
        kp_status st = syn_join_parse(s, len, &to, &from, &err);
        if (st == KP_OK) {
            inside(to, len, "join to");
            inside(from, len, "join from");
        }
        failed(st, err, "join");
        break;
    }
    case 4: {
        syn_cond c;
        kp_status st = syn_condition_parse(s, len, &c, &err, &at);
        if (st == KP_OK) {
            inside(c.attr, len, "condition attribute");
            for (size_t i = 0; i < c.nvalues; i++)
                inside(c.values[i], len, "condition value");
            syn_cond_free(&c);
        } else if (at > len) {
            fprintf(stderr, "SYNTAX BUG: condition error offset %zu outside %zu bytes\n", at, len);
            abort();
        }
        failed(st, err, "condition");
        break;
    }
    case 5: {
        syn_signal sg;
        kp_status st = syn_signal_parse(s, len, &sg, &err, &at);
        if (st == KP_OK)
            inside(sg.metric, len, "signal metric");
        else if (at > len) {
            fprintf(stderr, "SYNTAX BUG: signal error offset %zu outside %zu bytes\n", at, len);
            abort();
        }
        failed(st, err, "signal");
        break;
    }
    default: {
        syn_span *v = NULL;
        size_t n = syn_split(s, len, len % 3 ? ",;" : ",", &v);
        for (size_t i = 0; i < n; i++)
            inside(v[i], len, "split element");
        free(v);
        break;
    }
    }
    free(s);
    return 0;
}
