/* util.c - allocation, strings, edit distance, UTF-8 check and diagnostics. */
#include "util.h"
#include "i18n.h"

#include <ctype.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void (*die_hook)(void);

void util_keep_heap(void)
{
#ifdef __GLIBC__
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}

void util_set_die_hook(void (*hook)(void)) { die_hook = hook; }

void util_die(const char *what)
{
    if (die_hook)
        die_hook();
    fprintf(stderr, "keyplan: fatal: %s\n", what);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        util_die("out of memory");
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        util_die("out of memory");
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        util_die("out of memory");
    return q;
}

char *xstrdup(const char *s)
{
    if (!s)
        return NULL;
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) /* only a text longer than INT_MAX bytes: no memory for it */
        util_die("out of memory");
    char *p = xmalloc((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = xvasprintf(fmt, ap);
    va_end(ap);
    return p;
}

void sbuf_init(sbuf *b) { b->s = NULL, b->len = 0, b->cap = 0, b->fixed = NULL; }

void sbuf_init_in(sbuf *b, char *buf, size_t size)
{
    b->s = b->fixed = buf;
    b->len = 0;
    b->cap = size;
    buf[0] = '\0';
}

void sbuf_free(sbuf *b)
{
    if (b->s != b->fixed)
        free(b->s);
    sbuf_init(b);
}

void sbuf_grow(sbuf *b, size_t n)
{
    if (b->len + n + 1 <= b->cap)
        return;
    size_t nc = b->cap ? b->cap : 64;
    while (nc < b->len + n + 1)
        nc *= 2;
    if (b->s == b->fixed) { /* leaving the caller's buffer (or nothing yet) */
        char *heap = xmalloc(nc);
        if (b->len)
            memcpy(heap, b->s, b->len);
        b->s = heap;
        b->fixed = NULL;
    } else {
        b->s = xrealloc(b->s, nc);
    }
    b->cap = nc;
}

void sbuf_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = xvasprintf(fmt, ap);
    va_end(ap);
    sbuf_add(b, p);
    free(p);
}

char *sbuf_steal(sbuf *b)
{
    char *s = !b->s ? xstrdup("") : b->s == b->fixed ? xstrndup(b->s, b->len) : b->s;
    sbuf_init(b);
    return s;
}

char *sbuf_to_arena(sbuf *b, arena *a)
{
    char *s = arena_strndup(a, b->s ? b->s : "", b->len);
    sbuf_free(b);
    return s;
}

/* ---- arena ----------------------------------------------------------------------------------- */

#define ARENA_BLOCK 65536

arena *arena_new(void) { return xcalloc(1, sizeof(arena)); }

void arena_free(arena *a)
{
    while (a && a->head) {
        arena_block *b = a->head;
        a->head = b->next;
        free(b);
    }
    free(a);
}

void *arena_alloc_slow(arena *a, size_t n)
{
    size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
    arena_block *b = xmalloc(sizeof *b + cap);
    b->next = a->head;
    b->used = n;
    b->cap = cap;
    a->head = b;
    return b->data;
}

void *arena_zalloc(arena *a, size_t n) { return memset(arena_alloc(a, n), 0, n); }

char *arena_strndup(arena *a, const char *s, size_t n)
{
    char *r = arena_alloc(a, n + 1);
    memcpy(r, s, n);
    r[n] = '\0';
    return r;
}

char *arena_strdup(arena *a, const char *s) { return arena_strndup(a, s, strlen(s)); }

char *arena_printf(arena *a, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof buf)
        return arena_strndup(a, buf, (size_t)n);
    va_start(ap, fmt);
    char *t = xvasprintf(fmt, ap);
    va_end(ap);
    char *r = arena_strdup(a, t);
    free(t);
    return r;
}

size_t util_edit_distance(const char *a, const char *b, size_t max)
{
    size_t la = strlen(a), lb = strlen(b);
    if ((la > lb ? la - lb : lb - la) > max)
        return max + 1;
    size_t *row = xmalloc((lb + 1) * sizeof *row);
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t prev = row[0], best = i;
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t cur = row[j];
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t v = prev + cost;
            if (row[j] + 1 < v)
                v = row[j] + 1;
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            row[j] = v;
            prev = cur;
            if (v < best)
                best = v;
        }
        if (best > max) {
            free(row);
            return max + 1;
        }
    }
    size_t d = row[lb];
    free(row);
    return d > max ? max + 1 : d;
}

const char *util_did_you_mean(const char *word, const char *const *cands, size_t n)
{
    size_t len = strlen(word);
    size_t max = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    const char *best = NULL;
    size_t bestd = max + 1;
    for (size_t i = 0; i < n; i++) {
        if (!cands[i])
            continue;
        size_t d = util_edit_distance(word, cands[i], max);
        if (d < bestd) {
            bestd = d;
            best = cands[i];
        }
    }
    return best;
}

bool util_utf8_valid(const char *str, size_t len, size_t *bad_offset)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        size_t need;
        uint32_t cp, min;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            need = 1, cp = c & 0x1F, min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            need = 2, cp = c & 0x0F, min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            need = 3, cp = c & 0x07, min = 0x10000;
        } else {
            goto bad;
        }
        for (size_t k = 1; k <= need; k++) {
            if (i + k >= len || (s[i + k] & 0xC0) != 0x80)
                goto bad;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            goto bad;
        i += need + 1;
    }
    return true;
