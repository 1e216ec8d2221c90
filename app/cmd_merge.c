/* cmd_merge.c - keyplan merge-file (three design files, a git merge driver) | merge (the working
 * copy of a workspace onto its latest version). */
#include "commands.h"
#include "source.h"
#include "design_io.h"
#include "fileio.h"
#include "i18n.h"
#include "merge.h"
#include "workspace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Loads one side of a merge-file; an empty file is an empty design (git gives an empty base to
 * a file both branches added). NULL after printing the problems (FILE:LINE:COL) on stderr. */
static kp_design *load_side(const char *path)
{
    size_t len = 0;
    char *err = NULL;
    char *text = fileio_read(path, &len, &err);
    if (!text) {
        fprintf(stderr, "keyplan: %s\n", err ? err : _("cannot read"));
        free(err);
        return NULL;
    }
    bool blank = true;
    for (size_t i = 0; i < len && blank; i++)
        blank = text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t';
    kp_design *d = NULL;
    if (blank) {
        d = design_new();
    } else {
        kp_diags dg;
        diags_init(&dg, path);
        d = designio_load_string(text, len, path, &dg);
        if (!d)
            diags_print(&dg, stderr);
        diags_free(&dg);
    }
    free(text);
    return d;
}

/* Canonical YAML of d; NULL after printing the problem. */
static char *save_text(const kp_design *d)
{
    char *err = NULL;
    char *y = designio_save(d, &err);
    if (!y) {
        fprintf(stderr, _("keyplan: cannot write the merged design: %s\n"), err ? err : "");
        free(err);
    }
    return y;
}

/* Prints the problems of the merged design when it does not validate; true when it does. */
static bool merged_valid(const char *yaml, const char *name)
{
    kp_diags dg;
    diags_init(&dg, name);
    kp_design *d = designio_load_string(yaml, strlen(yaml), name, &dg);
    if (!d) {
        fprintf(stderr, "%s",
                _("keyplan: the changes merge without conflicts, but the result does not validate:\n"));
        diags_print(&dg, stderr);
    }
    diags_free(&dg);
    design_free(d);
    return d != NULL;
}

/* keyplan merge-file BASE OURS THEIRS [-o OUT] */
int cmd_merge_file(int argc, char **argv)
{
    const char *files[3] = {NULL, NULL, NULL}, *out = "-";
    size_t nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
            if (++i >= argc) {
                fprintf(stderr, "%s", _("keyplan: -o needs a file name\n"));
                return 2;
            }
            out = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, _("keyplan: merge-file: unknown option '%s'; expected -o OUT\n"), argv[i]);
            return 2;
        } else if (nfiles < 3) {
            files[nfiles++] = argv[i];
        } else {
            fprintf(stderr, _("keyplan: merge-file: unexpected argument '%s'\n"), argv[i]);
            return 2;
        }
    }
    if (nfiles < 3) {
        fprintf(stderr, "%s keyplan merge-file BASE OURS THEIRS [-o OUT]\n", _("usage:"));
        return 2;
    }
    char *err = NULL;
    if (fileio_check_target(out, &err) != KP_OK) {
        fprintf(stderr, "keyplan: %s\n", err ? err : _("cannot write the output"));
        free(err);
        return 2;
    }
    kp_design *side[3] = {NULL, NULL, NULL};
    int rc = 0;
    for (size_t i = 0; i < 3 && rc == 0; i++)
        if (!(side[i] = load_side(files[i]))) {
            fprintf(stderr, _("keyplan: %s: cannot merge; nothing was written\n"), files[i]);
            rc = 2;
        }
    merge_result *m = rc ? NULL : merge_designs(side[0], side[1], side[2]);
    char *text = NULL;
    if (m && merge_nconflicts(m) == 0) {
        kp_design *d = merge_finish(m, NULL);
        text = save_text(d);
        design_free(d);
        rc = !text ? 2 : merged_valid(text, strcmp(out, "-") ? out : _("merged design")) ? 0 : 1;
    } else if (m) {
        kp_design *o = merge_take(m, MERGE_OURS), *t = merge_take(m, MERGE_THEIRS);
        char *yo = save_text(o), *yt = save_text(t);
        text = yo && yt ? merge_markers(yo, yt, "ours", "theirs") : NULL;
        free(yo);
        free(yt);
        design_free(o);
        design_free(t);
        char *list = merge_conflicts_text(m);
        /* TRANSLATORS: %1$zu conflicts between the files %2$s (ours) and %3$s (theirs), %4$s the base
           file, %5$s the list of conflicts (lines) */
        fprintf(stderr,
                ngettext("keyplan: %1$zu conflict between %2$s and %3$s (base %4$s):\n%5$s",
                         "keyplan: %1$zu conflicts between %2$s and %3$s (base %4$s):\n%5$s",
                         merge_nconflicts(m)),
                merge_nconflicts(m), files[1], files[2], files[0], list);
        free(list);
        rc = text ? 1 : 2;
    }
    if (text && fileio_write_atomic(out, text, strlen(text), &err) != KP_OK) {
        fprintf(stderr, "keyplan: %s\n", err ? err : _("cannot write the output"));
        free(err);
        rc = 2;
    }
    free(text);
    merge_free(m);
    for (size_t i = 0; i < 3; i++)
        design_free(side[i]);
    return rc;
}

