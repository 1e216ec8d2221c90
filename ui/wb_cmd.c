/* wb_cmd.c - the `:` command line. One table (name, aliases, arguments, handler, usage, help)
 * drives the parsing, the dispatch, the unknown-command hint and the help lines, so that help
 * lists every command; an action's name (actions.h) runs that action. */
#include "wb_int.h"

#include "design_io.h"
#include "exchange.h"
#include "export_md.h"
#include "fileio.h"
#include "help.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

static int usage(wb *w, const wb_cmd *c)
{
    wb_message(w, UI_ROLE_WARN, _("usage: %s"), _(c->usage));
    return UI_REDRAW;
}

static int cmd_commit(wb *w, const wb_cmd *c, const wb_cmd_args *a)
{
    (void)c;
    if (*a->rest[0])
        return wb_commit(w, a->rest[0]);
    wb_prompt_open(w, WB_PROMPT_COMMIT, "");
    return UI_REDRAW;
}

/* :set lang LANG ("" when not one word): the workbench speaks LANG ("en", "es") from the next frame on. The model's own
 * texts (warnings, findings, fixes) are written by the analysis in the language it ran in: the
 * analysis runs again whole. The whole terminal is repainted. */
static int set_lang(wb *w, const char *lang)
{
    if (!*lang) {
        wb_message(w, UI_ROLE_WARN, _("usage: :set lang en|es"));
        return UI_REDRAW;
    }
    if (strcmp(lang, "en") != 0 && strcmp(lang, "es") != 0) {
        wb_message(w, UI_ROLE_BAD, _("unknown language '%s'; the languages are en, es"), lang);
        return UI_REDRAW;
    }
    const char *err = NULL;
    bool ok = i18n_init(lang, &err);
    wb_analysis_free(w, w->an); /* a full analysis: analysis_update would keep the old texts */
    w->an = NULL;
    wb_recompute(w);
    if (ok)
        wb_message(w, UI_ROLE_GOOD, _("keyplan speaks English now (:set lang es: Spanish)"));
    else
        wb_message(w, UI_ROLE_BAD, _("language %s: %s"), lang, err ? _(err) : "");
    return UI_REDRAW | UI_RESIZE;
}

static int cmd_set(wb *w, const wb_cmd *c, const wb_cmd_args *a)
{
    (void)c;
    if (a->argc >= 2 && strcmp(a->argv[1], "author") == 0)
        return wb_set_author(w, a->rest[1]);
    if (a->argc >= 2 && strcmp(a->argv[1], "lang") == 0)
        return set_lang(w, a->argc == 3 ? a->argv[2] : ""); /* one word, or the usage */
    const kp_design *d = session_design(w->ss);
    int row = a->argc >= 2 ? edit_setting_find(a->argv[1]) : -1;
    if (row < 0) {
        sbuf b;
        sbuf_init(&b);
        sbuf_add(&b, "");
        for (size_t i = 0; i < edit_nrows(d, EDIT_SETTINGS); i++) {
            char *n = edit_get(d, EDIT_SETTINGS, i, 0);
            sbuf_printf(&b, " %s", n);
            free(n);
        }
        /* TRANSLATORS: %s is the list of the settings' names, each after a space */
        wb_message(w, UI_ROLE_WARN,
                   a->argc >= 2 ? _("unknown setting; usage: :set NAME VALUE with NAME one of%s")
                                : _("usage: :set NAME VALUE with NAME one of%s"),
                   b.s);
        sbuf_free(&b);
        return UI_REDRAW;
    }
    const char *name = a->argv[1];
    char *err = NULL, *label = xasprintf("set %s", name);
    kp_status st = KP_OK;
    bool set = wb_set_rest(w, EDIT_SETTINGS, (size_t)row, 1, a->rest[1], label, &st, &err);
    free(label);
    if (!set) {
        wb_message(w, UI_ROLE_BAD, "%s: %s", name, err);
        free(err);
        return UI_REDRAW;
    }
    if (st == KP_READONLY)
        return UI_REDRAW;
    char *now = edit_get(session_design(w->ss), EDIT_SETTINGS, (size_t)row, 1);
    wb_message(w, UI_ROLE_GOOD, _("%s = %s (u undoes)"), name, *now ? now : _("(not set)"));
    free(now);
    return UI_REDRAW;
}

static int cmd_export(wb *w, const wb_cmd *c, const wb_cmd_args *a)
{
    const char *f = a->argv[1];
    if (strcmp(f, "md") != 0 && strcmp(f, "json") != 0 && !exchange_has_format(f))
        return usage(w, c);
    return wb_export(w, f, a->argv[2]);
}

