/* cmd_import.c - keyplan import FILE [-o DESIGN.yaml] [--into DESIGN.yaml | --table NAME]: a NoSQL Workbench
 * model (JSON) or a CSV access-pattern table in, a design out (YAML on stdout without -o).
 * --into (a keyplan extension) takes the design's patterns from the CSV table and everything else
 * from DESIGN.yaml: the spreadsheet the workshop keeps, back into the design. --table NAME picks
 * one table of a Workbench model holding several (default: the first). Only -o writes. */
#include "commands.h"

#include "i18n.h"
#include "validate.h"
#include "design_io.h"
#include "exchange.h"
#include "fileio.h"
#include "i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* import's help, on `out` */
static void import_usage(FILE *out)
{
    /* TRANSLATORS: import's help; keep the command line, the options and the indentation */
    fputs(_("usage: keyplan import FILE [-o DESIGN.yaml] [--into DESIGN.yaml | --table NAME]\n"
            "  FILE       a NoSQL Workbench model (JSON) or a CSV access-pattern table; - reads stdin\n"
            "  -o FILE    write the design there (atomically) instead of printing it\n"
            "  --into D   CSV only: the patterns of D replaced by the table's, the rest of D kept\n"
            "  --table T  NoSQL Workbench only: import table T of a model holding several\n"),
          out);
}

static int usage(void)
{
    import_usage(stderr);
    return 2;
}

/* Prints a message line (when any) and frees it. */
static void print_err(char *err)
{
    if (err)
        fprintf(stderr, "%s\n", err);
    free(err);
}

/* Table `table` of the NoSQL Workbench model in `in`. NULL on error (printed). */
static kp_design *import_table(const char *in, const char *table)
{
    kp_diags dg;
    diags_init(&dg, strcmp(in, "-") ? in : "<stdin>");
    char *err = NULL;
    kp_design *d = exchange_import_table(in, table, &dg, &err);
    print_err(err);
    diags_print(&dg, stderr);
    diags_free(&dg);
    return d;
}

/* The design `into` with its patterns replaced by the CSV table in `in`. NULL on error
 * (printed). */
static kp_design *merge_into(const char *in, const char *into)
{
    kp_diags design_dg, table_dg;
    diags_init(&design_dg, into);
    diags_init(&table_dg, strcmp(in, "-") ? in : "<stdin>");
    char *err = NULL;
    kp_design *d = exchange_import_into(in, into, &design_dg, &table_dg, &err);
    diags_print(&design_dg, stderr);
    print_err(err);
    diags_print(&table_dg, stderr);
    diags_free(&design_dg);
    diags_free(&table_dg);
    return d;
}

int cmd_import(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *into = NULL, *table = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output") || !strcmp(argv[i], "--into") ||
            !strcmp(argv[i], "--table")) {
            if (i + 1 >= argc) {
                fprintf(stderr,
                        strcmp(argv[i], "--table") ? _("keyplan import: %s needs a file name\n")
                                                   : _("keyplan import: %s needs a table name\n"),
                        argv[i]);
                return usage();
            }
            if (!strcmp(argv[i], "--into"))
                into = argv[++i];
            else if (!strcmp(argv[i], "--table"))
                table = argv[++i];
            else
                out = argv[++i];
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            import_usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, _("keyplan import: unknown option '%s'\n"), argv[i]);
            return usage();
        } else if (in) {
            fprintf(stderr, _("keyplan import: one file at a time ('%s' and '%s')\n"), in, argv[i]);
            return usage();
        } else
            in = argv[i];
    }
    if (!in)
        return usage();
    char *terr = NULL;
    if (out && fileio_check_target(out, &terr) != KP_OK) {
        fprintf(stderr, "keyplan import: %s\n", terr);
        free(terr);
        return 2;
    }
    if (into && table) {
        fprintf(
            stderr, "%s",
            _("keyplan import: --into (a CSV table) and --table (a Workbench model) exclude each other\n"));
        return usage();
    }

    kp_design *d;
    if (into)
        d = merge_into(in, into);
    else if (table)
        d = import_table(in, table);
    else {
        kp_diags dg;
        diags_init(&dg, strcmp(in, "-") ? in : "<stdin>");
        d = exchange_import_file(in, &dg);
        diags_print(&dg, stderr);
        diags_free(&dg);
    }
    if (!d)
        return 2;

    /* what is imported must be a design keyplan can load back */
    kp_diags vd;
    diags_init(&vd, strcmp(in, "-") ? in : "<stdin>");
    bool valid = validate_design(d, &vd);
    /* a pattern's messages start with its label ("pattern 3: ...") in the reader's language */
    char *pattern_label = xasprintf(_("pattern %s"), "");
    for (size_t i = 0; i < vd.n; i++) {
        /* with --into, only the patterns' places are in the CSV table; the rest is the design's */
        char *saved = vd.file;
        if (into && strncmp(vd.v[i].msg, pattern_label, strlen(pattern_label)) != 0)
            vd.file = (char *)into;
        char *line = diags_format(&vd, i);
        vd.file = saved;
        fprintf(stderr, "%s\n", line);
        free(line);
    }
    free(pattern_label);
    diags_free(&vd);
    if (!valid) {
        fprintf(stderr, "%s", _("keyplan import: the imported design does not validate; nothing written\n"));
        design_free(d);
        return 2;
    }
    /* and it must read back as the same design (what is written is what `check` will load) */
    kp_diags rd;
    diags_init(&rd, _("the imported design"));
    exchange_roundtrip back = exchange_import_roundtrip(d, &rd);
    if (back != EXCHANGE_SAME) {
        diags_print(&rd, stderr);
        fprintf(stderr, "%s",
                back == EXCHANGE_DIFFERENT
                    ? _("keyplan import: the imported design does not read back identical "
                        "(a keyplan bug: please report it); nothing written\n")
                    : _("keyplan import: the imported design would not load back; nothing "
                        "written\n"));
    }
    diags_free(&rd);
    if (back != EXCHANGE_SAME) {
        design_free(d);
        return 2;
    }
    int rc = 0;
    if (out) {
        kp_diags sd;
        diags_init(&sd, out);
        if (designio_save_file(d, out, &sd) != KP_OK) {
            diags_print(&sd, stderr);
            rc = 2;
        }
        diags_free(&sd);
    } else {
        char *err = NULL;
        char *yaml = designio_save(d, &err);
        if (!yaml) {
            fprintf(stderr, _("keyplan import: %s; nothing written\n"), err);
            free(err);
            rc = 2;
        } else {
            fputs(yaml, stdout);
            free(yaml);
            if (fflush(stdout) != 0)
                rc = 2;
        }
    }
    design_free(d);
    return rc;
}
