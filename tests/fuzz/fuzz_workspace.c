/* fuzz_workspace.c - libFuzzer target: a workspace file of arbitrary bytes (a damaged or foreign
 * file, a truncated one). Opening it for reading either fails with a message, leaving the file
 * as it was, or gives a workspace whose log, versions and fsck report can be read; opening it for
 * salvage (keyplan fsck) never crashes either. The seeds are real workspaces. */
#include "fuzz_common.h"
#include "workspace.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fuzz_path[4096];

static void read_all(unsigned flags)
{
    ws_t *ws = NULL;
    char *err = NULL;
    kp_status st = ws_open(fuzz_path, flags, &ws, &err);
    if (st != KP_OK) {
        if (!err) {
            fprintf(stderr, "WORKSPACE BUG: refused without a message\n");
            abort();
        }
        free(err);
        return;
    }
    ws_version *v = NULL;
    size_t n = 0;
    if (ws_log(ws, &v, &n, &err) == KP_OK) {
        for (size_t i = 0; i < n && i < 8; i++) {
            char *yaml = NULL;
            if (ws_version_get(ws, v[i].number, NULL, &yaml, &err) != KP_OK)
                free(err);
            free(yaml);
        }
        ws_versions_free(v, n);
    } else
        free(err);
    ws_fsck_report r;
    if (ws_fsck(ws, &r, &err) == KP_OK)
        ws_fsck_report_free(&r);
    else
        free(err);
    ws_close(ws);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_write_temp(fuzz_path, sizeof fuzz_path, "ws", "keyplan", data, size);
    read_all(WS_READONLY);
    read_all(WS_READONLY | WS_SALVAGE);
    char *p = xasprintf("%s-wal", fuzz_path);
    unlink(p);
    free(p);
    p = xasprintf("%s-shm", fuzz_path);
    unlink(p);
    free(p);
    unlink(fuzz_path);
    return 0;
}
