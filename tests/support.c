/* support.c - helpers shared by the test programs. */
#include "support.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char *ts_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (cap - n - 1 == 0) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

char *ts_temp_dir(void)
{
    const char *base = getenv("TMPDIR");
    char tmpl[512];
    snprintf(tmpl, sizeof tmpl, "%s/keyplan-test-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpl))
        return NULL;
    return strdup(tmpl);
}

char *ts_write_temp(const char *name, const char *text)
{
    char *dir = ts_temp_dir();
    if (!dir)
        return NULL;
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    snprintf(path, n, "%s/%s", dir, name);
    free(dir);
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(path);
        return NULL;
    }
    fwrite(text, 1, strlen(text), f);
    fclose(f);
    return path;
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", a, b);
    return p;
}

char *ts_source_path(const char *rel) { return join(KP_SOURCE_DIR, rel); }

static char *slurp_fd(int fd)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (cap - n < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        ssize_t r = read(fd, buf + n, cap - n - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = '\0';
    return buf;
}

int ts_run_keyplan(const char *const *args, const char *input, char **out, char **err)
{
    char outp[] = "/tmp/keyplan-out-XXXXXX", errp[] = "/tmp/keyplan-err-XXXXXX";
    int ofd = mkstemp(outp), efd = mkstemp(errp);
    if (ofd < 0 || efd < 0)
        return -1;
    unlink(outp);
    unlink(errp);
    int in[2];
    if (pipe(in) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(ofd, 1);
        dup2(efd, 2);
        close(in[0]);
        close(in[1]);
        size_t n = 0;
        while (args[n])
            n++;
        char **argv = calloc(n + 2, sizeof *argv);
        argv[0] = (char *)KP_BINARY;
        for (size_t i = 0; i < n; i++)
            argv[i + 1] = (char *)args[i];
        execv(KP_BINARY, argv);
        _exit(127);
    }
    close(in[0]);
    /* a child may exit without reading all its input (a refused option, a bad first line): the
       write then fails with EPIPE instead of SIGPIPE killing the test */
    void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
    if (input) {
        size_t len = strlen(input), off = 0;
        while (off < len) {
            ssize_t w = write(in[1], input + off, len - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                break;
            off += (size_t)w;
        }
    }
    close(in[1]);
    signal(SIGPIPE, old_pipe);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    lseek(ofd, 0, SEEK_SET);
    lseek(efd, 0, SEEK_SET);
    char *o = slurp_fd(ofd), *e = slurp_fd(efd);
    close(ofd);
    close(efd);
    if (out)
        *out = o;
    else
        free(o);
    if (err)
        *err = e;
    else
        free(e);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
