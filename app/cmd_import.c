/* cmd_import.c - keyplan import FILE [-o DESIGN.yaml]: a NoSQL Workbench model (JSON) or a CSV
 * access-pattern table in, a design out (YAML on stdout without -o). */
#include "app/commands.h"

#include "model/validate.h"
#include "storage/design_io.h"
#include "storage/exchange.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: keyplan import FILE [-o DESIGN.yaml]\n"
                    "  FILE: a NoSQL Workbench model (JSON) or a CSV access-pattern table; - reads stdin\n");
    return 2;
}

int cmd_import(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "keyplan import: -o needs a file name\n");
                return usage();
            }
            out = argv[++i];
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: keyplan import FILE [-o DESIGN.yaml]\n");
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

    kp_diags dg;
    diags_init(&dg, in);
    kp_design *d = exchange_import_file(in, &dg);
    diags_print(&dg, stderr);
    diags_free(&dg);
    if (!d)
        return 2;

    /* what is imported must be a design keyplan can load back */
    kp_diags vd;
    char *label = xasprintf("%s (imported)", in);
    diags_init(&vd, label);
    free(label);
    bool valid = validate_design(d, &vd);
    diags_print(&vd, stderr);
    diags_free(&vd);
    if (!valid) {
        fprintf(stderr, "keyplan import: the imported design does not validate; nothing written\n");
        design_free(d);
        return 2;
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
