/* namemap.c - the open-addressing name map (see namemap.h). */
#include "namemap.h"

#include "util.h"

#include <stdlib.h>
#include <string.h>

#define MIN_CAP 16

static size_t cap_for(size_t expect)
{
    size_t cap = MIN_CAP;
    while (cap < 2 * expect + 1)
        cap *= 2;
    return cap;
}

void namemap_init(namemap *m, size_t expect)
{
    m->cap = cap_for(expect);
    m->n = 0;
    m->slots = xcalloc(m->cap, sizeof *m->slots);
}

void namemap_free(namemap *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

static void grow(namemap *m)
{
    namemap old = *m;
    m->cap = old.cap ? old.cap * 2 : MIN_CAP;
    m->slots = xcalloc(m->cap, sizeof *m->slots);
    size_t mask = m->cap - 1;
    for (size_t k = 0; k < old.cap; k++) {
        const namemap_slot *s = &old.slots[k];
        if (!s->key)
            continue;
        size_t i = (size_t)s->hash & mask;
        while (m->slots[i].key)
            i = (i + 1) & mask;
        m->slots[i] = *s;
    }
    free(old.slots);
}

/* The slot holding (name, tag), or the empty slot where it would go. m->cap > 0. Inlined in
 * the calls below: the analysis fills thousands of names per run. */
static inline __attribute__((always_inline)) namemap_slot *probe(const namemap *m, const char *name,
                                                                 ptrdiff_t tag, uint32_t h)
{
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        namemap_slot *s = &m->slots[i];
        if (!s->key || (s->hash == h && s->tag == tag && strcmp(s->key, name) == 0))
            return s;
    }
}

static inline __attribute__((always_inline)) size_t *insert(namemap *m, const char *name, ptrdiff_t tag,
                                                            size_t val, bool *added)
{
    if (!m->cap)
        grow(m);
    uint32_t h = namemap_hash(name, tag);
    namemap_slot *s = probe(m, name, tag, h);
    if (!s->key) {
        if (2 * (m->n + 1) > m->cap) {
            grow(m);
            s = probe(m, name, tag, h);
        }
        *s = (namemap_slot){name, h, (int32_t)tag, val};
        m->n++;
        *added = true;
    }
    return &s->val;
}

size_t *namemap_insert(namemap *m, const char *name, ptrdiff_t tag, size_t val, bool *added)
{
    bool fresh = false;
    size_t *v = name ? insert(m, name, tag, val, &fresh) : NULL;
    if (added)
        *added = fresh;
    return v;
}

bool namemap_put(namemap *m, const char *name, size_t val)
{
    bool added = false;
    if (name)
        insert(m, name, 0, val, &added);
    return added;
}

size_t namemap_number(namemap *m, const char *name)
{
    bool added = false;
    return name ? *insert(m, name, 0, m->n, &added) : SIZE_MAX;
}
