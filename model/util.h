/* util.h - the basic blocks every module shares: allocation, growable arrays, the string
 * builder, the arena, the hash, status codes and diagnostics; and the error convention.
 *
 * Errors, one convention for every public function below app/:
 * - A function that can fail returns a kp_status (KP_OK on success) or a pointer (NULL on
 *   failure). A predicate or a look-up returns bool: false is an answer ("no", "not there"),
 *   not a failure. A function that cannot fail says "never fails" (or "never NULL").
 * - It reports what went wrong as located diagnostics (kp_diags: file, line, column and a
 *   status code, below) when the problem has a place in an input; else as one line of text in
 *   a `char **err` the caller frees (set only on failure; err may be NULL when the caller does
 *   not want it). Not as static text, not on stderr.
 * - The fatal path is for out of memory only: the x* allocators call util_die, which runs the
 *   hook the application set (it restores the terminal) and aborts. A failure of libyaml,
 *   jansson, SQLite or the network is an error returned by these rules, never an abort; and
 *   nothing below app/ calls exit(). */
#ifndef KP_UTIL_H
#define KP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Called once before abort() on a fatal error (out of memory). Set by app/ to restore the
 * terminal; NULL by default. */
void util_set_die_hook(void (*hook)(void));
/* The fatal path, for out of memory only: runs the hook, prints "keyplan: fatal: WHAT" on stderr
 * and aborts. Never returns. */
void util_die(const char *what);

/* Keeps the heap the process frees for its next allocations (glibc's malloc would hand the top of
 * it back to the kernel and map large blocks afresh, and every page touched again costs a page
 * fault: a fifth of an analysis on a virtual machine). Called first by keyplan's main and by the
 * benchmarks that time it in-process. Freed memory past 256 MiB still goes back. */
void util_keep_heap(void);

/* The allocators: never NULL (out of memory is fatal); the caller frees what they return. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s); /* NULL in, NULL out */
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);

/* Growable array of any element type: T *v; size_t n, cap. VEC_GROW(v, n, cap) makes room for
 * v[n] (doubling cap; the new room is not zeroed). */
#define VEC_GROW(v, n, cap)                              \
    do {                                                 \
        if ((n) >= (cap)) {                              \
            size_t vec_nc_ = (cap) ? (cap)*2 : 8;        \
            (v) = xrealloc((v), vec_nc_ * sizeof(*(v))); \
            (cap) = vec_nc_;                             \
        }                                                \
    } while (0)

/* Removes v[i] from the n elements of v, closing the gap (what v[i] owns is not freed). */
#define VEC_DEL(v, n, i)                                               \
    do {                                                               \
        memmove(&(v)[i], &(v)[(i) + 1], ((n) - (i)-1) * sizeof(*(v))); \
        (n)--;                                                         \
    } while (0)

/* VEC_GROW for an array that starts in an array of the caller, inl (a struct member: a few
 * elements need no malloc): v is NULL or inl until it outgrows inl, then on the heap (free v
 * only when v != inl). */
#define VEC_GROW_INL(v, n, cap, inl)                           \
    do {                                                       \
        if (!(v)) {                                            \
            (v) = (inl);                                       \
            (cap) = sizeof(inl) / sizeof(*(inl));              \
        }                                                      \
        if ((n) >= (cap)) {                                    \
            void *vec_nv_ = xmalloc(2 * (cap) * sizeof(*(v))); \
            memcpy(vec_nv_, (v), (n) * sizeof(*(v)));          \
            if ((v) != (inl))                                  \
                free(v);                                       \
            (v) = vec_nv_;                                     \
            (cap) *= 2;                                        \
        }                                                      \
    } while (0)

/* A block allocator: many small pieces released at once (a stage's working arrays, the texts of
 * an analysis). Pieces are aligned for any type; there is no per-piece free. arena_new never
 * returns NULL; arena_free(NULL) does nothing. */
typedef struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    max_align_t data[];
} arena_block;
typedef struct arena {
    arena_block *head; /* the block being filled; private to util.c and the inline below */
} arena;

