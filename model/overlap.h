/* overlap.h - which key values two templates can share, decided on the values their
 * placeholders can take (their domains): the one answer to "does this query also read that
 * entity's items?" (the resolver's filters and screens, the Items screen's highlight).
 *
 * Domains, one per placeholder, from its attribute (see the README, "How a pattern resolves"):
 * - enum: its values; bool: true, false;
 * - number: digits (an optional '-', at least its format's width, an optional fraction);
 *   shard: the digits of 0 .. count-1;
 * - date: ISO 8601 text, a digit and then digits and - : T . Z + / and space; a date whose
 *   format has other letters (month names) is a string;
 * - string (the default, also for undeclared attributes): any character except the
 *   separators a template of the design puts right next to the placeholder (the ASCII
 *   punctuation or space just before or after it: '#' in USER#{userId}, '-' in {stage}-{title});
 *   with `chars: any` every character. Never empty.
 * A template is then a regular language: its literals and its placeholders' domains one after
 * the other, fixed values (by: "stage=live") substituted as literals. Two such languages are
 * intersected by walking both automata together (a product search), so every answer is exact
 * for the domains: "no" means no value of one can be (or begin) a value of the other.
 *
 * Nothing here fails except for memory (fatal). */
#ifndef KP_OVERLAP_H
#define KP_OVERLAP_H

#include "design.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A set of bytes. */
typedef struct ov_bytes {
    uint64_t w[4];
} ov_bytes;

static inline bool ov_bytes_has(const ov_bytes *s, unsigned char c) { return (s->w[c >> 6] >> (c & 63)) & 1; }

/* The domains of every placeholder of a design. */
typedef struct ov_domains ov_domains;

/* The domains of design d's placeholders (every name a key template uses, and every declared
 * attribute); d must outlive them. Never NULL; release with ov_domains_free. */
ov_domains *ov_domains_new(const kp_design *d);
void ov_domains_free(ov_domains *dm);

/* Would design d with entity epos made e give every placeholder the separators it has now
 * (those its templates put right next to it, which bound its values)? True when no name another
 * entity's template or the declarations know gains or loses one: the other entities' templates
 * then meet each other as before. (An undeclared name of epos's templates alone is theirs only;
 * ov_continuation is not compared: it changes no value.) */
bool ov_same_separators(const kp_design *d, size_t epos, const kp_entity *e);
/* The names whose separators that edit changes (each once), as ov_same_separators decides: how
 * many, and (out not NULL) the names in *out (allocated; they point into the two entities'
 * templates). */
size_t ov_separators_changed(const kp_design *d, size_t epos, const kp_entity *e, const char ***out);

/* A number for the values placeholder p of one of the design's templates (or a declared
 * attribute) takes: two placeholders with the same number take the same values (the resolver
 * groups templates by their literals and these numbers). SIZE_MAX for a name the design neither
 * declares nor uses (an undeclared string, no separator next to it anywhere). */
size_t ov_part_domain(const ov_domains *dm, const tpl_part *p);

/* The separators the design's templates put right next to placeholder `name` (empty with
 * `chars: any`, or for a name no template uses). */
void ov_separators(const ov_domains *dm, const char *name, ov_bytes *out);

/* Does a value of `name` take every character (`chars: any`)? */
bool ov_chars_any(const ov_domains *dm, const char *name);

/* The first literal that follows placeholder `name` in a template of the design and starts with
 * a separator ("#FRIENDS" in USER#{userId}#FRIENDS); NULL when none. A value of `chars: any`
 * that holds it makes one template's value another's (what verify's sample ids show). */
const char *ov_continuation(const ov_domains *dm, const char *name);

/* The bytes a value of attribute `name` can start with (a BETWEEN on it reads sort keys that go
 * on with a byte between the least and the greatest of them). */
void ov_first_bytes(const ov_domains *dm, const char *name, ov_bytes *out);

/* A fixed value of a placeholder: the value as the pattern gives it (formatted here, with the
 * part's or the attribute's format). */
typedef struct ov_fixed {
    const char *name;
    const char *value;
} ov_fixed;

/* A template compiled to an automaton. Zero-initialise (or ov_lang_init), add its pieces in
 * order, ov_lang_end, then ask ov_meet; release with ov_lang_free. */
typedef struct ov_edge {
    uint32_t to;
    uint32_t set; /* index into sets (kind OV_EDGE_SET) */
    uint8_t byte; /* kind OV_EDGE_BYTE */
    uint8_t kind; /* OV_EDGE_EPS, OV_EDGE_BYTE, OV_EDGE_SET */
} ov_edge;

typedef struct ov_lang {
    ov_edge *e; /* by state once ended: state s's edges are e[first[s] .. first[s + 1]) */
    uint32_t *from;
    size_t ne, cape;
    ov_bytes *sets;
    size_t nsets, capsets;
    uint32_t *first;
    uint32_t nstates, cur; /* states; the state the next piece starts from (the final one) */
    bool ended;
} ov_lang;

void ov_lang_init(ov_lang *l);
void ov_lang_free(ov_lang *l);
/* Appends literal text. */
void ov_lang_literal(ov_lang *l, const char *text);
/* Appends one byte of `set`. */
void ov_lang_bytes(ov_lang *l, const ov_bytes *set);
/* Appends parts[0..n): literals, the fixed value of a placeholder named in fx[0..nfx) (formatted
 * with the part's or the attribute's format), else the placeholder's domain. */
void ov_lang_parts(ov_lang *l, const ov_domains *dm, const tpl_part *parts, size_t n, const ov_fixed *fx,
                   size_t nfx);
/* Ends the automaton: ov_meet may ask it now; nothing may be appended any more. */
void ov_lang_end(ov_lang *l);

typedef enum ov_how {
    OV_EQUAL,  /* a value of a equals a value of b (the same partition, an exact sort key) */
    OV_PREFIX, /* a value of a begins a value of b (begins_with(b, a)), or equals it */
} ov_how;

/* Can a value of a and a value of b meet as `how` says? Both ended. */
bool ov_meet(const ov_lang *a, const ov_lang *b, ov_how how);

/* The same for two templates: a with the fixed values fx[0..nfx) (may be empty), b with none. */
bool ov_templates_meet(const ov_domains *dm, const tpl *a, const ov_fixed *fx, size_t nfx, const tpl *b,
                       ov_how how);

#endif
