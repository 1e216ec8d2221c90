/* cmd_workspace.c - keyplan commit | log | show | diff | observe | signals. */
#define _GNU_SOURCE /* sched_getcpu, CPU affinity: the commit's second thread on another CPU */
#include "commands.h"
#include "source.h"
#include "diff.h"
#include "design_io.h"
#include "display.h"
#include "humanfmt.h"
#include "i18n.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "keyplan: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return 2;
}

static int report(kp_status st, char *err)
{
    fprintf(stderr, "keyplan: %s\n", err ? err : kp_status_text(st));
    free(err);
    return 2;
}

/* The workspace opened on a second thread while the first loads the design: each takes about
 * a millisecond and they share nothing, so on a machine with a core to spare a commit waits for
 * the longer one only. WS_AS_IS: nothing is created or upgraded before the design is known to
 * load ("the workspace was not touched"); those cases open again after it. */
typedef struct {
    const char *path;
    ws_t *ws;
    kp_status st;
    char *err;
} open_ahead;

static void *open_ahead_run(void *arg)
{
    open_ahead *a = arg;
    a->st = ws_open(a->path, WS_AS_IS, &a->ws, &a->err);
    return NULL;
}

/* Starts open_ahead_run on a CPU other than this thread's: left to itself, Linux often starts a
 * new thread on its parent's CPU and moves it only later, and the two halves then take turns
 * (measured: in half the runs the opening began once the design was loaded). false when no
 * thread could be started. */
static bool open_ahead_start(pthread_t *t, open_ahead *a)
{
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return false;
    cpu_set_t cpus;
    int here = sched_getcpu();
    if (here >= 0 && sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_ISSET(here, &cpus) &&
        CPU_COUNT(&cpus) > 1) {
        CPU_CLR(here, &cpus);
        pthread_attr_setaffinity_np(&attr, sizeof cpus, &cpus);
    }
    bool ok = pthread_create(t, &attr, open_ahead_run, a) == 0;
    pthread_attr_destroy(&attr);
    return ok;
}

/* Waits for the opening thread, first letting it use this thread's CPU too (the other ones may
 * be busy, and this one is about to wait). */
static void open_ahead_wait(pthread_t t)
{
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof cpus, &cpus) == 0)
        pthread_setaffinity_np(t, sizeof cpus, &cpus);
    pthread_join(t, NULL);
}

/* keyplan commit WORKSPACE DESIGN.yaml -m MSG [--author NAME] [--parent REV] */
int cmd_commit(int argc, char **argv)
{
    const char *wsp = NULL, *file = NULL, *msg = NULL, *author = NULL;
    int parent = WS_PARENT_LATEST;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-m") == 0 || strcmp(argv[i], "--message") == 0) {
            if (++i >= argc)
                return usage_error(_("-m needs a message: keyplan commit WORKSPACE DESIGN.yaml -m MSG"));
            msg = argv[i];
        } else if (strcmp(argv[i], "--author") == 0) {
            if (++i >= argc)
                return usage_error(_("--author needs a name"));
            author = argv[i];
        } else if (strcmp(argv[i], "--parent") == 0) {
            if (++i >= argc)
                return usage_error(_("--parent needs a version number"));
            if (strcmp(argv[i], "0") == 0)
                parent = 0;
            else if (!source_parse_rev(argv[i], &parent))
                return 2;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return usage_error(
                _("commit: unknown option '%s'; expected -m MSG, --author NAME or --parent REV"), argv[i]);
        } else if (!wsp) {
            wsp = argv[i];
        } else if (!file) {
            file = argv[i];
        } else {
            return usage_error(_("commit: unexpected argument '%s'"), argv[i]);
        }
    }
    if (!wsp || !file)
        return usage_error(_("usage: keyplan commit WORKSPACE DESIGN.yaml -m MSG"));
    if (!msg || !*msg)
        return usage_error(_("commit: a message is required (-m MSG): say what changed and why"));
    open_ahead ahead = {.path = wsp, .st = KP_NOTFOUND};
    pthread_t opener;
    bool ahead_runs = open_ahead_start(&opener, &ahead);
    kp_diags dg;
    diags_init(&dg, file);
    kp_design *d = designio_load_file(file, &dg);
    /* the canonical text and the analysis need the design alone: computed while the
       workspace opens */
    char *err = NULL;
    ws_commit_prep *prep = d ? ws_commit_prepare(d, &err) : NULL;
    if (ahead_runs)
        open_ahead_wait(opener);
    if (!d) {
        ws_close(ahead.ws);
        free(ahead.err);
        diags_print(&dg, stderr);
        fprintf(stderr, _("keyplan: %s: not committed; the workspace was not touched\n"), file);
        diags_free(&dg);
        return 2;
    }
    diags_free(&dg);
    ws_t *ws = ahead.ws;
    if (!prep || (!ws && ahead_runs && ahead.st != KP_NOTFOUND && ahead.st != KP_VERSION)) {
        ws_close(ws);
        design_free(d);
        if (!prep) { /* the design cannot be saved: said before any workspace's problem */
            free(ahead.err);
            return report(KP_INVALID, err);
        }
        ws_commit_prep_free(prep);
        return report(ahead.st, ahead.err); /* frees the message */
    }
    free(ahead.err);
    /* a workspace to create or upgrade (or no second thread): opened now */
    if (!ws && source_open_ws(wsp, WS_CREATE, &ws) != 0) {
        ws_commit_prep_free(prep);
        design_free(d);
        return 2;
    }
    int number = 0;
    kp_status st = ws_commit_prepared(ws, d, prep, author, msg, parent, false, &number, &err);
    ws_close(ws);
    ws_commit_prep_free(prep);
    design_free(d);
    if (st != KP_OK)
        return report(st, err);
    /* TRANSLATORS: %1$d the new version's number, %2$s the workspace, %3$s the commit message */
    printf(_("version %1$d committed to %2$s: %3$s\n"), number, wsp, msg);
    return 0;
}

