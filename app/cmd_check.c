/* cmd_check.c - keyplan check DESIGN.yaml [--json] [--strict]: load and validate the
 * design, run the analysis, print the report (or the JSON object of analysis_json.h).
 *
 * Exit status: 2 when the file cannot be used (diagnostics on stderr, FILE:LINE:COL); otherwise
 * 0, whatever the findings say: check exists to show the analysis, and a design with warnings
 * or even error-severity findings is still a design being worked on (the issue requires
 * `keyplan check samples/cloudshop/design.yaml` to exit 0). With --strict, check exits 1 when
 * there is an error-severity finding or a failed checklist item (for CI gates).
 *
 * The text report is storage/exchange/report.h's. */
#include "commands.h"

#include "source.h"

#include "analysis.h"
#include "analysis_json.h"
#include "design_io.h"
#include "i18n.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_usage(FILE *out)
{
    /* TRANSLATORS: check's help; keep the command line, the options and the indentation */
    fputs(_("usage: keyplan check DESIGN.yaml [--json] [--strict]\n"
            "  resolve every pattern, size it, show the partitions' heat, the cost in both\n"
            "  billing modes, the course's checklist and the named mistakes.\n"
            "  --json    print one JSON object instead\n"
            "  --strict  exit 1 when a finding is an error or a checklist item fails\n"
            "exit status: 0 analysed, 1 --strict and something failed, 2 unusable input\n"),
          out);
}

int cmd_check(int argc, char **argv)
{
    const char *path = NULL;
    bool json = false, strict = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (strcmp(argv[i], "--strict") == 0)
            strict = true;
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            check_usage(stdout);
            return 0;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, _("keyplan check: unknown option '%s'\n"), argv[i]);
            check_usage(stderr);
            return 2;
        } else if (path) {
            fprintf(stderr, _("keyplan check: one design file expected, got '%s' and '%s'\n"), path, argv[i]);
            return 2;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        fprintf(stderr, _("keyplan check: missing the design file\n"));
        check_usage(stderr);
        return 2;
    }
    kp_diags diags;
    diags_init(&diags, NULL);
    kp_design *d = designio_load_file(path, &diags);
    if (!d) {
        diags_print(&diags, stderr);
        if (diags.n == 0)
            fprintf(stderr, "%s: error: %s\n", path, _("cannot load the design"));
        diags_free(&diags);
        return 2;
    }
    diags_print(&diags, stderr); /* warnings, if any */
    diags_free(&diags);

    /* the JSON object is the same bytes in every language: analysed and written in English */
    char lang[3] = "";
    if (json)
        source_machine_begin(lang);
    kp_analysis *a = analysis_run(d);
    char *err = NULL;
    char *out = json ? analysis_json_string(d, a, &err) : report_check_text(path, d, a);
    if (json)
        source_machine_end(lang);
    if (!out) {
        fprintf(stderr, "keyplan check: %s\n", err);
        free(err);
        analysis_free(a);
        design_free(d);
        return 2;
    }
    fputs(out, stdout);
    free(out);

    int status = 0;
    if (strict) {
        for (size_t i = 0; i < a->nfindings; i++)
            if (a->findings[i].sev == KP_SEV_ERROR)
                status = 1;
        for (size_t i = 0; i < KP_CHECKLIST_ITEMS; i++)
            if (a->checklist[i].status == KP_CHECK_FAIL)
                status = 1;
    }
    analysis_free(a);
    design_free(d);
    if (fflush(stdout) != 0) {
        fprintf(stderr, _("keyplan check: cannot write the report\n"));
        return 2;
    }
    return status;
}