static bool is_yaml_path(const char *p)
{
    size_t n = strlen(p);
    return (n > 5 && strcmp(p + n - 5, ".yaml") == 0) || (n > 4 && strcmp(p + n - 4, ".yml") == 0);
}

static int cmd_import(wb *w, const wb_cmd *c, const wb_cmd_args *a)
{
    (void)c;
    const char *file = a->argv[1];
    kp_diags dg;
    diags_init(&dg, NULL);
    kp_design *nd = is_yaml_path(file) ? designio_load_file(file, &dg) : exchange_import_file(file, &dg);
    if (!nd) {
        char *m = dg.n ? diags_format(&dg, 0) : xasprintf(_("%s: cannot be imported"), file);
        wb_message(w, UI_ROLE_BAD, dg.errors > 1 ? _("import: %s (and more)") : _("import: %s"), m);
        free(m);
        diags_free(&dg);
        return UI_REDRAW;
    }
    size_t warnings = dg.n - dg.errors;
    diags_free(&dg);
    drafts_clear(&w->drafts);
    char *label = xasprintf("import %s", file);
    kp_status st = wb_apply(w, nd, label);
    free(label);
    if (st == KP_READONLY)
        return UI_REDRAW;
    wb_message(w, UI_ROLE_GOOD,
               warnings
                   ? _("imported %s as the working copy (u undoes); the import has warnings: keyplan import "
                       "FILE lists them")
                   : _("imported %s as the working copy (u undoes)"),
               file);
    return UI_REDRAW;
}

static int cmd_check(wb *w, const wb_cmd *c, const wb_cmd_args *a)
{
    (void)c, (void)a;
    if (!w->an || !w->good) {
        wb_message(w, UI_ROLE_BAD, _("check: the design has no analysis yet; fix the errors first"));
        return UI_REDRAW;
    }
    char *text = report_check_text(session_path(w->ss), w->good, w->an);
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    if (w->partial)
        sbuf_add(&b, _("The working copy does not validate: this is the report of its valid rest (the places "
                       "marked ! are left out).\n\n"));
    sbuf_add(&b, text);
    free(text);
    char *title =
        xstrdup(session_dirty(w->ss) || !session_base(w->ss) ? _("check: the uncommitted working copy")
                                                             : _("check: the working copy (= its version)"));
    detail_show_text(&w->detail, title, b.s);
    free(title);
    sbuf_free(&b);
    return UI_REDRAW;
}

static int cmd_diff(wb *w, const wb_cmd *c, const wb_cmd_args *a)
{
    char *e1 = NULL, *e2 = NULL;
    long v1 = strtol(a->argv[1], &e1, 10), v2 = strtol(a->argv[2], &e2, 10);
    if (*e1 || *e2 || v1 < 1 || v2 < 1)
        return usage(w, c);
    w->screen = UI_SCREEN_HISTORY;
    wb_load_versions(w);
    screen_env e = wb_env(w, UI_SCREEN_HISTORY);
    screen_history_diff(&e, (int)v1, (int)v2);
    return UI_REDRAW;
}

static int cmd_tour(wb *w, const wb_cmd *c, const wb_cmd_args *a)
{
    (void)c;
    return wb_tour_command(w, a->argc >= 2 ? a->argv[1] : "");
}

static int cmd_recover(wb *w, const wb_cmd *c, const wb_cmd_args *a)
{
    (void)c;
    const char *text = session_unloaded_text(w->ss);
    char *err = NULL;
    if (!text)
        wb_message(w, UI_ROLE_WARN, _("nothing to recover: the working copy loaded"));
    else if (fileio_write_atomic(a->argv[1], text, strlen(text), &err) != KP_OK)
        wb_message(w, UI_ROLE_BAD, _("recover: %s"), err ? err : _("cannot write"));
    else
        wb_message(w, UI_ROLE_GOOD, _("wrote the unloadable working copy to %s: fix it, then keyplan commit"),
                   a->argv[1]);
    free(err);
    return UI_REDRAW;
}

static int cmd_help(wb *w, const wb_cmd *c, const wb_cmd_args *a)
{
    (void)c, (void)a;
    w->help = true;
    w->help_top = 0;
    return UI_REDRAW;
}

static int cmd_quit(wb *w, const wb_cmd *c, const wb_cmd_args *a)
{
    (void)c, (void)a;
    w->quit = true;
    return UI_QUIT;
}

