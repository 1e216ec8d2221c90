/* fileio.c - bounded whole-file reads and atomic writes that never replace what is not a regular
 * file. */
#include "fileio.h"
#include "i18n.h"

#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Links followed before giving up (a loop). */
#define MAX_LINKS 40

static const char *kind_of(mode_t m)
{
    if (S_ISDIR(m))
        return _("a directory");
    if (S_ISCHR(m))
        return _("a character device");
    if (S_ISBLK(m))
        return _("a block device");
    if (S_ISFIFO(m))
        return _("a FIFO (named pipe)");
    if (S_ISSOCK(m))
        return _("a socket");
    return _("not a regular file");
}

/* "64 MiB" for a bound in bytes (a whole number of MiB or KiB, else bytes). */
static char *size_text(size_t n)
{
    if (n >= ((size_t)1 << 20) && n % ((size_t)1 << 20) == 0)
        return xasprintf("%zu MiB", n >> 20);
    if (n >= 1024 && n % 1024 == 0)
        return xasprintf("%zu KiB", n >> 10);
    return xasprintf(_("%zu bytes"), n);
}

char *fileio_read_max(const char *path, size_t max, size_t *len, char **err)
{
    if (max == 0)
        max = FILEIO_MAX_TEXT;
    bool std = strcmp(path, "-") == 0;
    FILE *f = std ? stdin : fopen(path, "rb");
    if (!f) {
        kp_fail(err, KP_IO, _("%s: cannot open: %s"), path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (!std && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        kp_fail(err, KP_IO, _("%s: is a directory; expected a file"), path);
        return NULL;
    }
    sbuf b;
    sbuf_init(&b);
    char chunk[65536];
    size_t r;
    bool over = false;
    while ((r = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b.len + r > max) {
            over = true;
            break;
        }
        sbuf_addn(&b, chunk, r);
    }
    bool bad = !over && ferror(f);
    int e = errno;
    if (!std)
        fclose(f);
    if (over || bad) {
        sbuf_free(&b);
        if (over) {
            char *lim = size_text(max);
            kp_fail(err, KP_IO, _("%s: more than %s; expected a file of at most %s (is it the right file?)"),
                    std ? _("standard input") : path, lim, lim);
            free(lim);
        } else
            kp_fail(err, KP_IO, _("%s: cannot read: %s"), std ? _("standard input") : path, strerror(e));
        return NULL;
    }
    if (len)
        *len = b.len;
    if (!b.s)
        sbuf_addn(&b, "", 0);
    return sbuf_steal(&b);
}

char *fileio_read(const char *path, size_t *len, char **err) { return fileio_read_max(path, 0, len, err); }

const char *fileio_reason(const char *path, const char *msg)
{
    size_t pl = strlen(path);
    if (msg && !strncmp(msg, path, pl) && msg[pl] == ':' && msg[pl + 1] == ' ')
        return msg + pl + 2;
    return msg ? msg : "";
}

/* The folder part of p ("." when none); caller frees. */
static char *dir_of(const char *p)
{
    const char *slash = strrchr(p, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == p)
        return xstrdup("/");
    return xstrndup(p, (size_t)(slash - p));
}

/* Follows symbolic links from `path` to the file that would be written: *real (caller frees) is
 * its path, *exists whether it exists and *st its status then. KP_IO with the reason when the
 * final target is not a regular file or the links loop. */
static kp_status resolve_target(const char *path, char **real, bool *exists, struct stat *st, char **err)
{
    char *p = xstrdup(path);
    for (int hops = 0; hops <= MAX_LINKS; hops++) {
        if (lstat(p, st) != 0) {
            if (errno == ENOENT) {
                *real = p;
                *exists = false;
                return KP_OK;
            }
            kp_status s = kp_fail(err, KP_IO, _("%s: cannot write: %s"), path, strerror(errno));
            free(p);
            return s;
        }
        if (S_ISREG(st->st_mode)) {
            if (access(p, W_OK) != 0 && errno == EACCES) {
                kp_status s = kp_fail(err, KP_IO, _("%s: is read-only; expected a file you may write"), path);
                free(p);
                return s;
            }
            *real = p;
            *exists = true;
            return KP_OK;
        }
        if (!S_ISLNK(st->st_mode)) {
            kp_status s =
                strcmp(p, path) == 0
                    ? kp_fail(err, KP_IO,
                              _("%s: is %s; expected a regular file (keyplan never replaces one)"), path,
                              kind_of(st->st_mode))
                    : kp_fail(err, KP_IO,
                              _("%s: links to %s, which is %s; expected a regular file (keyplan never "
                                "replaces one)"),
                              path, p, kind_of(st->st_mode));
            free(p);
            return s;
        }
        char buf[PATH_MAX];
        ssize_t n = readlink(p, buf, sizeof buf - 1);
        if (n < 0) {
            kp_status s = kp_fail(err, KP_IO, _("%s: cannot read the link: %s"), path, strerror(errno));
            free(p);
            return s;
        }
        buf[n] = '\0';
        char *next;
        if (buf[0] == '/')
            next = xstrdup(buf);
        else {
            char *d = dir_of(p);
            next = xasprintf("%s/%s", d, buf);
            free(d);
        }
        free(p);
        p = next;
    }
    free(p);
    return kp_fail(err, KP_IO, _("%s: too many levels of symbolic links"), path);
}

kp_status fileio_check_target(const char *path, char **err)
{
    if (strcmp(path, "-") == 0)
        return KP_OK;
    char *real = NULL;
    bool exists;
    struct stat st;
    kp_status s = resolve_target(path, &real, &exists, &st, err);
    free(real);
    return s;
}

/* fsync of the folder holding `file`, so that the rename itself survives a crash. Folders that
 * cannot be synced (EINVAL on some file systems) are not an error. */
static int sync_dir(const char *file)
{
    char *d = dir_of(file);
    int fd = open(d, O_RDONLY | O_DIRECTORY);
    free(d);
    if (fd < 0)
        return 0;
    int r = fsync(fd);
    int e = errno;
    close(fd);
    return (r != 0 && e != EINVAL && e != EROFS) ? e : 0;
}

kp_status fileio_write_atomic(const char *path, const char *data, size_t len, char **err)
{
    if (strcmp(path, "-") == 0) {
        if ((len && fwrite(data, 1, len, stdout) != len) || fflush(stdout) != 0)
            return kp_fail(err, KP_IO, _("cannot write to standard output: %s"), strerror(errno));
        return KP_OK;
    }
    char *real = NULL;
    bool exists;
    struct stat st;
    kp_status s = resolve_target(path, &real, &exists, &st, err);
    if (s != KP_OK)
        return s;
    char *tmp = xasprintf("%s.tmp-XXXXXX", real);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        kp_fail(err, KP_IO, _("%s: cannot create a temporary file beside it: %s"), path, strerror(errno));
        free(tmp);
        free(real);
        return KP_IO;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = ENOSPC;
            goto fail;
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0)
        goto fail;
    /* an existing file keeps its mode (and its owner when we may give it back); a new one gets
       what a plain file would */
    if (exists) {
        if (fchmod(fd, st.st_mode & 07777) != 0)
            goto fail;
        if (geteuid() == 0 && (st.st_uid != 0 || st.st_gid != 0) && fchown(fd, st.st_uid, st.st_gid) != 0)
            goto fail;
    } else {
        mode_t um = umask(0);
        umask(um);
        if (fchmod(fd, 0666 & ~um) != 0)
            goto fail;
    }
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (rename(tmp, real) != 0)
        goto fail;
    free(tmp);
    int e = sync_dir(real);
    free(real);
    if (e)
        return kp_fail(err, KP_IO, _("%s: written, but its folder could not be synced: %s"), path,
                       strerror(e));
    return KP_OK;
fail:
    kp_fail(err, KP_IO, _("%s: cannot write: %s"), path, strerror(errno));
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    free(tmp);
    free(real);
    return KP_IO;
}