arena *arena_new(void);
void arena_free(arena *a);                  /* releases every piece */
void *arena_alloc_slow(arena *a, size_t n); /* arena_alloc's path when the block is full */
/* n bytes, uninitialised (inline: the analysis puts thousands of small texts in an arena). */
static inline void *arena_alloc(arena *a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    arena_block *b = a->head;
    if (!b || b->used + n > b->cap)
        return arena_alloc_slow(a, n);
    void *p = (char *)b->data + b->used;
    b->used += n;
    return p;
}
void *arena_zalloc(arena *a, size_t n);                 /* n zeroed bytes */
char *arena_strndup(arena *a, const char *s, size_t n); /* s[0..n) and a NUL */
char *arena_strdup(arena *a, const char *s);
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The string builder of keyplan: a growable string, always NUL-terminated once anything was
 * appended (s is NULL before, unless it starts in a buffer of the caller: sbuf_init_in). Texts
 * that must outlive a run of the analysis go to the heap (sbuf_steal), the others to its arena
 * (sbuf_to_arena). */
typedef struct sbuf {
    char *s;
    size_t len, cap;
    char *fixed; /* the caller's buffer while s is in it; not freed */
} sbuf;

void sbuf_init(sbuf *b); /* empty, nothing allocated */
/* Starts b in the caller's buffer buf of `size` bytes (>= 1; holds "" at once): no allocation
 * until the text outgrows it (it then moves to the heap). Never copy such an sbuf by value while
 * it is in use. */
void sbuf_init_in(sbuf *b, char *buf, size_t size);
void sbuf_free(sbuf *b);           /* frees the heap text, if any; b is empty after */
void sbuf_grow(sbuf *b, size_t n); /* room for n more bytes and the NUL (sbuf_addn's slow path) */
/* Appends n bytes of s (inline: texts are built a few bytes at a time). */
static inline void sbuf_addn(sbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap)
        sbuf_grow(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}
static inline void sbuf_add(sbuf *b, const char *s) { sbuf_addn(b, s, strlen(s)); }
static inline void sbuf_addc(sbuf *b, char c) { sbuf_addn(b, &c, 1); }
void sbuf_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sbuf_steal(sbuf *b); /* returns the string on the heap (never NULL), leaves b empty; caller frees */
/* The text copied into arena a (never NULL); b is released and left empty. */
char *sbuf_to_arena(sbuf *b, arena *a);

/* x, or 0 when x is NaN (a figure the design leaves unknown counts as nothing). */
static inline double util_nz(double x) { return x == x ? x : 0; }

/* FNV-1a, 64 bits: the one hash of keyplan (maps, template shapes, and the workspace's version
 * digest, which is stored on disk: neither the algorithm nor the seed may change). Start from
 * UTIL_HASH_SEED, or from an earlier hash to continue it over the next part of a composite key.
 * The seed is the offset basis as keyplan has always written it, one digit short of the
 * published 14695981039346656037: the stored digests depend on it. Pure functions. */
#define UTIL_HASH_SEED  1469598103934665603ULL
#define UTIL_HASH_PRIME 1099511628211ULL

/* h continued over the bytes of NUL-terminated s (inline: the maps hash on every look-up). */
static inline uint64_t util_hash_str(uint64_t h, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = (h ^ *p) * UTIL_HASH_PRIME;
    return h;
}

/* h continued over n bytes at p. */
static inline uint64_t util_hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *q = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ q[i]) * UTIL_HASH_PRIME;
    return h;
}

/* Levenshtein distance between two strings, capped at max+1 (cheap early exit). */
size_t util_edit_distance(const char *a, const char *b, size_t max);
/* The candidate closest to `word` when it is close enough to be a plausible typo, else NULL.
 * Returns a pointer into `cands`. */
const char *util_did_you_mean(const char *word, const char *const *cands, size_t n);

/* true when `word` occurs in `text`, ignoring ASCII case (UTF-8 bytes compare as they are);
 * false when either is NULL. */
bool util_contains_ci(const char *text, const char *word);

/* true when s is well-formed UTF-8 (no overlongs, no surrogates); on failure *bad_offset is the
 * byte offset of the first bad byte. */
bool util_utf8_valid(const char *s, size_t len, size_t *bad_offset);

/* The byte offset of the first control character of s (C0 controls, DEL, and the C1 controls
 * U+0080..U+009F: what can move a terminal's cursor or start an escape sequence), or -1 when
 * there is none. `allow_lines`: newline, carriage return and tab are not counted (free text). */
ptrdiff_t util_control_at(const char *s, bool allow_lines);

