/* cmd_verify.c - keyplan verify DESIGN --endpoint URL [--region R]: every DynamoDB pattern of
 * the design run against a real endpoint (storage/verify.h says what is checked). */
#include "commands.h"
#include "i18n.h"
#include "source.h"
#include "verify.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void verify_usage(FILE *out)
{
    /* TRANSLATORS: verify's help; keep the command line, the options, the variables and the indentation */
    fputs(_("usage: keyplan verify DESIGN.yaml --endpoint URL [--region REGION]\n"
            "  Creates a fresh table from the design at URL (DynamoDB Local: http://127.0.0.1:8000),\n"
            "  loads sample items, runs every DynamoDB pattern's requests and checks the results and\n"
            "  the consumed capacity against the model; deletes the table afterwards.\n"
            "  Credentials: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY [/ AWS_SESSION_TOKEN], or the\n"
            "  profile AWS_PROFILE (default) of ~/.aws/credentials. Region: --region, AWS_REGION,\n"
            "  AWS_DEFAULT_REGION, ~/.aws/config, else us-east-1.\n"
            "  Exit status: 0 every pattern passed, 1 a pattern failed, 2 unusable input or endpoint.\n"),
          out);
}

int cmd_verify(int argc, char **argv)
{
    const char *path = NULL, *endpoint = NULL, *region = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            verify_usage(stdout);
            return 0;
        } else if (strcmp(a, "--endpoint") == 0 || strcmp(a, "--region") == 0) {
            if (i + 1 >= argc || argv[i + 1][0] == '\0') {
                fprintf(stderr, _("keyplan verify: %s needs a value\n"), a);
                return 2;
            }
            if (strcmp(a, "--endpoint") == 0)
                endpoint = argv[++i];
            else
                region = argv[++i];
        } else if (strncmp(a, "--endpoint=", 11) == 0) {
            endpoint = a + 11;
        } else if (strncmp(a, "--region=", 9) == 0) {
            region = a + 9;
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, _("keyplan verify: unknown option '%s'\n"), a);
            verify_usage(stderr);
            return 2;
        } else if (path) {
            fprintf(stderr, _("keyplan verify: one design expected, got '%s' and '%s'\n"), path, a);
            return 2;
        } else {
            path = a;
        }
    }
    if (!path || !endpoint) {
        fprintf(stderr, "keyplan verify: %s\n",
                !path ? _("missing the design file") : _("missing --endpoint URL"));
        verify_usage(stderr);
        return 2;
    }
    source src;
    if (source_load(path, 0, &src) != 0)
        return 2;
    /* Ctrl-C, a kill or a closed terminal: abandon the request in flight (within a second),
       delete the table, exit 2 */
    struct sigaction sa, old_int, old_term, old_hup;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
    /* a closed pipe or terminal must not kill us before the table is deleted */
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
    verify_opts o = {
        .endpoint = endpoint, .region = region, .out = stdout, .err = stderr, .stop = &interrupted};
    char *err = NULL;
    verify_summary sum;
    kp_status st = verify_run(src.design, src.analysis, &o, &sum, &err);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    signal(SIGPIPE, old_pipe);
    fflush(stdout);
    if (st != KP_OK)
        fprintf(stderr, "keyplan verify: %s\n", err ? err : _("cannot run"));
    free(err);
    source_free(&src);
    /* the exit status: 0 every pattern passed, 1 a pattern failed, 2 the run could not be made */
    return st != KP_OK ? 2 : sum.failed ? 1 : 0;
}
