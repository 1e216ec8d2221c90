/* replay.c - runs a libFuzzer harness's LLVMFuzzerTestOneInput once on every file named on the
 * command line (a folder: every regular file in it, in name order), without libFuzzer, so that
 * any compiler builds the harnesses and the test suite replays their corpora under the
 * sanitizers. Exit 0 when every input ran (a finding aborts); 2 when an input cannot be read or
 * no input was given. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, n = 0, r;
    uint8_t *buf = malloc(cap);
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "replay: out of memory reading %s\n", path);
        return -1;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 1;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Runs every regular file of folder `dir`; the count run, or -1. */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: cannot open folder %s\n", dir);
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap)
            names = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        snprintf(names[n++], len, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (count >= 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            int r = run_file(names[i]);
            count = r < 0 ? -1 : count + r;
        }
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    int total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        int r = stat(argv[i], &st) != 0 ? (fprintf(stderr, "replay: no such input %s\n", argv[i]), -1)
                : S_ISDIR(st.st_mode)   ? run_dir(argv[i])
                                        : run_file(argv[i]);
        if (r < 0)
            return 2;
        total += r;
    }
    if (total == 0) {
        fprintf(stderr, "replay: no input\n");
        return 2;
    }
    printf("replay: %d inputs ran clean\n", total);
    return 0;
}