static int cmd_write(wb *w, const wb_cmd *c, const wb_cmd_args *a)
{
    (void)c, (void)a;
    wb_message(w, UI_ROLE_GOOD, _("the working copy is saved after every edit; :commit records a version"));
    return UI_REDRAW;
}

static const wb_cmd commands[] = {
    {.name = "commit",
     .args = "[MSG]",
     .nargs = -1,
     .run = cmd_commit,
     .help = N_("Commit the working copy as a new version with message MSG (without one, asks for it)")},
    {.name = "set",
     .args = "NAME VALUE",
     .nargs = -1,
     .run = cmd_set,
     .help =
         N_("Set one of the design's settings (billing, streams, prices...: all on Cost & heat); u undoes. "
            ":set author NAME works on NAME's working copy; :set lang en|es speaks English or Spanish")},
    {.name = "compact",
     .args = "[KEEP]",
     .nargs = -1,
     .run = wb_cmd_compact,
     .help = N_("Keep your newest KEEP undo steps (default 100) and shrink the workspace file")},
    {.name = "export",
     .args = "FORMAT FILE",
     .nargs = 2,
     .run = cmd_export,
     .usage = ":export md|json|cfn|nosqlwb|csv|requests|items FILE",
     .help =
         N_("Write the working copy to FILE as FORMAT (md: the decision record), as keyplan export does")},
    {.name = "import",
     .args = "FILE",
     .nargs = 1,
     .run = cmd_import,
     .usage = N_(":import FILE (a design .yaml, a NoSQL Workbench model or a CSV pattern table)"),
     .help = N_("Replace the working copy by the design in FILE (YAML, NoSQL Workbench, CSV); u undoes")},
    {.name = "check",
     .args = "",
     .nargs = 0,
     .run = cmd_check,
     .usage = ":check",
     .help = N_("Show keyplan check's report of the working copy in the detail view")},
    {.name = "diff",
     .args = "A B",
     .nargs = 2,
     .run = cmd_diff,
     .usage = N_(":diff REV1 REV2 (version numbers, e.g. :diff 3 5)"),
     .help = N_("Show on History what changed from version A to version B")},
    {.name = "tour",
     .args = "[off|reset|STEP]",
     .nargs = -1,
     .run = cmd_tour,
     .help =
         N_("Show the tour where it was left (off: leave it, Esc too; reset: the step's own design again; "
            "STEP: go there)")},
    {.name = "recover",
     .args = "FILE",
     .nargs = 1,
     .run = cmd_recover,
     .usage = N_(":recover FILE (writes the working copy that did not load)"),
     .help = N_("Write the working copy that did not load to FILE, to fix it by hand")},
    {.name = "help", .aliases = "h", .args = "", .nargs = -1, .run = cmd_help, .help = N_("Show this help")},
    {.name = "quit",
     .aliases = "q wq",
     .args = "",
     .nargs = -1,
     .run = cmd_quit,
     .help = N_("Quit at once (the working copy is kept)")},
    {.name = "write",
     .aliases = "w",
     .args = "",
     .nargs = -1,
     .run = cmd_write,
     .noop = true,
     .help = N_("Nothing to do: every edit is saved at once (:commit records a version)")},
};

const wb_cmd *wb_commands(size_t *n)
{
    *n = sizeof commands / sizeof *commands;
    return commands;
}

static bool is_alias(const char *aliases, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = aliases; p && *p;) {
        while (*p == ' ')
            p++;
        size_t k = strcspn(p, " ");
        if (k && k == n && strncmp(p, word, n) == 0)
            return true;
        p += k;
    }
    return false;
}

static const wb_cmd *find_command(const char *word)
{
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(commands[i].name, word) == 0 || is_alias(commands[i].aliases, word))
            return &commands[i];
    return NULL;
}

static int unknown(wb *w, const char *word)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!commands[i].noop)
            sbuf_printf(&b, "%s%s%s%s", b.len ? ", " : "", commands[i].name, *commands[i].args ? " " : "",
                        commands[i].args);
    wb_message(w, UI_ROLE_WARN, _("unknown command '%s'; expected %s or an action name (? lists them)"), word,
               b.s);
    sbuf_free(&b);
    return UI_REDRAW;
}

