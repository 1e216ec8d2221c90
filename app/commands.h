/* commands.h - one function per command of the command line. Each returns the exit
 * status: 0 success, 1 found what it exists to report, 2 unusable input (message on stderr). */
#ifndef KP_COMMANDS_H
#define KP_COMMANDS_H

int cmd_check(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_tour(int argc, char **argv);
int cmd_heat(int argc, char **argv);
int cmd_commit(int argc, char **argv);
int cmd_log(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_observe(int argc, char **argv);
int cmd_signals(int argc, char **argv);
int cmd_fsck(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_merge_file(int argc, char **argv);
/* keyplan [WORKSPACE]: the workbench */
int cmd_tui(int argc, char **argv);

#endif
