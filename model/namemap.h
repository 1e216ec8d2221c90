/* namemap.h - a small open-addressing map from names (NUL-terminated UTF-8, compared byte for
 * byte as strcmp does) to positions, for the look-ups the analysis repeats thousands of times
 * per run (attributes, entities by name). The keys are not copied: they must outlive the map
 * (they point into the design). Putting a name already present keeps the first position, as a
 * linear search from the start would find it. */
#ifndef KP_NAMEMAP_H
#define KP_NAMEMAP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct namemap namemap;

/* A map with room for `n` names (it never grows: put at most n names). Never NULL; release with
 * namemap_free. */
namemap *namemap_new(size_t n);
void namemap_free(namemap *m);
/* Adds name -> pos unless the name is there already (first wins) or NULL. false when the map is
 * full (more than n names put). */
bool namemap_put(namemap *m, const char *name, size_t pos);
/* The position of `name` in *pos; false when absent or name is NULL. */
bool namemap_get(const namemap *m, const char *name, size_t *pos);

#endif