int wb_command(wb *w, const char *line)
{
    char **argv = NULL;
    const char **rest = NULL;
    size_t argc = 0, cap = 0, rcap = 0;
    const char *p = line;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        VEC_GROW(argv, argc, cap);
        argv[argc++] = xstrndup(p, (size_t)(e - p));
        const char *r = e;
        while (*r == ' ')
            r++;
        VEC_GROW(rest, argc - 1, rcap);
        rest[argc - 1] = r;
        p = e;
    }
    int f = UI_REDRAW;
    if (argc) {
        const wb_cmd *c = find_command(argv[0]);
        wb_cmd_args a = {argv, argc, rest};
        if (c && c->nargs >= 0 && argc - 1 != (size_t)c->nargs)
            f = usage(w, c);
        else if (c)
            f = c->run(w, c, &a);
        else if (ui_action_find(argv[0]) != UI_ACT_NONE)
            f = wb_run_action(w, ui_action_find(argv[0]));
        else
            f = unknown(w, argv[0]);
    }
    for (size_t i = 0; i < argc; i++)
        free(argv[i]);
    free(argv);
    free(rest);
    return f;
}

char **wb_command_help(size_t *n)
{
    size_t nc = sizeof commands / sizeof *commands;
    char **v = xcalloc(nc + 1, sizeof *v);
    v[0] = help_line(_(": commands"), _("Typed after : (from the command table); an action's name runs it"));
    for (size_t i = 0; i < nc; i++) {
        const wb_cmd *c = &commands[i];
        sbuf b;
        sbuf_init(&b);
        sbuf_printf(&b, ":%s%s%s", c->name, *c->args ? " " : "", c->args);
        for (const char *p = c->aliases; p && *p;) {
            size_t k = strcspn(p, " ");
            sbuf_printf(&b, ", :%.*s", (int)k, p);
            p += k;
            while (*p == ' ')
                p++;
        }
        v[i + 1] = help_line(b.s, _(c->help));
        sbuf_free(&b);
    }
    *n = nc + 1;
    return v;
}

int wb_export(wb *w, const char *format, const char *file)
{
    if (!w->an || !w->good) {
        wb_message(w, UI_ROLE_BAD, _("export: the design has no valid analysis yet; fix the errors first"));
        return UI_REDRAW;
    }
    if (w->partial) {
        wb_message(w, UI_ROLE_BAD,
                   _("export: the working copy does not validate (the places marked !); fix "
                     "them first, or u to the last good state"));
        return UI_REDRAW;
    }
    char *err = NULL;
    if (fileio_check_target(file, &err) != KP_OK) {
        wb_message(w, UI_ROLE_BAD, _("export: %s"), err ? err : _("cannot write there"));
        free(err);
        return UI_REDRAW;
    }
    bool record = strcmp(format, "md") == 0 || strcmp(format, "json") == 0;
    char *text = record ? NULL : exchange_export(w->good, w->an, format, &err);
    if (!record) {
        if (!text)
            wb_message(w, UI_ROLE_BAD, _("export %s: %s"), format,
                       err ? err : _("the design cannot be exported so"));
        else if (fileio_write_atomic(file, text, strlen(text), &err) == KP_OK)
            /* TRANSLATORS: "csv written to out.csv (1234 bytes)": the format, the file, its size */
            wb_message(w, UI_ROLE_GOOD,
                       session_dirty(w->ss) || !session_base(w->ss)
                           ? _("%s written to %s (%zu bytes) from the uncommitted working copy")
                           : _("%s written to %s (%zu bytes)"),
                       format, file, strlen(text));
        else
            wb_message(w, UI_ROLE_BAD, _("export: %s"), err ? err : _("cannot write the file"));
        free(text);
        free(err);
        return UI_REDRAW;
    }
    export_record r;
    memset(&r, 0, sizeof r);
    r.design = w->good;
    r.analysis = w->an;
    r.signals = &w->sigs;
    r.source = session_path(w->ss);
    r.version = session_dirty(w->ss) ? 0 : session_base(w->ss);
    r.working = r.version == 0;
    r.working_base = session_base(w->ss);
    r.history = w->versions;
    r.nhistory = w->nversions;
    r.obs = w->obs;
    r.nobs = w->nobs;
    char *md = strcmp(format, "md") == 0 ? export_md(&r, &err) : export_json(&r, &err);
    if (!md) {
        wb_message(w, UI_ROLE_BAD, _("export: %s"), err);
        free(err);
        return UI_REDRAW;
    }
    if (fileio_write_atomic(file, md, strlen(md), &err) == KP_OK)
        wb_message(w, UI_ROLE_GOOD,
                   r.working
                       ? _("decision record written to %s (%s, %zu bytes): the uncommitted working copy")
                       : _("decision record written to %s (%s, %zu bytes): the working copy's version"),
                   file, format, strlen(md));
    else
        wb_message(w, UI_ROLE_BAD, _("export: %s"), err ? err : _("cannot write the file"));
    free(err);
    free(md);
    return UI_REDRAW;
}
