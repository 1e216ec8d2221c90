/* cmd_tui.c - keyplan [WORKSPACE] [--author NAME]: the workbench on a workspace (default
 * design.keyplan), on NAME's working copy (default ws_default_author()). */
#include "commands.h"
#include "i18n.h"
#include "ui.h"

#include <stdio.h>
#include <string.h>

int cmd_tui(int argc, char **argv)
{
    const char *ws = NULL, *author = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--author") == 0) {
            if (i + 1 >= argc || !*argv[i + 1]) {
                fprintf(stderr,
                        _("keyplan: --author needs a name; expected keyplan [WORKSPACE] [--author NAME]\n"));
                return 2;
            }
            author = argv[++i];
        } else if (argv[i][0] == '-') {
            fprintf(stderr, _("keyplan: unknown option '%s'; expected keyplan [WORKSPACE] [--author NAME]\n"),
                    argv[i]);
            return 2;
        } else if (ws) {
            fprintf(stderr, _("keyplan: too many arguments; expected keyplan [WORKSPACE] [--author NAME]\n"));
            return 2;
        } else {
            ws = argv[i];
        }
    }
    ui_options opt = {.tour = false, .tour_name = NULL, .author = author};
    return ui_run(ws, &opt);
}
