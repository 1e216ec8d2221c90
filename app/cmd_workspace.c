/* cmd_workspace.c - keyplan commit | log | show | diff | observe | signals. */
#include "commands.h"
#include "source.h"
#include "diff.h"
#include "design_io.h"
#include "humanfmt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "keyplan: ");
    fprintf(stderr, fmt, arg ? arg : "");
    fputc('\n', stderr);
    return 2;
}

static int report(kp_status st, char *err)
{
    fprintf(stderr, "keyplan: %s\n", err ? err : kp_status_text(st));
    free(err);
    return 2;
}

/* An observed or derived figure as the workspace commands print it. */
static void print_num(FILE *out, double v)
{
    char buf[HUMANFMT_SIZE];
    fputs(humanfmt(buf, sizeof buf, v, HF_NUM_OBSERVED), out);
}

/* keyplan commit WORKSPACE DESIGN.yaml -m MSG [--author NAME] [--parent REV] */
int cmd_commit(int argc, char **argv)
{
    const char *wsp = NULL, *file = NULL, *msg = NULL, *author = NULL;
    int parent = WS_PARENT_LATEST;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-m") == 0 || strcmp(argv[i], "--message") == 0) {
            if (++i >= argc)
                return usage_error("-m needs a message: keyplan commit WORKSPACE DESIGN.yaml -m MSG%s", NULL);
            msg = argv[i];
        } else if (strcmp(argv[i], "--author") == 0) {
            if (++i >= argc)
                return usage_error("--author needs a name%s", NULL);
            author = argv[i];
        } else if (strcmp(argv[i], "--parent") == 0) {
            if (++i >= argc)
                return usage_error("--parent needs a version number%s", NULL);
            if (strcmp(argv[i], "0") == 0)
                parent = 0;
            else if (!source_parse_rev(argv[i], &parent))
                return 2;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return usage_error("commit: unknown option '%s'; expected -m MSG, --author NAME or --parent REV",
                               argv[i]);
        } else if (!wsp) {
            wsp = argv[i];
        } else if (!file) {
            file = argv[i];
        } else {
            return usage_error("commit: unexpected argument '%s'", argv[i]);
        }
    }
    if (!wsp || !file)
        return usage_error("usage: keyplan commit WORKSPACE DESIGN.yaml -m MSG%s", NULL);
    if (!msg || !*msg)
        return usage_error("commit: a message is required (-m MSG): say what changed and why%s", NULL);
    kp_diags dg;
    diags_init(&dg, file);
    kp_design *d = designio_load_file(file, &dg);
    if (!d) {
        diags_print(&dg, stderr);
        fprintf(stderr, "keyplan: %s: not committed; the workspace was not touched\n", file);
        diags_free(&dg);
        return 2;
    }
    diags_free(&dg);
    ws_t *ws = NULL;
    if (source_open_ws(wsp, WS_CREATE, &ws) != 0) {
        design_free(d);
        return 2;
    }
    char *err = NULL;
    int number = 0;
    kp_status st = ws_commit(ws, d, author, msg, parent, false, &number, &err);
    ws_close(ws);
    design_free(d);
    if (st != KP_OK)
        return report(st, err);
    printf("version %d committed to %s: %s\n", number, wsp, msg);
    return 0;
}

static int one_ws_arg(int argc, char **argv, const char *cmd, const char **wsp)
{
    *wsp = NULL;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1])
            return usage_error("unknown option '%s'", argv[i]);
        if (*wsp) {
            fprintf(stderr, "keyplan: %s: unexpected argument '%s'\n", cmd, argv[i]);
            return 2;
        }
        *wsp = argv[i];
    }
    if (!*wsp) {
        fprintf(stderr, "keyplan: usage: keyplan %s WORKSPACE\n", cmd);
        return 2;
    }
    return 0;
}