/* keyplan merge WORKSPACE: the working copy onto the latest version. */
int cmd_merge(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "%s keyplan merge WORKSPACE\n", _("usage:"));
        return 2;
    }
    ws_t *ws = NULL;
    if (source_open_ws(argv[1], 0, &ws) != 0)
        return 2;
    char *err = NULL, *yaml = NULL, *merged = NULL;
    int parent = 0, latest = 0, rc = 2;
    kp_design *mine = NULL, *base = NULL, *theirs = NULL;
    merge_result *m = NULL;
    kp_status st = ws_working_get(ws, &yaml, &parent, &err);
    if (st == KP_NOTFOUND) {
        printf(_("%s has no working copy: nothing to merge\n"), argv[1]);
        rc = 0;
        goto done;
    }
    if (st != KP_OK || (st = ws_latest(ws, &latest, &err)) != KP_OK)
        goto fail;
    if (parent == latest) {
        printf(_("the working copy is based on the latest version (%d): nothing to merge\n"), latest);
        rc = 0;
        goto done;
    }
    kp_diags dg;
    diags_init(&dg, _("working copy"));
    mine = designio_load_string(yaml, strlen(yaml), _("working copy"), &dg);
    if (!mine) {
        diags_print(&dg, stderr);
        fprintf(stderr, "%s",
                _("keyplan: the working copy does not load; fix it in the workbench, then merge\n"));
        diags_free(&dg);
        goto done;
    }
    diags_free(&dg);
    if (parent == 0)
        base = design_new();
    else if ((st = ws_version_design(ws, parent, &base, &err)) != KP_OK)
        goto fail;
    if ((st = ws_version_design(ws, latest, &theirs, &err)) != KP_OK)
        goto fail;
    m = merge_designs(base, mine, theirs);
    if (merge_nconflicts(m)) {
        char *list = merge_conflicts_text(m);
        /* TRANSLATORS: %1$zu conflicts, %2$d the working copy's version, %3$d the latest version, %4$s the
           list of conflicts (lines); R is the workbench's key */
        printf(ngettext(
                   "%1$zu conflict between the working copy (based on version %2$d) and version %3$d:\n%4$s"
                   "nothing changed; resolve them in the workbench (R), or edit the working copy and merge "
                   "again\n",
                   "%1$zu conflicts between the working copy (based on version %2$d) and version %3$d:\n%4$s"
                   "nothing changed; resolve them in the workbench (R), or edit the working copy and merge "
                   "again\n",
                   merge_nconflicts(m)),
               merge_nconflicts(m), parent, latest, list);
        free(list);
        rc = 1;
        goto done;
    }
    kp_design *d = merge_finish(m, NULL);
    merged = designio_save(d, &err);
    design_free(d);
    if (!merged) {
        st = KP_INVALID;
        goto fail;
    }
    char label[64];
    snprintf(label, sizeof label, "merge version %d", latest);
    if ((st = ws_working_set(ws, merged, latest, true, label, &err)) != KP_OK)
        goto fail;
    /* TRANSLATORS: %1$d the latest version, merged; %2$d the version the working copy was based on */
    printf(
        _("merged version %1$d into the working copy (based on version %2$d); it is now based on version %1$d\n"),
        latest, parent);
    rc = 0;
    if (!merged_valid(merged, _("working copy"))) {
        fprintf(
            stderr, "%s",
            _("keyplan: the merged working copy was saved; fix these in the workbench before committing\n"));
        rc = 1;
    }
    goto done;
fail:
    fprintf(stderr, "keyplan: %s\n", err ? err : kp_status_text(st));
    rc = 2;
done:
    free(err);
    free(yaml);
    free(merged);
    merge_free(m);
    design_free(mine);
    design_free(base);
    design_free(theirs);
    ws_close(ws);
    return rc;
}
