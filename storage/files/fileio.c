/* fileio.c - whole-file reads and atomic writes. */
#include "fileio.h"

#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *fileio_read(const char *path, size_t *len, char **err)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        kp_fail(err, KP_IO, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (f != stdin && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        kp_fail(err, KP_IO, "%s: is a directory; expected a file", path);
        return NULL;
    }
    sbuf b;
    sbuf_init(&b);
    char chunk[65536];
    size_t r;
    while ((r = fread(chunk, 1, sizeof chunk, f)) > 0)
        sbuf_addn(&b, chunk, r);
    bool bad = ferror(f);
    int e = errno;
    if (f != stdin)
        fclose(f);
    if (bad) {
        sbuf_free(&b);
        kp_fail(err, KP_IO, "%s: cannot read: %s", path, strerror(e));
        return NULL;
    }
    if (len)
        *len = b.len;
    return sbuf_steal(&b);
}

kp_status fileio_write_atomic(const char *path, const char *data, size_t len, char **err)
{
    if (strcmp(path, "-") == 0) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0)
            return kp_fail(err, KP_IO, "cannot write to standard output: %s", strerror(errno));
        return KP_OK;
    }
    char *tmp = xasprintf("%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        kp_fail(err, KP_IO, "%s: cannot create a temporary file beside it: %s", path, strerror(errno));
        free(tmp);
        return KP_IO;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            goto fail;
        off += (size_t)w;
    }
    if (fsync(fd) != 0)
        goto fail;
    /* keep the mode a plain file would get */
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um);
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (rename(tmp, path) != 0)
        goto fail;
    free(tmp);
    return KP_OK;
fail:
    kp_fail(err, KP_IO, "%s: cannot write: %s", path, strerror(errno));
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    free(tmp);
    return KP_IO;
}
