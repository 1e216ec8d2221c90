/* namemap.h - the hash map of the model: names (NUL-terminated UTF-8, compared byte for byte as
 * strcmp does), each with an integer tag for composite keys ((template, index), (key, entity);
 * 0 when there is none), to a value (a position in some array).
 *
 * Open addressing with linear probing over a power-of-two table that doubles when half full.
 * Every slot keeps its key's hash (util_hash_str, the tag folded into the seed), so a probe
 * compares strings only on a hash match and growing never hashes a key again. Tags are small
 * integers (positions, -1 for the base table): they are kept in 32 bits. The
 * keys are not copied: they must outlive the map (they point into the design, or into an arena
 * of the caller). Nothing is ever removed.
 *
 * A namemap is a small value: a zeroed one is an empty map, namemap_init only sizes it in
 * advance, namemap_free releases it (and leaves it empty). Allocation failure is fatal
 * (util_die), so nothing here fails. */
#ifndef KP_NAMEMAP_H
#define KP_NAMEMAP_H

#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct namemap_slot {
    const char *key; /* NULL: empty */
    uint32_t hash;   /* the low half of namemap_hash: picks the slot, spares most strcmp */
    int32_t tag;
    size_t val;
} namemap_slot;

typedef struct namemap {
    namemap_slot *slots;
    size_t cap; /* 0 or a power of two */
    size_t n;   /* keys held */
} namemap;

/* An empty map with room for `expect` keys before it first grows. */
void namemap_init(namemap *m, size_t expect);
void namemap_free(namemap *m);

/* The hash of (name, tag): FNV-1a of the name from a seed the tag changes. */
static inline uint32_t namemap_hash(const char *name, ptrdiff_t tag)
{
    return (uint32_t)util_hash_str(UTIL_HASH_SEED ^ (uint64_t)tag, name);
}

/* The value of (name, tag) into *val; false when absent or name is NULL (*val untouched).
 * Inline: the analysis looks names up thousands of times per run. */
static inline bool namemap_find(const namemap *m, const char *name, ptrdiff_t tag, size_t *val)
{
    if (!name || !m->cap)
        return false;
    uint32_t h = namemap_hash(name, tag);
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        const namemap_slot *s = &m->slots[i];
        if (!s->key)
            return false;
        if (s->hash == h && s->tag == tag && strcmp(s->key, name) == 0) {
            *val = s->val;
            return true;
        }
    }
}
/* The value slot of (name, tag), which is added with value `val` when absent; *added (may be
 * NULL) says whether it was. Assign through the result to replace the value. The pointer is
 * valid until the next insertion. NULL when name is NULL (nothing added). */
size_t *namemap_insert(namemap *m, const char *name, ptrdiff_t tag, size_t val, bool *added);

/* namemap_find with tag 0. */
static inline bool namemap_get(const namemap *m, const char *name, size_t *val)
{
    return namemap_find(m, name, 0, val);
}
/* Adds name -> val (tag 0) unless the name is there already: the first put wins, as a linear
 * search from the start would find it. true when added. A NULL name is ignored (false). */
bool namemap_put(namemap *m, const char *name, size_t val);
/* The number of `name` in a map that numbers names (tag 0) in the order they first come: an
 * earlier name's number, else the next one (the count of names so far), which it now holds.
 * SIZE_MAX for NULL. Only for maps filled this way alone. */
size_t namemap_number(namemap *m, const char *name);

#endif