/* keyplan log WORKSPACE */
int cmd_log(int argc, char **argv)
{
    const char *wsp;
    if (one_ws_arg(argc, argv, "log", &wsp) != 0)
        return 2;
    ws_t *ws = NULL;
    if (source_open_ws(wsp, WS_READONLY, &ws) != 0)
        return 2;
    ws_version *v = NULL;
    size_t n = 0;
    char *err = NULL;
    kp_status st = ws_log(ws, &v, &n, &err);
    ws_close(ws);
    if (st != KP_OK)
        return report(st, err);
    if (n == 0)
        printf("no versions yet in %s\n", wsp);
    for (size_t i = n; i-- > 0;) {
        /* one line a version whatever the texts hold: newlines and terminal controls as escapes */
        char *au = util_escape_controls(v[i].author), *msg = util_escape_controls(v[i].message);
        printf("%d  %s  %s  %s\n", v[i].number, v[i].time, au, msg);
        free(au);
        free(msg);
    }
    ws_versions_free(v, n);
    return 0;
}

/* keyplan show WORKSPACE [REV] */
int cmd_show(int argc, char **argv)
{
    const char *wsp = NULL;
    int rev = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1])
            return usage_error("show: unknown option '%s'", argv[i]);
        if (!wsp)
            wsp = argv[i];
        else if (!rev) {
            if (!source_parse_rev(argv[i], &rev))
                return 2;
        } else
            return usage_error("show: unexpected argument '%s'", argv[i]);
    }
    if (!wsp)
        return usage_error("usage: keyplan show WORKSPACE [REV]%s", NULL);
    ws_t *ws = NULL;
    if (source_open_ws(wsp, WS_READONLY, &ws) != 0)
        return 2;
    ws_close(ws);
    source s;
    if (source_load(wsp, rev, &s) != 0)
        return 2;
    char *err = NULL;
    char *yaml = designio_save(s.design, &err);
    if (!yaml) {
        fprintf(stderr, "keyplan: show: %s\n", err);
        free(err);
        source_free(&s);
        return 2;
    }
    /* the header is YAML comments: every text in it is kept to one line (a newline in a message
       or a title must not start a live YAML line before the design) */
    char *au = util_escape_controls(s.info.author), *msg = util_escape_controls(s.info.message);
    printf("# version %d of %s, committed by %s at %s\n# %s\n", s.info.number, wsp, au, s.info.time, msg);
    free(au);
    free(msg);
    if (s.design->ndecisions) {
        printf("# decisions:\n");
        for (size_t i = 0; i < s.design->ndecisions; i++) {
            const kp_decision *dec = &s.design->decisions[i];
            char *title = util_escape_controls(dec->title);
            printf("#   %s [%s] %s\n", dec->id, sig_decision_status(&s.signals, dec), title);
            free(title);
            for (size_t k = 0; k < s.signals.n; k++) {
                const sig_result *r = &s.signals.v[k];
                if (r->decision != dec || !r->fired)
                    continue;
                printf("#     fired: %s (", r->signal->src);
                if (r->fired_design) {
                    fputs("design ", stdout);
                    print_num(stdout, r->value);
                }
                if (r->fired_observed) {
                    printf("%sobserved ", r->fired_design ? ", " : "");
                    print_num(stdout, r->observed->value);
                }
                puts(")");
            }
        }
    }
    fputs(yaml, stdout);
    free(yaml);
    source_free(&s);
    return 0;
}

/* keyplan diff WORKSPACE REV1 REV2 */
int cmd_diff(int argc, char **argv)
{
    const char *pos[3] = {0};
    int np = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1])
            return usage_error("diff: unknown option '%s'", argv[i]);
        if (np == 3)
            return usage_error("diff: unexpected argument '%s'", argv[i]);
        pos[np++] = argv[i];
    }
    if (np != 3)
        return usage_error("usage: keyplan diff WORKSPACE REV1 REV2%s", NULL);
    int r1, r2;
    if (!source_parse_rev(pos[1], &r1) || !source_parse_rev(pos[2], &r2))
        return 2;
    ws_t *ws = NULL;
    if (source_open_ws(pos[0], WS_READONLY, &ws) != 0)
        return 2;
    ws_close(ws);
    source a, b;
    if (source_load(pos[0], r1, &a) != 0)
        return 2;
    if (source_load(pos[0], r2, &b) != 0) {
        source_free(&a);
        return 2;
    }
    kp_diff d;
    diff_compute(a.design, a.analysis, &a.signals, b.design, b.analysis, &b.signals, &d);
    char *ma = util_escape_controls(a.info.message), *mb = util_escape_controls(b.info.message);
    char *la = xasprintf("version %d (%s)", r1, ma), *lb = xasprintf("version %d (%s)", r2, mb);
    free(ma);
    free(mb);
    char *text = diff_render(&d, la, lb);
    fputs(text, stdout);
    free(text);
    free(la);
    free(lb);
    diff_free(&d);
    source_free(&a);
    source_free(&b);
    return 0;
}

