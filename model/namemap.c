/* namemap.c - open-addressing name -> position map (see namemap.h). FNV-1a hashes, linear
 * probing, a table at least twice the names so that probes stay short. */
#include "namemap.h"

#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct namemap {
    const char **keys;
    size_t *vals;
    uint32_t *hashes;
    size_t cap, n, max;
};

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 16777619u;
    }
    return h;
}

namemap *namemap_new(size_t n)
{
    namemap *m = xcalloc(1, sizeof *m);
    size_t cap = 16;
    while (cap < 2 * n + 1)
        cap *= 2;
    m->cap = cap;
    m->max = n;
    m->keys = xcalloc(cap, sizeof *m->keys);
    m->vals = xcalloc(cap, sizeof *m->vals);
    m->hashes = xcalloc(cap, sizeof *m->hashes);
    return m;
}

void namemap_free(namemap *m)
{
    if (!m)
        return;
    free(m->keys);
    free(m->vals);
    free(m->hashes);
    free(m);
}

bool namemap_put(namemap *m, const char *name, size_t pos)
{
    if (!name)
        return true;
    uint32_t h = name_hash(name);
    size_t i = h & (m->cap - 1);
    while (m->keys[i]) {
        if (m->hashes[i] == h && strcmp(m->keys[i], name) == 0)
            return true; /* first wins */
        i = (i + 1) & (m->cap - 1);
    }
    if (m->n >= m->max)
        return false;
    m->keys[i] = name;
    m->vals[i] = pos;
    m->hashes[i] = h;
    m->n++;
    return true;
}

bool namemap_get(const namemap *m, const char *name, size_t *pos)
{
    if (!name)
        return false;
    uint32_t h = name_hash(name);
    size_t i = h & (m->cap - 1);
    while (m->keys[i]) {
        if (m->hashes[i] == h && strcmp(m->keys[i], name) == 0) {
            *pos = m->vals[i];
            return true;
        }
        i = (i + 1) & (m->cap - 1);
    }
    return false;
}
