/* cmd_import.c - keyplan import FILE [-o DESIGN.yaml] [--into DESIGN.yaml | --table NAME]: a NoSQL Workbench
 * model (JSON) or a CSV access-pattern table in, a design out (YAML on stdout without -o).
 * --into (a keyplan extension) takes the design's patterns from the CSV table and everything else
 * from DESIGN.yaml: the spreadsheet the workshop keeps, back into the design. --table NAME picks
 * one table of a Workbench model holding several (default: the first). Only -o writes. */
#include "commands.h"

#include "validate.h"
#include "csvio.h"
#include "design_io.h"
#include "exchange.h"
#include "fileio.h"
#include "nosqlwb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IMPORT_USAGE                                                                            \
    "usage: keyplan import FILE [-o DESIGN.yaml] [--into DESIGN.yaml | --table NAME]\n"                       \
    "  FILE       a NoSQL Workbench model (JSON) or a CSV access-pattern table; - reads stdin\n"   \
    "  -o FILE    write the design there (atomically) instead of printing it\n"                  \
    "  --into D   CSV only: the patterns of D replaced by the table's, the rest of D kept\n"    \
    "  --table T  NoSQL Workbench only: import table T of a model holding several\n"

static int usage(void)
{
    fputs(IMPORT_USAGE, stderr);
    return 2;
}

/* Table `table` of the NoSQL Workbench model in `in`. NULL on error (printed). */
static kp_design *import_table(const char *in, const char *table)
{
    const char *label = strcmp(in, "-") ? in : "<stdin>";
    kp_diags dg;
    diags_init(&dg, label);
    char *err = NULL;
    size_t len = 0;
    char *text = fileio_read(in, &len, &err);
    kp_design *d = NULL;
    if (!text) {
        fprintf(stderr, "%s\n", err);
        free(err);
    } else {
        size_t i = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
        size_t j = i;
        while (j < len && strchr(" \t\r\n", text[j]))
            j++;
        if (j < len && (text[j] == '{' || text[j] == '['))
            d = nosqlwb_import_table(text + i, len - i, label, table, &dg);
        else
            fprintf(stderr, "%s: error: --table takes a NoSQL Workbench model (JSON); this is not JSON\n",
                    label);
    }
    diags_print(&dg, stderr);
    diags_free(&dg);
    free(text);
    return d;
}

/* The design `into` with its patterns replaced by the CSV table in `in`. NULL on error
 * (printed). */
static kp_design *merge_into(const char *in, const char *into)
{
    kp_diags dg;
    diags_init(&dg, into);
    kp_design *d = designio_load_file(into, &dg);
    diags_print(&dg, stderr);
    diags_free(&dg);
    if (!d)
        return NULL;
    char *err = NULL;
    size_t len = 0;
    char *text = fileio_read(in, &len, &err);
    if (!text) {
        fprintf(stderr, "%s\n", err);
        free(err);
        design_free(d);
        return NULL;
    }
    size_t i = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    while (i < len && strchr(" \t\r\n", text[i]))
        i++;
    if (i < len && (text[i] == '{' || text[i] == '[')) {
        fprintf(stderr, "%s: error: --into takes a CSV pattern table; this is JSON (import it without "
                        "--into)\n", in);
        free(text);
        design_free(d);
        return NULL;
    }
    kp_pattern *pats = NULL;
    size_t n = 0;
    diags_init(&dg, strcmp(in, "-") ? in : "<stdin>");
    bool ok = csvio_read_patterns(text, len, in, &dg, &pats, &n);
    diags_print(&dg, stderr);
    diags_free(&dg);
    free(text);
    if (!ok) {
        design_free(d);
        return NULL;
    }
    for (size_t k = 0; k < d->npatterns; k++)
        pattern_free(&d->patterns[k]);
    free(d->patterns);
    d->patterns = pats;
    d->npatterns = n;
    return d;
}

int cmd_import(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *into = NULL, *table = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output") || !strcmp(argv[i], "--into") ||
            !strcmp(argv[i], "--table")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "keyplan import: %s needs a %s\n", argv[i],
                        strcmp(argv[i], "--table") ? "file name" : "table name");
                return usage();
            }
            if (!strcmp(argv[i], "--into"))
                into = argv[++i];
            else if (!strcmp(argv[i], "--table"))
                table = argv[++i];
            else
                out = argv[++i];
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(IMPORT_USAGE, stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "keyplan import: unknown option '%s'\n", argv[i]);
            return usage();
        } else if (in) {
            fprintf(stderr, "keyplan import: one file at a time ('%s' and '%s')\n", in, argv[i]);
            return usage();
        } else
            in = argv[i];
    }
    if (!in)
        return usage();
    if (into && table) {
        fprintf(stderr, "keyplan import: --into (a CSV table) and --table (a Workbench model) exclude each other\n");
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
    for (size_t i = 0; i < vd.n; i++) {
        /* with --into, only the patterns' places are in the CSV table; the rest is the design's */
        char *saved = vd.file;
        if (into && strncmp(vd.v[i].msg, "pattern ", 8) != 0)
            vd.file = (char *)into;
        char *line = diags_format(&vd, i);
        vd.file = saved;
        fprintf(stderr, "%s\n", line);
        free(line);
    }
    diags_free(&vd);
    if (!valid) {
        fprintf(stderr, "keyplan import: the imported design does not validate; nothing written\n");
        design_free(d);
        return 2;
    }
    /* and it must read back as the same design (what is written is what `check` will load) */
    {
        char *yaml = designio_save_string(d);
        kp_diags rd;
        diags_init(&rd, "the imported design");
        kp_design *back = designio_load_string(yaml, strlen(yaml), "the imported design", &rd);
        bool same = back && design_equal(back, d);
        if (!same) {
            diags_print(&rd, stderr);
            fprintf(stderr, "keyplan import: %s; nothing written\n",
                    back ? "the imported design does not read back identical (a keyplan bug: please report it)"
                         : "the imported design would not load back");
        }
        design_free(back);
        diags_free(&rd);
        free(yaml);
        if (!same) {
            design_free(d);
            return 2;
        }
    }
    int rc = 0;
    if (out) {
        kp_diags sd;
        diags_init(&sd, out);
        if (!designio_save_file(d, out, &sd)) {
            diags_print(&sd, stderr);
            rc = 2;
        }
        diags_free(&sd);
    } else {
        char *yaml = designio_save_string(d);
        fputs(yaml, stdout);
        free(yaml);
        if (fflush(stdout) != 0)
            rc = 2;
    }
    design_free(d);
    return rc;
}