/* keyplan observe WORKSPACE METRIC=VALUE [--source S] */
int cmd_observe(int argc, char **argv)
{
    const char *wsp = NULL, *kv = NULL, *src = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--source") == 0) {
            if (++i >= argc)
                return usage_error("--source needs a name (cloudwatch, load-test, ...)%s", NULL);
            src = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return usage_error("observe: unknown option '%s'", argv[i]);
        } else if (!wsp) {
            wsp = argv[i];
        } else if (!kv) {
            kv = argv[i];
        } else {
            return usage_error("observe: unexpected argument '%s'", argv[i]);
        }
    }
    if (!wsp || !kv)
        return usage_error("usage: keyplan observe WORKSPACE METRIC=VALUE (e.g. pattern.5.rate=60)%s", NULL);
    const char *eq = strrchr(kv, '=');
    if (!eq || eq == kv || !eq[1])
        return usage_error("observe: '%s' is not METRIC=VALUE; expected e.g. pattern.5.rate=60", kv);
    char *metric = xstrndup(kv, (size_t)(eq - kv));
    size_t ml = strlen(metric);
    while (ml && metric[ml - 1] == ' ')
        metric[--ml] = '\0';
    char *end = NULL;
    errno = 0;
    double value = strtod(eq + 1, &end);
    if (*end || errno || !isfinite(value)) {
        free(metric);
        return usage_error("observe: '%s' is not a number; expected METRIC=NUMBER such as pattern.5.rate=60",
                           eq + 1);
    }
    char *why = NULL;
    if (sig_metric_check(metric, &why) != KP_OK) {
        fprintf(stderr, "keyplan: observe: unknown metric '%s': %s\n", metric, why);
        free(why);
        free(metric);
        return 2;
    }
    ws_t *ws = NULL;
    if (source_open_ws(wsp, 0, &ws) != 0) {
        free(metric);
        return 2;
    }
    char *err = NULL;
    kp_status st = ws_observe(ws, metric, value, src, &err);
    ws_close(ws);
    if (st != KP_OK) {
        free(metric);
        return report(st, err);
    }
    printf("observed %s = ", metric);
    print_num(stdout, value);
    putchar('\n');
    /* say at once which signals this observation fires */
    source s;
    int latest = 0;
    if (source_open_ws(wsp, WS_READONLY, &ws) == 0) {
        ws_latest(ws, &latest, NULL);
        ws_close(ws);
    }
    if (latest > 0 && source_load(wsp, 0, &s) != 0) {
        /* source_load said why on stderr */
        fprintf(stderr,
                "keyplan: observe: %s = %s was recorded, but the signals could not be checked against "
                "version %d\n",
                metric, eq + 1, latest);
        free(metric);
        return 2;
    }
    if (latest > 0) {
        double v;
        bool used = false;
        for (size_t i = 0; i < s.signals.n; i++)
            used |= strcmp(s.signals.v[i].signal->metric, metric) == 0;
        if (!analysis_metric(s.analysis, metric, &v))
            printf("note: version %d has no %s; the observation is kept for later versions\n", s.version,
                   metric);
        else if (!used)
            printf("note: no decision of version %d watches %s\n", s.version, metric);
        for (size_t i = 0; i < s.signals.n; i++) {
            const sig_result *r = &s.signals.v[i];
            if (r->fired_observed && strcmp(r->signal->metric, metric) == 0)
                printf("signal fired: %s: %s -> decision %s reopens\n", r->decision->id, r->signal->src,
                       r->decision->id);
        }
        source_free(&s);
    }
    free(metric);
    return 0;
}