bad:
    if (bad_offset)
        *bad_offset = i;
    return false;
}

kp_loc util_loc_of(const char *text, size_t len, size_t off)
{
    kp_loc l = {1, 1};
    for (size_t i = 0; i < off && i < len; i++) {
        unsigned char b = (unsigned char)text[i];
        if (b == '\n')
            l.line++, l.col = 1;
        else if ((b & 0xC0) != 0x80)
            l.col++;
    }
    return l;
}

static const char *const status_names[] = {
#define KP_STATUS_NAME(name, text) #name,
    KP_STATUS_CODES(KP_STATUS_NAME)
#undef KP_STATUS_NAME
};
static const char *const status_texts[] = {
#define KP_STATUS_TEXT(name, text) text,
    KP_STATUS_CODES(KP_STATUS_TEXT)
#undef KP_STATUS_TEXT
};

const char *kp_status_name(kp_status s) { return (unsigned)s < KP_STATUS__COUNT ? status_names[s] : "?"; }

const char *kp_status_text(kp_status s) { return (unsigned)s < KP_STATUS__COUNT ? _(status_texts[s]) : "?"; }

kp_status kp_fail(char **err, kp_status st, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        *err = xvasprintf(fmt, ap);
        va_end(ap);
    }
    return st;
}

void diags_init(kp_diags *d, const char *file)
{
    memset(d, 0, sizeof *d);
    d->file = xstrdup(file);
}

void diags_free(kp_diags *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->v[i].msg);
    free(d->v);
    free(d->file);
    memset(d, 0, sizeof *d);
}

static void diags_vadd(kp_diags *d, kp_severity sev, kp_status code, kp_loc loc, const char *fmt, va_list ap)
{
    VEC_GROW(d->v, d->n, d->cap);
    kp_diag *g = &d->v[d->n++];
    g->code = code;
    g->sev = sev;
    g->loc = loc;
    g->msg = xvasprintf(fmt, ap);
    if (sev == KP_SEV_ERROR)
        d->errors++;
}

void diags_add(kp_diags *d, kp_status code, kp_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diags_vadd(d, KP_SEV_ERROR, code, loc, fmt, ap);
    va_end(ap);
}

void diags_warn(kp_diags *d, kp_status code, kp_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diags_vadd(d, KP_SEV_WARNING, code, loc, fmt, ap);
    va_end(ap);
}

char *diags_format(const kp_diags *d, size_t i)
{
    const kp_diag *g = &d->v[i];
    const char *sev = g->sev == KP_SEV_ERROR ? "error" : g->sev == KP_SEV_WARNING ? "warning" : "note";
    const char *file = d->file ? d->file : "<input>";
    if (g->loc.line > 0)
        return xasprintf("%s:%d:%d: %s: %s", file, g->loc.line, g->loc.col, sev, g->msg);
    return xasprintf("%s: %s: %s", file, sev, g->msg);
}

void diags_print(const kp_diags *d, FILE *out)
{
    for (size_t i = 0; i < d->n; i++) {
        char *s = diags_format(d, i);
        fprintf(out, "%s\n", s);
        free(s);
    }
}

static bool may_start(unsigned char c, unsigned char lo, bool any)
{
    return any || (c | 0x20) == lo || c >= 0x80; /* lo is a-z: (c | 0x20) == lo for lo and its capital */
}

bool util_contains_ci(const char *text, const char *word)
{
    if (!text || !word)
        return false;
    size_t n = strlen(word);
    unsigned char lo = (unsigned char)tolower((unsigned char)word[0]);
    bool any = lo < 'a' || lo > 'z';
    for (const char *s = text; *s; s++) {
        if (n && !may_start((unsigned char)*s, lo, any))
            continue;
        size_t i = 0;
        while (i < n && s[i] && tolower((unsigned char)s[i]) == tolower((unsigned char)word[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

ptrdiff_t util_control_at(const char *s, bool allow_lines)
{
    if (!s)
        return -1;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f) {
            if (allow_lines && (*p == '\n' || *p == '\r' || *p == '\t'))
                continue;
            return (ptrdiff_t)(p - (const unsigned char *)s);
        }
        if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
            return (ptrdiff_t)(p - (const unsigned char *)s);
    }
    return -1;
}

char *util_escape_controls(const char *s)
{
    sbuf b;
    sbuf_init(&b);
    sbuf_add(&b, "");
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '\n':
            sbuf_add(&b, "\\n");
            continue;
        case '\t':
            sbuf_add(&b, "\\t");
            continue;
        case '\r':
            sbuf_add(&b, "\\r");
            continue;
        case 0x1b:
            sbuf_add(&b, "\\e");
            continue;
        default:
            break;
        }
        if (*p < 0x20 || *p == 0x7f)
            sbuf_printf(&b, "\\x%02x", *p);
        else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
            sbuf_printf(&b, "\\u%04x", p[1]);
            p++;
        } else if (*p >= 0x80) {
            /* one character, or a byte that starts none (a file name in Latin-1, say) as "\xe9" */
            size_t n = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : 2, k = 1;
            while (k < n && p[k])
                k++;
            if (k == n && util_utf8_valid((const char *)p, n, NULL)) {
                sbuf_addn(&b, (const char *)p, n);
                p += n - 1;
            } else
                sbuf_printf(&b, "\\x%02x", *p);
        } else
            sbuf_addc(&b, (char)*p);
    }
    return sbuf_steal(&b);
}
