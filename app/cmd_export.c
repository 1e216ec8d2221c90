/* cmd_export.c - keyplan export SRC --format md|json|cfn|nosqlwb|csv|requests|items [-o OUT]. */
#include "commands.h"
#include "source.h"
#include "exchange.h"
#include "export_md.h"
#include "fileio.h"
#include "i18n.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_export(int argc, char **argv)
{
    const char *src = NULL, *format = NULL, *out = "-";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--format") == 0 || strcmp(argv[i], "-f") == 0) {
            if (++i >= argc) {
                fprintf(
                    stderr,
                    _("keyplan: --format needs a value: md, json, cfn, nosqlwb, csv, requests or items\n"));
                return 2;
            }
            format = argv[i];
        } else if (strncmp(argv[i], "--format=", 9) == 0) {
            format = argv[i] + 9;
        } else if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
            if (++i >= argc) {
                fprintf(stderr, _("keyplan: -o needs a file name ('-' for standard output)\n"));
                return 2;
            }
            out = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, _("keyplan: export: unknown option '%s'; expected --format FORMAT or -o OUT\n"),
                    argv[i]);
            return 2;
        } else if (!src) {
            src = argv[i];
        } else {
            fprintf(stderr, _("keyplan: export: unexpected argument '%s'\n"), argv[i]);
            return 2;
        }
    }
    if (!src || !format) {
        fprintf(stderr,
                "keyplan: %s keyplan export SRC --format md|json|cfn|nosqlwb|csv|requests|items [-o OUT]\n",
                _("usage:"));
        return 2;
    }
    bool mine = strcmp(format, "md") == 0 || strcmp(format, "json") == 0;
    if (!mine && !exchange_has_format(format)) {
        fprintf(
            stderr,
            _("keyplan: export: unknown format '%s'; expected md, json, cfn, nosqlwb, csv, requests or items\n"),
            format);
        return 2;
    }
    char *terr = NULL;
    if (fileio_check_target(out, &terr) != KP_OK) {
        fprintf(stderr, "keyplan: export: %s\n", terr);
        free(terr);
        return 2;
    }
    source s;
    if (source_read(src, 0, &s) != 0)
        return 2;
    /* every format but md is for machines: the same bytes in every language (analysed and written
       in English, figures as C writes them); the problems below in the reader's language */
    bool machine = strcmp(format, "md") != 0;
    char lang[3] = "";
    if (machine)
        source_machine_begin(lang);
    source_analyse(&s);
    char *text = NULL, *err = NULL;
    if (mine) {
        char *changes = source_parent_changes(&s);
        export_record r = {
            .design = s.design,
            .analysis = s.analysis,
            .signals = &s.signals,
            .source = s.name,
            .version = s.version,
            .history = s.history,
            .nhistory = s.nhistory,
            .obs = s.obs,
            .nobs = s.nobs,
            .changes = changes,
        };
        text = strcmp(format, "md") == 0 ? export_md(&r, &err) : export_json(&r, &err);
        free(changes);
    } else {
        text = exchange_export(s.design, s.analysis, format, &err);
    }
    source_free(&s);
    if (machine)
        source_machine_end(lang);
    if (!text) {
        fprintf(stderr, "keyplan: export: %s\n",
                err ? err : _("the design cannot be exported in this format"));
        free(err);
        return 2;
    }
    kp_status st = fileio_write_atomic(out, text, strlen(text), &err);
    free(text);
    if (st != KP_OK) {
        fprintf(stderr, "keyplan: %s\n", err);
        free(err);
        return 2;
    }
    return 0;
}