/* s with every control character (as above, newlines and tabs included) written as an escape
 * that shows it ("\n", "\t", "\e", "\x07", "\u009b"), and every byte that is not part of a
 * UTF-8 character as "\xe9": printable UTF-8 text from text from outside (an access log's keys,
 * a file's name), for a terminal or a design. Never NULL (NULL in: ""); caller frees. */
char *util_escape_controls(const char *s);

/* ------------------------------------------------------------------------------------------
 * Status codes: one X-macro table (tig STATUS_CODE_INFO). The name is what tests and the
 * JSON output use; the text is the generic message when nothing more specific is known. */
/* clang-format off */
#define KP_STATUS_CODES(X)                                                     \
    X(OK, "ok")                                                                \
    X(NOMEM, N_("out of memory"))                                              \
    X(IO, N_("cannot read or write the file"))                                 \
    X(SYNTAX, N_("YAML syntax error"))                                         \
    X(ENCODING, N_("invalid UTF-8"))                                           \
    X(EMPTY, N_("the file is empty"))                                          \
    X(VERSION, N_("missing or unsupported format version"))                    \
    X(UNKNOWN_KEY, N_("unknown key"))                                          \
    X(MISSING_KEY, N_("required key missing"))                                 \
    X(TYPE, N_("value of the wrong type"))                                     \
    X(RANGE, N_("value out of range"))                                         \
    X(DUPLICATE, N_("duplicate name or id"))                                   \
    X(UNKNOWN_REF, N_("reference to something that does not exist"))           \
    X(TEMPLATE, N_("broken key template"))                                     \
    X(SHARES, N_("enum shares do not sum to 1"))                               \
    X(INDEX, N_("invalid index definition"))                                   \
    X(ALIAS, N_("YAML aliases expand beyond the allowed bound"))               \
    X(SIGNAL, N_("malformed signal"))                                          \
    X(CONFLICT, N_("the workspace changed meanwhile"))                         \
    X(DAMAGED, N_("the workspace file is damaged or not a keyplan workspace")) \
    X(READONLY, N_("the workspace is read-only"))                              \
    X(NOTFOUND, N_("not found"))                                               \
    X(NETWORK, N_("network or endpoint error"))                                \
    X(INVALID, N_("invalid input"))
/* clang-format on */

typedef enum kp_status {
/* clang-format off */
#define KP_STATUS_ENUM(name, text) KP_##name,
    KP_STATUS_CODES(KP_STATUS_ENUM)
#undef KP_STATUS_ENUM
    KP_STATUS__COUNT
    /* clang-format on */
} kp_status;

const char *kp_status_name(kp_status s); /* "UNKNOWN_KEY" */
const char *kp_status_text(kp_status s); /* "unknown key" */

/* The failure path of the convention in one call: sets *err (when err is not NULL) to the
 * formatted message (the caller frees it) and returns st, as in
 * `return kp_fail(err, KP_IO, "%s: cannot write: %s", path, strerror(errno));`. */
kp_status kp_fail(char **err, kp_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A place in a source file; line and col are 1-based, 0 when unknown. */
typedef struct kp_loc {
    int line, col;
} kp_loc;

/* The place of byte `off` of text[0..len): lines and columns counted from 1, a column being a
 * UTF-8 character (a continuation byte does not count). Never fails. */
kp_loc util_loc_of(const char *text, size_t len, size_t off);

typedef enum kp_severity { KP_SEV_ERROR, KP_SEV_WARNING, KP_SEV_NOTE } kp_severity;

typedef struct kp_diag {
    kp_status code;
    kp_severity sev;
    kp_loc loc;
    char *msg; /* without "FILE:LINE:COL: error: " */
} kp_diag;

/* A list of diagnostics about one file. */
typedef struct kp_diags {
    char *file; /* name used in messages ("design.yaml"); may be NULL */
    kp_diag *v;
    size_t n, cap;
    size_t errors; /* count of KP_SEV_ERROR entries */
} kp_diags;

void diags_init(kp_diags *d, const char *file);
void diags_free(kp_diags *d);
void diags_add(kp_diags *d, kp_status code, kp_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void diags_warn(kp_diags *d, kp_status code, kp_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "FILE:LINE:COL: error: MSG" (line/col omitted when unknown); caller frees. */
char *diags_format(const kp_diags *d, size_t i);
/* Prints every diagnostic, one per line. */
void diags_print(const kp_diags *d, FILE *out);

#endif
