/* cmd_tui.c - keyplan [WORKSPACE]: the workbench on a workspace (default design.keyplan). */
#include "commands.h"
#include "ui.h"

#include <stdio.h>
#include <string.h>

int cmd_tui(int argc, char **argv)
{
    if (argc > 1) {
        fprintf(stderr, "keyplan: too many arguments; expected keyplan [WORKSPACE]\n");
        return 2;
    }
    if (argc == 1 && argv[0][0] == '-') {
        fprintf(stderr, "keyplan: unknown option '%s'; expected keyplan [WORKSPACE]\n", argv[0]);
        return 2;
    }
    ui_options opt = {.tour = false, .tour_name = NULL};
    return ui_run(argc == 1 ? argv[0] : NULL, &opt);
}
