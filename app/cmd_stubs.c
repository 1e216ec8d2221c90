/* cmd_stubs.c - weak fallbacks for commands not built yet: each says so and exits 2. A
 * command's real implementation (app/cmd_<name>.c) overrides its fallback at link time. */
#include "app/commands.h"

#include <stdio.h>

#define NOT_YET(fn, name)                                                                 \
    __attribute__((weak)) int fn(int argc, char **argv)                                                       \
    {                                                                                     \
        (void)argc, (void)argv;                                                           \
        fprintf(stderr, "keyplan: '%s' is not available in this build yet\n", name);    \
        return 2;                                                                         \
    }

NOT_YET(cmd_export, "export")
NOT_YET(cmd_import, "import")
NOT_YET(cmd_verify, "verify")
NOT_YET(cmd_tour, "tour")
NOT_YET(cmd_heat, "heat")
NOT_YET(cmd_commit, "commit")
NOT_YET(cmd_log, "log")
NOT_YET(cmd_show, "show")
NOT_YET(cmd_diff, "diff")
NOT_YET(cmd_observe, "observe")
NOT_YET(cmd_signals, "signals")
NOT_YET(cmd_tui, "the workbench")
NOT_YET(cmd_check, "check")
