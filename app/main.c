/* main.c - the command line: dispatch to one function per command. */
#include "commands.h"
#include "i18n.h"

#include <stdio.h>
#include <string.h>

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
} commands[] = {
    {"check", cmd_check, "check DESIGN.yaml [--json] [--strict]  resolve, size, cost, checklist, findings"},
    {"export", cmd_export, "export SRC --format md|json|cfn|nosqlwb|csv|requests|items [-o OUT]"},
    {"import", cmd_import,
     "import FILE [-o DESIGN.yaml] [--into D | --table T]  NoSQL Workbench JSON or a CSV table"},
    {"verify", cmd_verify,
     "verify DESIGN.yaml --endpoint URL [--region R]  every pattern against a real DynamoDB"},
    {"tour", cmd_tour, "tour [cloudshop] [--print]           the CloudShop walkthrough, step by step"},
    {"heat", cmd_heat,
     "heat [LOG|-|--merge PART...] [--json] [--top N] [--seconds S] [--approx K]  hottest keys of an access log"},
    {"commit", cmd_commit,
     "commit WORKSPACE DESIGN.yaml -m MSG [--author A] [--parent REV]  record a new version"},
    {"log", cmd_log, "log WORKSPACE                        list the versions"},
    {"show", cmd_show, "show WORKSPACE [REV]                 print a version's design"},
    {"diff", cmd_diff, "diff WORKSPACE REV1 REV2             what changed, in a designer's terms"},
    {"observe", cmd_observe, "observe WORKSPACE METRIC=VALUE [--source S]  record an observed number"},
    {"signals", cmd_signals, "signals WORKSPACE                    reopening signals and their values"},
    {"merge", cmd_merge, "merge WORKSPACE                      the working copy onto the latest version"},
    {"merge-file", cmd_merge_file,
     "merge-file BASE OURS THEIRS [-o OUT]  three-way merge of design files (git driver)"},
    {"fsck", cmd_fsck,
     "fsck WORKSPACE                       what is intact, what is damaged, how to recover"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: keyplan [--lang en|es] [WORKSPACE] [--author NAME]  open the workbench\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(out, "       keyplan %s\n", commands[i].usage);
}

/* `--lang LANG` or `--lang=LANG` first on the line: the language of every message. Removes it from
 * argv. Returns 0, or 2 (with a message) for a missing or unknown language. */
static int take_lang(int *argc, char **argv)
{
    const char *lang = NULL;
    int used = 0;
    if (*argc >= 2 && strcmp(argv[1], "--lang") == 0) {
        if (*argc < 3) {
            fprintf(stderr, "keyplan: --lang needs a language (en or es)\n");
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
        fprintf(stderr, "keyplan: --lang %s: %s\n", lang, err);
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
            fprintf(stderr, "keyplan: unknown option '%s'\n", argv[1]);
            usage(stderr);
            return 2;
        }
    }
    return cmd_tui(argc - 1, argv + 1);
}
