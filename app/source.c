/* source.c - load a design file or a workspace version for the commands. */
#include "source.h"

#include "design_io.h"
#include "diff.h"
#include "i18n.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool source_is_workspace(const char *path)
{
    size_t n = strlen(path);
    if (n >= 8 && strcmp(path + n - 8, ".keyplan") == 0)
        return true;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char h[16];
    size_t r = fread(h, 1, sizeof h, f);
    fclose(f);
    return r == sizeof h && memcmp(h, "SQLite format 3", 16) == 0;
}

int source_open_ws(const char *path, unsigned flags, ws_t **out)
{
    char *err = NULL;
    kp_status st = ws_open(path, flags, out, &err);
    if (st != KP_OK) {
        fprintf(stderr, "keyplan: %s\n", err ? err : kp_status_text(st));
        free(err);
        return 2;
    }
    return 0;
}

bool source_parse_rev(const char *arg, int *rev)
{
    char *end = NULL;
    errno = 0;
    long v = arg ? strtol(arg, &end, 10) : 0;
    if (!arg || !*arg || *end || errno || v < 1 || v > INT_MAX) {
        fprintf(
            stderr,
            _("keyplan: '%s' is not a version; expected a number as 'keyplan log' prints it (1, 2, ...)\n"),
            arg ? arg : "");
        return false;
    }
    *rev = (int)v;
    return true;
}

void source_utf8_locale(void) { i18n_utf8(); }

int source_read(const char *src, int version, source *out)
{
    memset(out, 0, sizeof *out);
    out->name = xstrdup(src);
    if (source_is_workspace(src)) {
        out->is_workspace = true;
        ws_t *ws = NULL;
        if (source_open_ws(src, WS_READONLY, &ws) != 0)
            goto fail;
        char *err = NULL;
        kp_status st = ws_version_get(ws, version, &out->info, NULL, &err);
        if (st == KP_OK)
            st = ws_version_design(ws, out->info.number, &out->design, &err);
        if (st == KP_OK)
            st = ws_log(ws, &out->history, &out->nhistory, &err);
        if (st == KP_OK)
            st = ws_observations(ws, &out->obs, &out->nobs, &err);
        ws_close(ws);
        if (st != KP_OK) {
            fprintf(stderr, "keyplan: %s\n", err ? err : kp_status_text(st));
            free(err);
            goto fail;
        }
        out->version = out->info.number;
    } else {
        if (version > 0) {
            fprintf(stderr, _("keyplan: %s: a design file has no versions; expected a workspace\n"), src);
            goto fail;
        }
        kp_diags dg;
        diags_init(&dg, src);
        out->design = designio_load_file(src, &dg);
        if (!out->design) {
            if (dg.n)
                diags_print(&dg, stderr);
            else
                fprintf(stderr, _("keyplan: %s: cannot load the design\n"), src);
            diags_free(&dg);
            goto fail;
        }
        diags_free(&dg);
    }
    return 0;
fail:
    source_free(out);
    return 2;
}

void source_analyse(source *s)
{
    sig_report_free(&s->signals);
    analysis_free(s->analysis);
    s->analysis = analysis_run(s->design);
    sig_evaluate(s->design, s->analysis, s->obs, s->nobs, &s->signals);
}

int source_load(const char *src, int version, source *out)
{
    if (source_read(src, version, out) != 0)
        return 2;
    source_analyse(out);
    return 0;
}

void source_free(source *s)
{
    if (!s)
        return;
    sig_report_free(&s->signals);
    analysis_free(s->analysis);
    design_free(s->design);
    ws_versions_free(s->history, s->nhistory);
    sig_observations_free(s->obs, s->nobs);
    ws_version_free(&s->info);
    free(s->name);
    memset(s, 0, sizeof *s);
}

char *source_parent_changes(const source *s)
{
    if (!s->is_workspace || s->info.parent <= 0)
        return NULL;
    source prev;
    if (source_load(s->name, s->info.parent, &prev) != 0)
        return NULL;
    kp_diff d;
    diff_compute(prev.design, prev.analysis, &prev.signals, s->design, s->analysis, &s->signals, &d);
    /* TRANSLATORS: a side of a diff: "version 3" */
    char *la = xasprintf(_("version %d"), prev.version), *lb = xasprintf(_("version %d"), s->version);
    char *changes = diff_render(&d, la, lb);
    free(la);
    free(lb);
    diff_free(&d);
    source_free(&prev);
    return changes;
}

void source_machine_begin(char lang[3])
{
    snprintf(lang, 3, "%s", i18n_lang());
    i18n_init("en", NULL); /* English messages, and with them C's figures */
    /* dates inside a machine format (NoSQL Workbench's "Dec 01, 2026, 11:35 PM") in C's words,
       whatever LANG says */
    setlocale(LC_TIME, "C");
}

void source_machine_end(const char lang[3])
{
    i18n_init(lang, NULL);
    i18n_machine_figures();
}

const char *source_time(char *buf, size_t size, const char *iso)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    char z = 0;
    int n = 0;
    if (!iso)
        iso = "";
    snprintf(buf, size, "%s", iso);
    if (strcmp(i18n_lang(), "en") == 0)
        return buf;
    if (sscanf(iso, "%4d-%2d-%2dT%2d:%2d:%2d%c%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
               &tm.tm_min, &tm.tm_sec, &z, &n) != 7 ||
        z != 'Z' || iso[n] != '\0' || tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
        tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
        return buf;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    time_t t = timegm(&tm);
    char tmp[128];
    if (t == (time_t)-1 || i18n_datetime(tmp, sizeof tmp, t) == 0)
        return buf;
    snprintf(buf, size, "%s", tmp);
    return buf;
}
