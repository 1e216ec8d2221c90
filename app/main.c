/* main.c - the command line: dispatch to one function per command. */
#include "commands.h"
#include "display.h"
#include "i18n.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *synopsis;    /* the command line: never translated */
    const char *description; /* what it does, for people (N_: translated where printed); NULL: none */
} commands[] = {
    {"check", cmd_check, "check DESIGN.yaml [--json] [--strict]",
     N_("resolve, size, cost, checklist, findings")},
    {"export", cmd_export, "export SRC --format md|json|cfn|nosqlwb|csv|requests|items [-o OUT]", NULL},
    {"import", cmd_import, "import FILE [-o DESIGN.yaml] [--into D | --table T]",
     N_("NoSQL Workbench JSON or a CSV table")},
    {"verify", cmd_verify, "verify DESIGN.yaml --endpoint URL [--region R]",
     N_("every pattern against a real DynamoDB")},
    {"tour", cmd_tour, "tour [cloudshop] [--print]", N_("the CloudShop walkthrough, step by step")},
    {"heat", cmd_heat, "heat [LOG|-|--merge PART...] [--json] [--top N] [--seconds S] [--approx K]",
     N_("hottest keys of an access log")},
    {"commit", cmd_commit, "commit WORKSPACE DESIGN.yaml -m MSG [--author A] [--parent REV]",
     N_("record a new version")},
    {"log", cmd_log, "log WORKSPACE", N_("list the versions")},
    {"show", cmd_show, "show WORKSPACE [REV]", N_("print a version's design")},
    {"diff", cmd_diff, "diff WORKSPACE REV1 REV2", N_("what changed, in a designer's terms")},
    {"observe", cmd_observe, "observe WORKSPACE METRIC=VALUE [--source S]", N_("record an observed number")},
    {"signals", cmd_signals, "signals WORKSPACE", N_("reopening signals and their values")},
    {"merge", cmd_merge, "merge WORKSPACE", N_("the working copy onto the latest version")},
    {"merge-file", cmd_merge_file, "merge-file BASE OURS THEIRS [-o OUT]",
     N_("three-way merge of design files (git driver)")},
    {"fsck", cmd_fsck, "fsck WORKSPACE", N_("what is intact, what is damaged, how to recover")},
};

/* The synopsis column: a description starts at this column, or two spaces after a longer
 * synopsis. */
#define USAGE_SYNOPSIS_WIDTH 37

static void usage(FILE *out)
{
    /* TRANSLATORS: the first word of the help; the command lines below it are indented by its width */
    const char *label = _("usage:");
    int indent = disp_width(label) + 1;
    fprintf(out, "%s keyplan [--lang en|es] [WORKSPACE] [--author NAME]  %s\n", label,
            _("open the workbench"));
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        const struct command *c = &commands[i];
        if (!c->description) {
            fprintf(out, "%*skeyplan %s\n", indent, "", c->synopsis);
            continue;
        }
        int w = (int)strlen(c->synopsis), pad = w + 2 > USAGE_SYNOPSIS_WIDTH ? 2 : USAGE_SYNOPSIS_WIDTH - w;
        fprintf(out, "%*skeyplan %s%*s%s\n", indent, "", c->synopsis, pad, "", _(c->description));
    }
    fprintf(out, _("--lang en|es: the language of the messages; without it, LANGUAGE, LC_ALL, LC_MESSAGES or "
                   "LANG chooses (es_ES.UTF-8, es: Spanish)\n"));
}

/* `--lang LANG` or `--lang=LANG` first on the line: the language of every message. Removes it from
 * argv. Returns 0, or 2 (with a message) for a missing or unknown language. */
static int take_lang(int *argc, char **argv)
{
    const char *lang = NULL;
    int used = 0;
    if (*argc >= 2 && strcmp(argv[1], "--lang") == 0) {
        if (*argc < 3) {
            fprintf(stderr, _("keyplan: --lang needs a language (en or es)\n"));
            return 2;
        }
        lang = argv[2];
        used = 2;
    } else if (*argc >= 2 && strncmp(argv[1], "--lang=", 7) == 0) {
        lang = argv[1] + 7;
        used = 1;
    }
    const char *err = NULL;
    if (!i18n_init(lang, &err) && lang) {
        fprintf(stderr, "keyplan: --lang %s: %s\n", lang, err); /* English: no catalog for lang */
        return 2;
    }
    if (used) {
        for (int i = 1; i + used <= *argc; i++)
            argv[i] = argv[i + used];
        *argc -= used;
    }
    return 0;
}

int main(int argc, char **argv)
{
    util_keep_heap();
    int lang_status = take_lang(&argc, argv);
    if (lang_status)
        return lang_status;
    if (argc >= 2 &&
        (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("keyplan %s\n", KEYPLAN_VERSION);
        return 0;
    }
    if (argc >= 2) {
        for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
            if (strcmp(argv[1], commands[i].name) == 0)
                return commands[i].run(argc - 1, argv + 1);
        if (argv[1][0] == '-' && strcmp(argv[1], "--author") != 0) {
            fprintf(stderr, _("keyplan: unknown option '%s'\n"), argv[1]);
            usage(stderr);
            return 2;
        }
    }
    return cmd_tui(argc - 1, argv + 1);
}