/* keyplan signals WORKSPACE: exit 1 when any fired */
int cmd_signals(int argc, char **argv)
{
    const char *wsp;
    if (one_ws_arg(argc, argv, "signals", &wsp) != 0)
        return 2;
    ws_t *ws = NULL;
    if (source_open_ws(wsp, WS_READONLY, &ws) != 0)
        return 2;
    ws_close(ws);
    source s;
    if (source_load(wsp, 0, &s) != 0)
        return 2;
    if (s.is_workspace) {
        char *msg = util_escape_controls(s.info.message);
        printf("signals of version %d (%s)\n", s.version, msg);
        free(msg);
    }
    if (s.signals.n == 0)
        printf("no decision has reopening signals\n");
    int wid = 0, wsig = 0;
    for (size_t i = 0; i < s.signals.n; i++) {
        int a = (int)strlen(s.signals.v[i].decision->id), b = (int)strlen(s.signals.v[i].signal->src);
        wid = a > wid ? a : wid;
        wsig = b > wsig ? b : wsig;
    }
    for (size_t i = 0; i < s.signals.n; i++) {
        const sig_result *r = &s.signals.v[i];
        printf("%-*s  %-*s  design ", wid, r->decision->id, wsig, r->signal->src);
        if (r->known)
            print_num(stdout, r->value);
        else
            fputs("unknown", stdout);
        fputs("  observed ", stdout);
        if (r->observed) {
            print_num(stdout, r->observed->value);
            {
                char *src = util_escape_controls(r->observed->source);
                printf(" (%s, %s)", r->observed->time, src);
                free(src);
            }
        } else {
            fputs("none", stdout);
        }
        printf("  %s\n", r->fired ? "FIRED" : "ok");
    }
    if (s.signals.fired)
        printf("%zu signal%s fired: decision%s to reopen:", s.signals.fired, s.signals.fired == 1 ? "" : "s",
               s.signals.fired == 1 ? "" : "s");
    for (size_t i = 0; s.signals.fired && i < s.design->ndecisions; i++)
        if (sig_decision_fired(&s.signals, &s.design->decisions[i]))
            printf(" %s", s.design->decisions[i].id);
    if (s.signals.fired)
        putchar('\n');
    int rc = s.signals.fired ? 1 : 0;
    source_free(&s);
    return rc;
}

/* keyplan fsck WORKSPACE: what is intact, what is damaged, and how to recover. */
int cmd_fsck(int argc, char **argv)
{
    const char *wsp;
    if (one_ws_arg(argc, argv, "fsck", &wsp) != 0)
        return 2;
    ws_t *ws = NULL;
    if (source_open_ws(wsp, WS_READONLY | WS_SALVAGE, &ws) != 0)
        return 2;
    ws_fsck_report r;
    char *err = NULL;
    kp_status st = ws_fsck(ws, &r, &err);
    ws_close(ws);
    if (st != KP_OK)
        return report(st, err);
    printf("%s\n", wsp);
    printf("  file check (integrity):  %s\n", r.integrity ? r.integrity : "ok");
    printf("  references (foreign keys): %s\n", r.foreign_keys ? r.foreign_keys : "ok");
    for (size_t i = 0; i < r.nversions; i++)
        printf("  version %-4d %s\n", r.versions[i].number,
               r.versions[i].problem ? r.versions[i].problem : "intact");
    if (r.working)
        printf("  working copy  does not load: %s\n", r.working);
    if (r.problems == 0) {
        printf("%zu version%s, all intact\n", r.nversions, r.nversions == 1 ? "" : "s");
    } else {
        printf("%zu problem%s found; nothing was changed\n", r.problems, r.problems == 1 ? "" : "s");
        if (r.last_intact > 0)
            printf(
                "to go on from the latest intact version (%d), in a new workspace (this one stays as it is, "
                "for the record):\n"
                "  keyplan show %s %d > design.yaml\n"
                "  keyplan commit recovered.keyplan design.yaml -m \"restored from version %d of %s\"\n",
                r.last_intact, wsp, r.last_intact, r.last_intact, wsp);
        else if (r.nversions)
            printf("no version is intact: restore the file from a backup\n");
    }
    int code = r.problems ? 1 : 0;
    ws_fsck_report_free(&r);
    return code;
}