static int one_ws_arg(int argc, char **argv, const char *cmd, const char **wsp)
{
    *wsp = NULL;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1])
            return usage_error(_("unknown option '%s'"), argv[i]);
        if (*wsp) {
            /* TRANSLATORS: %1$s is the command (log, signals, fsck), %2$s the argument */
            fprintf(stderr, _("keyplan: %1$s: unexpected argument '%2$s'\n"), cmd, argv[i]);
            return 2;
        }
        *wsp = argv[i];
    }
    if (!*wsp) {
        fprintf(stderr, "keyplan: %s keyplan %s WORKSPACE\n", _("usage:"), cmd);
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
        printf(_("no versions yet in %s\n"), wsp);
    for (size_t i = n; i-- > 0;) {
        /* one line a version whatever the texts hold: newlines and terminal controls as escapes */
        char *au = util_escape_controls(v[i].author), *msg = util_escape_controls(v[i].message);
        char when[128];
        printf("%d  %s  %s  %s\n", v[i].number, source_time(when, sizeof when, v[i].time), au, msg);
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
            return usage_error(_("show: unknown option '%s'"), argv[i]);
        if (!wsp)
            wsp = argv[i];
        else if (!rev) {
            if (!source_parse_rev(argv[i], &rev))
                return 2;
        } else
            return usage_error(_("show: unexpected argument '%s'"), argv[i]);
    }
    if (!wsp)
        return usage_error(_("usage: keyplan show WORKSPACE [REV]"));
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
    char when[128];
    /* TRANSLATORS: a YAML comment above the design: keep the "# " that starts it. %1$d the version,
       %2$s the workspace, %3$s the author, %4$s the date */
    printf(_("# version %1$d of %2$s, committed by %3$s at %4$s\n"), s.info.number, wsp, au,
           source_time(when, sizeof when, s.info.time));
    printf("# %s\n", msg);
    free(au);
    free(msg);
    if (s.design->ndecisions) {
        printf("%s", _("# decisions:\n"));
        for (size_t i = 0; i < s.design->ndecisions; i++) {
            const kp_decision *dec = &s.design->decisions[i];
            char *title = util_escape_controls(dec->title);
            printf("#   %s [%s] %s\n", dec->id, sig_decision_status(&s.signals, dec), title);
            free(title);
            for (size_t k = 0; k < s.signals.n; k++) {
                const sig_result *r = &s.signals.v[k];
                if (r->decision != dec || !r->fired)
                    continue;
                char dv[HUMANFMT_SIZE], ov[HUMANFMT_SIZE];
                humanfmt(dv, sizeof dv, r->value, HF_NUM_OBSERVED);
                humanfmt(ov, sizeof ov, r->fired_observed ? r->observed->value : 0, HF_NUM_OBSERVED);
                /* TRANSLATORS: YAML comments of `keyplan show`: keep the "#     " that starts them; %1$s
                   is a signal ("rate > 500"), then the design's figure and the observed one */
                if (r->fired_design && r->fired_observed)
                    printf(_("#     fired: %1$s (design %2$s, observed %3$s)\n"), r->signal->src, dv, ov);
                else if (r->fired_design)
                    printf(_("#     fired: %1$s (design %2$s)\n"), r->signal->src, dv);
                else if (r->fired_observed)
                    printf(_("#     fired: %1$s (observed %2$s)\n"), r->signal->src, ov);
                else
                    printf("#     fired: %s ()\n", r->signal->src);
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
            return usage_error(_("diff: unknown option '%s'"), argv[i]);
        if (np == 3)
            return usage_error(_("diff: unexpected argument '%s'"), argv[i]);
        pos[np++] = argv[i];
    }
    if (np != 3)
        return usage_error(_("usage: keyplan diff WORKSPACE REV1 REV2"));
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
    /* TRANSLATORS: a side of a diff: the version's number and its commit message */
    char *la = xasprintf(_("version %d (%s)"), r1, ma), *lb = xasprintf(_("version %d (%s)"), r2, mb);
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
                return usage_error(_("--source needs a name (cloudwatch, load-test, ...)"));
            src = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return usage_error(_("observe: unknown option '%s'"), argv[i]);
        } else if (!wsp) {
            wsp = argv[i];
        } else if (!kv) {
            kv = argv[i];
        } else {
            return usage_error(_("observe: unexpected argument '%s'"), argv[i]);
        }
    }
    if (!wsp || !kv)
        return usage_error(_("usage: keyplan observe WORKSPACE METRIC=VALUE (e.g. pattern.5.rate=60)"));
    const char *eq = strrchr(kv, '=');
    if (!eq || eq == kv || !eq[1])
        return usage_error(_("observe: '%s' is not METRIC=VALUE; expected e.g. pattern.5.rate=60"), kv);
    char *metric = xstrndup(kv, (size_t)(eq - kv));
    size_t ml = strlen(metric);
    while (ml && metric[ml - 1] == ' ')
        metric[--ml] = '\0';
    char *end = NULL;
    errno = 0;
    double value = strtod(eq + 1, &end);
    if (*end || errno || !isfinite(value)) {
        free(metric);
        return usage_error(
            _("observe: '%s' is not a number; expected METRIC=NUMBER such as pattern.5.rate=60"), eq + 1);
    }
    char *why = NULL;
    if (sig_metric_check(metric, &why) != KP_OK) {
        fprintf(stderr, _("keyplan: observe: unknown metric '%1$s': %2$s\n"), metric, why);
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
    {
        char num[HUMANFMT_SIZE];
        /* TRANSLATORS: %1$s is a metric (pattern.5.rate), %2$s the figure recorded */
        printf(_("observed %1$s = %2$s\n"), metric, humanfmt(num, sizeof num, value, HF_NUM_OBSERVED));
    }
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
                _("keyplan: observe: %1$s = %2$s was recorded, but the signals could not be checked against "
                  "version %3$d\n"),
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
            printf(_("note: version %1$d has no %2$s; the observation is kept for later versions\n"),
                   s.version, metric);
        else if (!used)
            printf(_("note: no decision of version %1$d watches %2$s\n"), s.version, metric);
        for (size_t i = 0; i < s.signals.n; i++) {
            const sig_result *r = &s.signals.v[i];
            if (r->fired_observed && strcmp(r->signal->metric, metric) == 0)
                /* TRANSLATORS: %1$s a decision's id, %2$s its signal ("rate > 500"), %3$s the id again */
                printf(_("signal fired: %1$s: %2$s -> decision %3$s reopens\n"), r->decision->id,
                       r->signal->src, r->decision->id);
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
        printf(_("signals of version %1$d (%2$s)\n"), s.version, msg);
        free(msg);
    }
    if (s.signals.n == 0)
        printf("%s", _("no decision has reopening signals\n"));
    /* the first two columns padded by display cells: ids such as `línea` line up */
    int wid = 0, wsig = 0;
    for (size_t i = 0; i < s.signals.n; i++) {
        int a = disp_width(s.signals.v[i].decision->id), b = disp_width(s.signals.v[i].signal->src);
        wid = a > wid ? a : wid;
        wsig = b > wsig ? b : wsig;
    }
    for (size_t i = 0; i < s.signals.n; i++) {
        const sig_result *r = &s.signals.v[i];
        sbuf id, sg;
        sbuf_init(&id);
        sbuf_init(&sg);
        disp_cell(&id, r->decision->id, wid, 0);
        disp_cell(&sg, r->signal->src, wsig, 0);
        char *idc = sbuf_steal(&id), *sgc = sbuf_steal(&sg), *obs = NULL;
        char dv[HUMANFMT_SIZE], ov[HUMANFMT_SIZE], when[128];
        if (r->known)
            humanfmt(dv, sizeof dv, r->value, HF_NUM_OBSERVED);
        else
            snprintf(dv, sizeof dv, "%s", P_("figure", "unknown"));
        if (r->observed) {
            char *src = util_escape_controls(r->observed->source);
            /* TRANSLATORS: an observation: %1$s the figure, %2$s when, %3$s its source (cloudwatch) */
            obs = xasprintf(_("%1$s (%2$s, %3$s)"),
                            humanfmt(ov, sizeof ov, r->observed->value, HF_NUM_OBSERVED),
                            source_time(when, sizeof when, r->observed->time), src);
            free(src);
        } else {
            obs = xstrdup(P_("observation", "none"));
        }
        /* TRANSLATORS: a row of `keyplan signals`: %1$s the decision, %2$s its signal (both padded),
           %3$s the design's figure, %4$s the observation, %5$s FIRED or ok */
        printf(_("%1$s  %2$s  design %3$s  observed %4$s  %5$s\n"), idc, sgc, dv, obs,
               r->fired ? _("FIRED") : P_("signal", "ok"));
        free(idc);
        free(sgc);
        free(obs);
    }
    if (s.signals.fired)
        printf(ngettext("%zu signal fired: decision to reopen:", "%zu signals fired: decisions to reopen:",
                        s.signals.fired),
               s.signals.fired);
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
    const char *ok = P_("fsck", "ok");
    printf(_("  file check (integrity):  %s\n"), r.integrity ? r.integrity : ok);
    printf(_("  references (foreign keys): %s\n"), r.foreign_keys ? r.foreign_keys : ok);
    for (size_t i = 0; i < r.nversions; i++)
        /* TRANSLATORS: fsck's line for a version: its number (4 columns) then "intact" or its problem */
        printf(_("  version %-4d %s\n"), r.versions[i].number,
               r.versions[i].problem ? r.versions[i].problem : _("intact"));
    if (r.working)
        printf(_("  working copy  does not load: %s\n"), r.working);
    if (r.problems == 0) {
        printf(ngettext("%zu version, all intact\n", "%zu versions, all intact\n", r.nversions), r.nversions);
    } else {
        printf(ngettext("%zu problem found; nothing was changed\n",
                        "%zu problems found; nothing was changed\n", r.problems),
               r.problems);
        if (r.last_intact > 0)
            /* TRANSLATORS: %1$d the latest intact version, %2$s the workspace; keep the two commands
               as they are but for the commit message between quotes */
            printf(
                _("to go on from the latest intact version (%1$d), in a new workspace (this one stays as it "
                  "is, for the record):\n"
                  "  keyplan show %2$s %1$d > design.yaml\n"
                  "  keyplan commit recovered.keyplan design.yaml -m \"restored from version %1$d of %2$s\"\n"),
                r.last_intact, wsp);
        else if (r.nversions)
            printf("%s", _("no version is intact: restore the file from a backup\n"));
    }
    int code = r.problems ? 1 : 0;
    ws_fsck_report_free(&r);
    return code;
}
