/* accesslog.c - an access log's requests tallied per partition key, streamed (see accesslog.h). */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* mremap: a table grows without a copy */
#endif
#include "accesslog.h"

#include "i18n.h"
#include "capacity.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>

#define KEY_INLINE 20
/* The most text tallied at once: threads hand each other up to about a request per line of it. */
#define SLICE ((size_t)4 << 20)
/* A piece is worth a thread from this many bytes on. */
#define MIN_PIECE ((size_t)1 << 16)
/* Requests in flight while adding: a request's index slot is fetched into the cache when it
 * is queued, its entry when it is RING / 2 old, and it is added when RING old. */
#ifndef RING
#define RING 32
#endif

/* One key: its hash, its bytes and its figures. */
typedef struct entry {
    uint64_t hash;
    uint32_t len;
    char inl[KEY_INLINE]; /* the key when len <= KEY_INLINE, else a pointer to it (memcpy'd) */
    double requests, units, read_units, write_units;
} entry;

/* Shards and sinks written by different threads never share a cache line (nor its neighbour,
 * which the hardware fetches in pairs): each starts on its own LINE_PAIR bytes. */
#define LINE_PAIR 128

typedef struct shard {
    _Alignas(LINE_PAIR) uint64_t *ix; /* mask + 1 slots: 0 empty, else tag | entry */
    size_t mask;
    entry *e; /* n entries, room for cape */
    size_t n, cape;
    double requests, units, read_units, write_units; /* the shard's totals, in the log's order */
    double *err;                                     /* per entry; NULL until some key has an error */
    /* approximate mode: at most cap keys, a min-heap of entries by units */
    size_t cap;
    uint32_t *heap, *hpos;
    size_t nheap;
} shard;

/* A request parsed, waiting to be added to its shard. */
typedef struct rec {
    uint64_t hash;
    const char *key;
    uint32_t len;
    bool write;
    double requests, units;
} rec;

/* One thread's part of a chunk. Alone, the thread adds each request as it reads it (the usual
 * ones through a ring of requests in flight). With others, it reads its part and hands each
 * request to the thread of the request's shard (out[that thread], in the log's order); once
 * every part is read, each thread adds what every part handed it, part after part, so a key's
 * requests are added in the log's order whatever the number of threads. */
struct accesslog_sink {
    _Alignas(LINE_PAIR) accesslog *h;
    const char *text; /* the part */
    size_t len;
    const char *chunk, *chunk_end; /* the whole chunk (keys in it stay readable until added) */
    size_t nt;                     /* threads sharing the chunk: 1, adds as it reads */
    rec ring[RING];                /* requests waiting to be added, oldest at ring[head] */
    uint32_t cand[RING];           /* per ring place: 1 + the entry the look-ahead found, 0 none */
    size_t head, n;
    rec *out[ACCESSLOG_MAX_THREADS]; /* nt > 1: requests for thread t's shards */
    size_t nout[ACCESSLOG_MAX_THREADS], capout[ACCESSLOG_MAX_THREADS];
    arena *keys;  /* copies of handed keys that are not text of the chunk (a JSON line's) */
    size_t lines; /* lines read, the bad one included */
    kp_status st; /* KP_OK, or the first failure */
    char *err;    /* with st */
};

/* The threads beside the caller's, started by the first round that wants them and kept until
 * accesslog_free: a log of 10M lines is tallied in some 170 rounds (two a slice), and starting
 * and joining threads for each cost more than waking them. */
typedef struct pool {
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    unsigned long round;                       /* rounds begun */
    size_t started;                            /* threads running: those of sinks 1..started */
    size_t want;                               /* threads of this round, the caller's included */
    size_t left;                               /* of this round's other threads, those still working */
    void *(*fn)(void *);                       /* this round's work */
    bool quit;                                 /* accesslog_free: the threads end */
    unsigned long seen[ACCESSLOG_MAX_THREADS]; /* per thread: the last round it saw */
    pthread_t tid[ACCESSLOG_MAX_THREADS];
} pool;

struct accesslog {
    accesslog_opts o;
    shard sh[ACCESSLOG_SHARDS];
    accesslog_sink sink[ACCESSLOG_MAX_THREADS];
    size_t lines; /* complete lines tallied so far */
    double raised;
    pool pool;
};

/* ---- hashing: in memory only, never stored, so not keyplan's FNV (util_hash_bytes): a word at
 * a time, as the log's millions of keys want ---------------------------------------------- */

static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ULL;
    x ^= x >> 32;
    return x;
}

static inline uint64_t load8(const char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static inline uint64_t load4(const char *p)
{
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

/* The bytes of key[0..n) from k on (1 to 8 of them) as one word, read without a call:
 * overlapping loads inside the key. */
static inline uint64_t tail_word(const char *key, size_t n, size_t k)
{
    if (n >= 8)
        return load8(key + n - 8);
    if (n >= 4)
        return load4(key) | load4(key + n - 4) << 32;
    uint64_t w = (unsigned char)key[k];
    if (n - k > 1)
        w |= (uint64_t)(unsigned char)key[k + 1] << 8;
    if (n - k > 2)
        w |= (uint64_t)(unsigned char)key[k + 2] << 16;
    return w;
}

/* The hash, a word at a time in one pass: whole words while they last, then the last 0 to 7
 * bytes zero-padded, and the length; so a parser that does not know where the key ends before it
 * reaches its end (fast_line) hashes as it scans. */
#define HASH_SEED 0x9e3779b97f4a7c15ULL
static inline uint64_t hash_step(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    return h ^ (h >> 29);
}

static inline uint64_t hash_end(uint64_t h, uint64_t tail, size_t n)
{
    h = mix((h ^ tail ^ (uint64_t)n << 56) * 0xc4ceb9fe1a85ec53ULL);
    return h ? h : 1;
}

static uint64_t key_hash(const char *p, size_t n)
{
    uint64_t h = HASH_SEED, tail = 0;
    size_t k = 0;
    for (; k + 8 <= n; k += 8)
        h = hash_step(h, load8(p + k));
    for (size_t i = 0; k + i < n; i++)
        tail |= (uint64_t)(unsigned char)p[k + i] << (8 * i);
    return hash_end(h, tail, n);
}

static inline size_t shard_of(uint64_t h) { return (size_t)(h >> 60) % ACCESSLOG_SHARDS; }

/* ---- a shard's table ------------------------------------------------------------------- *
 * Two arrays: the index, open addressing with linear probing, 8 bytes a slot (the hash's high
 * half as a tag and the entry's number), and the entries, 64 bytes each (the hash, the key
 * inline when short, the figures), in the order the keys came. A look-up reads one slot and one
 * entry; the index is small enough to stay in the cache, and the hottest keys, which come
 * first in a log, lie together at the start of the entries. */

/* Zeroed memory for the tables. Large blocks are mapped apart and backed by huge pages where
 * the system offers them (random look-ups then miss the TLB far less), and grow in place. */
#define BIG_BLOCK ((size_t)2 << 20)

static void *big_zalloc(size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (n >= BIG_BLOCK) {
        void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            util_die("out of memory");
        madvise(m, n, MADV_HUGEPAGE);
        return m;
    }
#endif
    /* an entry within one cache line: 64-byte aligned, as the mapped blocks are */
    size_t size = (n + 63) / 64 * 64;
    void *p = aligned_alloc(64, size ? size : 64);
    if (!p)
        util_die("out of memory");
    return memset(p, 0, size);
}

static void big_free(void *p, size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (p && n >= BIG_BLOCK) {
        munmap(p, n);
        return;
    }
#endif
    (void)n;
    free(p);
}

/* p (old bytes) made n bytes long, its contents kept, the rest zero. */
static void *big_grow(void *p, size_t old, size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (n >= BIG_BLOCK) {
        if (old < BIG_BLOCK) {
            void *m = big_zalloc(n);
            if (old)
                memcpy(m, p, old);
            free(p);
            return m;
        }
#ifdef __SANITIZE_THREAD__
        /* ThreadSanitizer does not follow mremap: the pages' old address, mapped again for
           another thread's table, would read as shared. A copy there, under the sanitizer. */
        void *c = big_zalloc(n);
        memcpy(c, p, old);
        big_free(p, old);
        return c;
#endif
        void *m = mremap(p, old, n, MREMAP_MAYMOVE); /* the pages move, nothing is copied */
        if (m == MAP_FAILED)
            util_die("out of memory");
        madvise(m, n, MADV_HUGEPAGE);
        return m;
    }
#endif
    void *m = big_zalloc(n); /* aligned as big_zalloc's */
    if (old)
        memcpy(m, p, old);
    free(p);
    return m;
}

static inline uint64_t tag_of(uint64_t h) { return (h | 1ULL << 32) >> 32 << 32; }

static inline const char *entry_key(const entry *s)
{
    if (s->len <= KEY_INLINE)
        return s->inl;
    const char *p;
    memcpy(&p, s->inl, sizeof p);
    return p;
}

static void entry_set_key(entry *s, const char *key, size_t len)
{
    s->len = (uint32_t)len;
    if (len <= KEY_INLINE) {
        memcpy(s->inl, key, len);
        return;
    }
    char *p = xmalloc(len);
    memcpy(p, key, len);
    memcpy(s->inl, &p, sizeof p);
}

static void entry_free_key(entry *s)
{
    if (s->len > KEY_INLINE)
        free((char *)entry_key(s));
}

/* Room for `cape` entries (their errors and heap positions too, when the shard has them). */
static void shard_reserve(shard *sh, size_t cape)
{
    if (cape <= sh->cape)
        return;
    sh->e = big_grow(sh->e, sh->cape * sizeof *sh->e, cape * sizeof *sh->e);
    if (sh->err)
        sh->err = big_grow(sh->err, sh->cape * sizeof *sh->err, cape * sizeof *sh->err);
    if (sh->hpos)
        sh->hpos = big_grow(sh->hpos, sh->cape * sizeof *sh->hpos, cape * sizeof *sh->hpos);
    sh->cape = cape;
}

/* A new index of nslots (a power of two) slots over the entries. */
static void shard_index(shard *sh, size_t nslots)
{
    big_free(sh->ix, (sh->ix ? sh->mask + 1 : 0) * sizeof *sh->ix);
    sh->ix = big_zalloc(nslots * sizeof *sh->ix);
    sh->mask = nslots - 1;
    for (size_t k = 0; k < sh->n; k++) {
        size_t j = sh->e[k].hash & sh->mask;
        while (sh->ix[j])
            j = (j + 1) & sh->mask;
        sh->ix[j] = tag_of(sh->e[k].hash) | k;
    }
}

static void shard_need_err(shard *sh)
{
    if (!sh->err)
        sh->err = big_zalloc((sh->cape ? sh->cape : 1) * sizeof *sh->err);
}

/* a[0..n) == b[0..n), a word at a time (the keys are short: a call to memcmp costs more) */
static inline bool key_eq(const char *a, const char *b, size_t n)
{
    size_t k = 0;
    for (; k + 8 < n; k += 8)
        if (load8(a + k) != load8(b + k))
            return false;
    return !n || tail_word(a, n, k) == tail_word(b, n, k);
}

/* The index slot of key (hash h): its entry's (*found), or the empty slot where it would go. */
static inline size_t shard_find(const shard *sh, uint64_t h, const char *key, size_t len, bool *found)
{
    uint64_t tag = tag_of(h);
    size_t i = h & sh->mask;
    for (;;) {
        uint64_t x = sh->ix[i];
        if (!x) {
            *found = false;
            return i;
        }
        if ((x & 0xffffffff00000000ULL) == tag) {
            const entry *s = &sh->e[(uint32_t)x];
            if (s->hash == h && s->len == len && key_eq(entry_key(s), key, len)) {
                *found = true;
                return i;
            }
        }
        i = (i + 1) & sh->mask;
    }
}

static inline entry *slot_entry(const shard *sh, size_t i) { return &sh->e[(uint32_t)sh->ix[i]]; }

/* A new entry for key (hash h) at the empty index slot i (exact mode: the index grows when
 * more than three quarters full). Its figures are zero. */
static size_t shard_insert(shard *sh, size_t i, uint64_t h, const char *key, size_t len)
{
    if (sh->n == sh->cape)
        shard_reserve(sh, sh->cape ? sh->cape * 2 : 64);
    size_t k = sh->n++;
    entry *s = &sh->e[k];
    memset(s, 0, sizeof *s);
    s->hash = h;
    entry_set_key(s, key, len);
    sh->ix[i] = tag_of(h) | k;
    if (k + 1 < sh->cape) /* the next new key's entry, into the cache long before it comes */
        __builtin_prefetch(&sh->e[k + 1], 1);
    if (!sh->cap && sh->n * 4 > (sh->mask + 1) * 3)
        shard_index(sh, (sh->mask + 1) * 2);
    return k;
}

/* ---- approximate mode: a min-heap of entries by units ------------------------------------ */

static inline bool colder(const shard *sh, uint32_t a, uint32_t b) { return sh->e[a].units < sh->e[b].units; }

static inline void heap_set(shard *sh, size_t pos, uint32_t k)
{
    sh->heap[pos] = k;
    sh->hpos[k] = (uint32_t)pos;
}

static void heap_down(shard *sh, size_t pos)
{
    uint32_t x = sh->heap[pos];
    for (;;) {
        size_t c = 2 * pos + 1;
        if (c >= sh->nheap)
            break;
        if (c + 1 < sh->nheap && colder(sh, sh->heap[c + 1], sh->heap[c]))
            c++;
        if (!colder(sh, sh->heap[c], x))
            break;
        heap_set(sh, pos, sh->heap[c]);
        pos = c;
    }
    heap_set(sh, pos, x);
}

static void heap_up(shard *sh, size_t pos)
{
    uint32_t x = sh->heap[pos];
    while (pos > 0) {
        size_t p = (pos - 1) / 2;
        if (!colder(sh, x, sh->heap[p]))
            break;
        heap_set(sh, pos, sh->heap[p]);
        pos = p;
    }
    heap_set(sh, pos, x);
}

/* Removes index slot i (backward-shift deletion); its entry stays for the caller to reuse. */
static void index_delete(shard *sh, size_t i)
{
    size_t j = i;
    for (;;) {
        j = (j + 1) & sh->mask;
        if (!sh->ix[j])
            break;
        size_t k = slot_entry(sh, j)->hash & sh->mask;
        bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (stays)
            continue;
        sh->ix[i] = sh->ix[j];
        i = j;
    }
    sh->ix[i] = 0;
}

/* ---- adding ----------------------------------------------------------------------------- */

/* The adds of a request's figures; a read adds 0 to the write units and a write 0 to the read
 * units (units are >= 0: the sums are the same), no branch to mispredict. */
static inline void entry_count(entry *s, const rec *r)
{
    double w = r->write ? r->units : 0, rd = r->write ? 0 : r->units;
    s->requests += r->requests;
    s->units += r->units;
    s->write_units += w;
    s->read_units += rd;
}

/* Adds r; cand is 1 + the entry a look-ahead found for r's tag (0 none): when that entry holds
 * r's key, the index is not searched again. */
static void shard_add_at(shard *sh, const rec *r, uint32_t cand)
{
    double w = r->write ? r->units : 0, rd = r->write ? 0 : r->units;
    sh->requests += r->requests;
    sh->units += r->units;
    sh->write_units += w;
    sh->read_units += rd;
    if (cand) {
        entry *c = &sh->e[cand - 1];
        if (c->hash == r->hash && c->len == r->len && key_eq(entry_key(c), r->key, r->len)) {
            entry_count(c, r);
            if (sh->cap)
                heap_down(sh, sh->hpos[cand - 1]);
            return;
        }
    }
    bool found;
    size_t i = shard_find(sh, r->hash, r->key, r->len, &found);
    if (found) {
        size_t k = (uint32_t)sh->ix[i];
        entry_count(&sh->e[k], r);
        if (sh->cap)
            heap_down(sh, sh->hpos[k]);
        return;
    }
    if (!sh->cap) {
        size_t k = shard_insert(sh, i, r->hash, r->key, r->len);
        entry_count(&sh->e[k], r);
        return;
    }
    if (sh->n < sh->cap) {
        size_t k = shard_insert(sh, i, r->hash, r->key, r->len);
        entry_count(&sh->e[k], r);
        sh->heap[sh->nheap] = (uint32_t)k;
        sh->hpos[k] = (uint32_t)sh->nheap;
        heap_up(sh, sh->nheap++);
        return;
    }
    /* full: the coldest key gives its place, its figures becoming the newcomer's error */
    size_t m = sh->heap[0];
    /* the root leaves the heap: the last entry takes its place for now */
    sh->nheap--;
    if (sh->nheap) {
        heap_set(sh, 0, sh->heap[sh->nheap]);
        heap_down(sh, 0);
    }
    entry *s = &sh->e[m];
    bool gone;
    index_delete(sh, shard_find(sh, s->hash, entry_key(s), s->len, &gone));
    entry_free_key(s);
    s->hash = r->hash;
    entry_set_key(s, r->key, r->len);
    sh->err[m] = s->units;
    entry_count(s, r);
    i = shard_find(sh, r->hash, r->key, r->len, &found);
    sh->ix[i] = tag_of(r->hash) | m;
    sh->heap[sh->nheap] = (uint32_t)m;
    sh->hpos[m] = (uint32_t)sh->nheap;
    heap_up(sh, sh->nheap++);
}

static void shard_add(shard *sh, const rec *r) { shard_add_at(sh, r, 0); }

/* ---- the tally -------------------------------------------------------------------------- */

accesslog *accesslog_new(const accesslog_opts *o)
{
    size_t size = (sizeof(accesslog) + LINE_PAIR - 1) / LINE_PAIR * LINE_PAIR;
    accesslog *h = aligned_alloc(LINE_PAIR, size); /* the shards' and sinks' alignment */
    if (!h)
        util_die("out of memory");
    memset(h, 0, size);
    if (o)
        h->o = *o;
    if (h->o.threads < 1)
        h->o.threads = 1;
    if (h->o.threads > ACCESSLOG_MAX_THREADS)
        h->o.threads = ACCESSLOG_MAX_THREADS;
    if (h->o.approx && h->o.approx < ACCESSLOG_SHARDS)
        h->o.approx = ACCESSLOG_SHARDS;
    for (size_t k = 0; k < ACCESSLOG_SHARDS; k++) {
        shard *sh = &h->sh[k];
        if (h->o.approx) {
            sh->cap = h->o.approx / ACCESSLOG_SHARDS;
            size_t nslots = 16;
            while (nslots < sh->cap * 2)
                nslots *= 2;
            shard_index(sh, nslots);
            shard_reserve(sh, sh->cap);
            sh->err = big_zalloc(sh->cap * sizeof *sh->err);
            sh->hpos = big_zalloc(sh->cap * sizeof *sh->hpos);
            sh->heap = xcalloc(sh->cap, sizeof *sh->heap);
        } else {
            shard_index(sh, 64);
        }
    }
    for (size_t t = 0; t < ACCESSLOG_MAX_THREADS; t++)
        h->sink[t].h = h;
    if (pthread_mutex_init(&h->pool.mu, NULL) != 0 || pthread_cond_init(&h->pool.go, NULL) != 0 ||
        pthread_cond_init(&h->pool.done, NULL) != 0)
        util_die("cannot make a lock");
    return h;
}

static void pool_end(accesslog *h);

void accesslog_free(accesslog *h)
{
    if (!h)
        return;
    pool_end(h);
    for (size_t k = 0; k < ACCESSLOG_SHARDS; k++) {
        shard *sh = &h->sh[k];
        for (size_t i = 0; i < sh->n; i++)
            entry_free_key(&sh->e[i]);
        big_free(sh->ix, (sh->mask + 1) * sizeof *sh->ix);
        big_free(sh->e, sh->cape * sizeof *sh->e);
        big_free(sh->err, sh->cape * sizeof *sh->err);
        big_free(sh->hpos, sh->cape * sizeof *sh->hpos);
        free(sh->heap);
    }
    for (size_t t = 0; t < ACCESSLOG_MAX_THREADS; t++) {
        free(h->sink[t].err);
        for (size_t u = 0; u < ACCESSLOG_MAX_THREADS; u++)
            free(h->sink[t].out[u]);
        arena_free(h->sink[t].keys);
    }
    free(h);
}

/* ---- parsing ---------------------------------------------------------------------------- */

int accesslog_kind(const char *w, size_t n)
{
    static const struct {
        const char *word;
        int write;
    } words[] = {
        {"r", 0},
        {"read", 0},
        {"get", 0},
        {"getitem", 0},
        {"query", 0},
        {"scan", 0},
        {"batchget", 0},
        {"batchgetitem", 0},
        {"transactget", 0},
        {"transactgetitems", 0},
        {"w", 1},
        {"write", 1},
        {"put", 1},
        {"putitem", 1},
        {"update", 1},
        {"updateitem", 1},
        {"delete", 1},
        {"deleteitem", 1},
        {"batchwrite", 1},
        {"batchwriteitem", 1},
        {"transactwrite", 1},
        {"transactwriteitems", 1},
    };
    /* the usual words first, in one comparison (| 0x20 lowers letters) */
    if (n == 4 && (load4(w) | 0x20202020) == load4("read"))
        return 0;
    if (n == 5 && (load4(w) | 0x20202020) == load4("writ") && (w[4] | 0x20) == 'e')
        return 1;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        const char *x = words[i].word;
        if (strlen(x) != n)
            continue;
        size_t j = 0;
        while (j < n && (w[j] >= 'A' && w[j] <= 'Z' ? w[j] + 32 : w[j]) == x[j])
            j++;
        if (j == n)
            return words[i].write;
    }
    return -1;
}

static const double pow10_tab[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* A number s[0..n): digits with an optional fraction read directly (exactly strtod's result:
 * at most 15 digits, divided by an exact power of ten), anything else by strtod. */
static bool parse_number(const char *s, size_t n, double *out)
{
    if (n == 1 && s[0] >= '0' && s[0] <= '9') { /* the usual units: 1, 2, 4 */
        *out = s[0] - '0';
        return true;
    }
    uint64_t m = 0;
    size_t i = 0, digits = 0, frac = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        m = m * 10 + (uint64_t)(s[i++] - '0');
        digits++;
    }
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            m = m * 10 + (uint64_t)(s[i++] - '0');
            digits++;
            frac++;
        }
    }
    if (i == n && digits > 0 && digits <= 15) {
        *out = (double)m / pow10_tab[frac];
        return true;
    }
    char buf[128];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end;
    *out = strtod(buf, &end);
    return end != buf && !*end;
}

static bool units_ok(double u) { return u >= 0 && u <= ACCESSLOG_MAX_UNITS; }

/* Byte-wise tests on eight bytes at a time, exact (no carry crosses a byte). */
#define ONES  0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL
#define LOWS  0x7f7f7f7f7f7f7f7fULL
/* the high bit of each zero byte of x */
static inline uint64_t zero_bytes(uint64_t x) { return ~(((x & LOWS) + LOWS) | x | LOWS); }

/* true when s[0..n) is printable ASCII (0x20..0x7e), eight bytes at a time */
static inline bool printable_ascii(const char *s, size_t n)
{
    for (size_t k = 0;; k += 8) {
        uint64_t w;
        if (k + 8 < n)
            w = load8(s + k);
        else if (n >= 8)
            w = load8(s + n - 8);
        else {
            w = 0x6161616161616161ULL; /* "aaaaaaaa" pads a short key */
            for (size_t i = 0; i < n; i++)
                w = (w & ~(0xffULL << (8 * i))) | (uint64_t)(unsigned char)s[i] << (8 * i);
        }
        /* a high bit, a byte under 0x20 (adding 0x60 leaves its high bit clear), or DEL */
        if ((w & HIGHS) || ((w + ONES * 0x60) & HIGHS) != HIGHS || zero_bytes(w ^ (ONES * 0x7f)))
            return false;
        if (k + 8 >= n)
            return true;
    }
}

/* Empty, too long, not UTF-8 or a control character: the message (caller frees), else NULL. */
static char *key_problem(const char *key, size_t len)
{
    if (!len)
        return xstrdup(_("empty partition key"));
    if (len > ACCESSLOG_MAX_KEY)
        return xasprintf(_("a partition key of %zu bytes; DynamoDB's partition keys hold at most %d bytes"),
                         len, ACCESSLOG_MAX_KEY);
    const unsigned char *p = (const unsigned char *)key;
    if (printable_ascii(key, len))
        return NULL; /* the usual key */
    size_t i;
    size_t bad;
    if (!util_utf8_valid(key, len, &bad))
        return xasprintf(_("invalid UTF-8 in the key at byte %zu"), bad + 1);
    for (i = 0; i < len; i++)
        if (p[i] < 0x20 || p[i] == 0x7f ||
            (p[i] == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 && p[i + 1] <= 0x9f))
            return xasprintf(_("a control character in the key at byte %zu; expected text"), i + 1);
    return NULL;
}

/* The thread that adds the requests of hash h: shard k is thread k % nt's. */
static inline size_t owner(const accesslog_sink *s, uint64_t h) { return shard_of(h) % s->nt; }

/* Hands r to the thread of its shard (nt > 1). */
static inline void hand(accesslog_sink *s, const rec *r)
{
    size_t t = owner(s, r->hash);
    if (s->nout[t] == s->capout[t]) {
        s->capout[t] = s->capout[t] ? s->capout[t] * 2 : 4096;
        s->out[t] = xrealloc(s->out[t], s->capout[t] * sizeof *s->out[t]);
    }
    s->out[t][s->nout[t]++] = *r;
}

/* Adds the requests in flight, oldest first. */
static void ring_flush(accesslog_sink *s)
{
    for (; s->n; s->n--, s->head = (s->head + 1) & (RING - 1)) {
        const rec *r = &s->ring[s->head];
        shard_add_at(&s->h->sh[shard_of(r->hash)], r, s->cand[s->head]);
    }
}

/* Queues one of the sink's own requests (its key must stay readable until it is added: text of
 * the chunk): adds the oldest when the ring is full, fetches the new one's slot and the entry of
 * the one half a ring old. */
static inline void ring_put(accesslog_sink *s, const rec *r)
{
    accesslog *h = s->h;
    if (s->n == RING) {
        const rec *o = &s->ring[s->head];
        shard_add_at(&h->sh[shard_of(o->hash)], o, s->cand[s->head]);
        s->head = (s->head + 1) & (RING - 1);
        s->n--;
    }
    size_t at = (s->head + s->n++) & (RING - 1);
    s->ring[at] = *r;
    s->cand[at] = 0;
    const shard *sh = &h->sh[shard_of(r->hash)];
    __builtin_prefetch(&sh->ix[r->hash & sh->mask]);
    if (s->n > RING / 2) { /* its slots are in the cache by now: the entry with its tag */
        size_t mi = (s->head + s->n - 1 - RING / 2) & (RING - 1);
        const rec *m = &s->ring[mi];
        const shard *ms = &h->sh[shard_of(m->hash)];
        uint64_t tag = tag_of(m->hash), x;
        for (size_t i = m->hash & ms->mask; (x = ms->ix[i]); i = (i + 1) & ms->mask)
            if ((x & 0xffffffff00000000ULL) == tag) {
                __builtin_prefetch(&ms->e[(uint32_t)x]);
                s->cand[mi] = (uint32_t)x + 1;
                break;
            }
    }
}

/* A request read the slow way: added now (the ring is empty then), or handed on with a copy of
 * its key when that is not text of the chunk. */
static void push(accesslog_sink *s, const rec *r)
{
    if (s->nt == 1) {
        shard_add(&s->h->sh[shard_of(r->hash)], r);
        return;
    }
    rec c = *r;
    if (r->key < s->chunk || r->key + r->len > s->chunk_end) {
        if (!s->keys)
            s->keys = arena_new();
        char *k = arena_alloc(s->keys, r->len ? r->len : 1);
        memcpy(k, r->key, r->len);
        c.key = k;
    }
    hand(s, &c);
}

kp_status accesslog_emit(accesslog_sink *s, const char *key, size_t len, double requests, double units,
                         bool write, char **err)
{
    char *why = key_problem(key, len);
    if (why) {
        *err = why;
        return KP_INVALID;
    }
    if (!units_ok(units) || !(requests >= 0) || requests > 1e15)
        return kp_fail(err, KP_INVALID,
                       _("units: expected a number from 0 to %g (the units one request consumed)"),
                       ACCESSLOG_MAX_UNITS);
    rec r = {key_hash(key, len), key, (uint32_t)len, write, requests, units};
    push(s, &r);
    return KP_OK;
}

/* A line's tab-separated fields: f[i], fl[i] for i < nf (nf 5: five or more). false with s->err
 * set when unusable. */
static bool parse_fields(accesslog_sink *s, const char *const *f, const size_t *fl, size_t nf)
{
    accesslog *h = s->h;
    if (nf > 4) {
        s->err = xstrdup(h->o.parts ? _("too many fields; expected PK<TAB>COUNT<TAB>UNITS<TAB>read|write")
                                    : _("too many fields; expected PK<TAB>SK<TAB>UNITS<TAB>read|write"));
        return false;
    }
    rec r = {0, f[0], (uint32_t)fl[0], false, 1, 1};
    if ((s->err = key_problem(f[0], fl[0])))
        return false;
    r.hash = key_hash(r.key, r.len);
    if (h->o.parts) {
        if (nf < 3) {
            s->err = xstrdup(_("expected PK<TAB>COUNT<TAB>UNITS (a part's requests and units per key)"));
            return false;
        }
        if (!parse_number(f[1], fl[1], &r.requests) || !(r.requests >= 0) || r.requests > 1e15) {
            s->err = xasprintf(_("count '%.*s': expected a number of requests"), (int)fl[1], f[1]);
            return false;
        }
    }
    if (nf >= 3 && fl[2]) {
        bool ok = parse_number(f[2], fl[2], &r.units);
        if (!ok || !(h->o.parts ? r.units >= 0 && r.units <= ACCESSLOG_MAX_UNITS * fmax(1, r.requests)
                                : units_ok(r.units))) {
            s->err =
                xasprintf(_("units '%.*s': expected a number from 0 to %g (the units one request consumed)"),
                          (int)fl[2], f[2], ACCESSLOG_MAX_UNITS);
            return false;
        }
    }
    if (nf >= 4 && fl[3]) {
        int k = accesslog_kind(f[3], fl[3]);
        if (k < 0) {
            s->err = xasprintf(
                _("kind '%.*s' is neither read nor write (expected read, write, GetItem, PutItem...)"),
                (int)fl[3], f[3]);
            return false;
        }
        r.write = k == 1;
    }
    push(s, &r);
    return true;
}

/* The tabs and newlines of w (eight bytes), a high bit per byte. */
static inline uint64_t seps(uint64_t w)
{
    return zero_bytes(w ^ (ONES * '\t')) | zero_bytes(w ^ (ONES * '\n'));
}

/* a high bit, a byte under 0x20 (adding 0x60 leaves its high bit clear), or DEL: each byte's
 * high bit set when it is not printable ASCII */
static inline uint64_t not_printable(uint64_t w)
{
    return (w & HIGHS) | (~(w + ONES * 0x60) & HIGHS) | zero_bytes(w ^ (ONES * 0x7f));
}

/* The fast reading below takes the bytes of a word in memory order from its low end. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FAST_LINES 1
#else
#define FAST_LINES 0
#endif

#if defined(__SSE2__) && FAST_LINES
#include <emmintrin.h>
#define SCAN 16 /* bytes compared at once */
static inline __m128i load16(const char *p) { return _mm_loadu_si128((const void *)p); }
/* a bit per byte of p[0..16): a tab, a newline or a NUL / printable ASCII */
static inline unsigned seps_at(const char *p)
{
    __m128i v = load16(p);
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
        _mm_cmpeq_epi8(v, _mm_setzero_si128())));
}
static inline unsigned printable_at(const char *p)
{
    __m128i v = load16(p); /* signed bytes: 0x20..0x7e are above 0x1f and below 0x7f */
    return (unsigned)_mm_movemask_epi8(
        _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(0x1f)), _mm_cmplt_epi8(v, _mm_set1_epi8(0x7f))));
}
#else
#define SCAN 8
static inline unsigned bits_of(uint64_t z) /* the high bit of each byte, one bit per byte */
{
    return (unsigned)(((z >> 7) & ONES) * 0x0102040810204080ULL >> 56);
}
static inline unsigned seps_at(const char *p) { return bits_of(seps(load8(p)) | zero_bytes(load8(p))); }
static inline unsigned printable_at(const char *p) { return bits_of(~not_printable(load8(p)) & HIGHS); }
#endif

/* The key at p when it ends with a tab within SCAN bytes (end - p >= SCAN): 1 with its hash and
 * length, 0 when the line is not the usual one, -1 when the key is longer (the caller reads on).
 * Whether it is printable ASCII is the caller's to check (short_key_printable). */
static inline int short_key(const char *p, uint64_t *h, size_t *n)
{
    unsigned m = seps_at(p);
    if (!m)
        return -1;
    unsigned j = (unsigned)__builtin_ctz(m);
    if (!j || p[j] != '\t')
        return 0;
    uint64_t w0 = load8(p), hh = HASH_SEED, tail;
    if (j >= 8) {
        hh = hash_step(hh, w0);
        tail = j > 8 ? load8(p + 8) & ~0ULL >> (64 - 8 * (j - 8)) : 0;
    } else {
        tail = w0 & ~0ULL >> (64 - 8 * j);
    }
    *h = hash_end(hh, tail, j);
    *n = j;
    return 1;
}

/* true when the n < SCAN bytes at p are printable ASCII */
static inline bool short_key_printable(const char *p, size_t n)
{
    unsigned keep = (1u << n) - 1;
    return (printable_at(p) & keep) == keep;
}

/* The usual line at p, read in one pass with no call: a printable ASCII key hashed and checked
 * as it is scanned; the sort key skipped, the units as digits with an optional fraction (exactly
 * parse_number's result), then `read` or `write` and the newline, or the newline alone. Queues
 * the request (or hands it to its thread) and returns the next line;
 * NULL for any other line (a NUL anywhere in it, or a line ending within 32 bytes of the chunk's
 * end), which the caller reads the slow way from the same p. Bytes are loaded only where as
 * many remain before end. Little-endian machines only. */
static inline const char *fast_line(accesslog_sink *s, const char *p, const char *end)
{
    if (*p == ' ' || *p == '#' || *p == '{' || end - p < SCAN)
        return NULL;
    uint64_t h;
    size_t n;
    int got = short_key(p, &h, &n);
    if (!got)
        return NULL;
    bool checked = got < 0; /* a longer key is checked as it is hashed */
    if (got < 0) {          /* a longer key: eight bytes at a time */
        uint64_t bad = 0, w, z;
        const char *q = p;
        h = HASH_SEED;
        for (;; q += 8) {
            if (end - q < 8)
                return NULL;
            w = load8(q);
            if ((z = seps(w)))
                break;
            bad |= not_printable(w);
            h = hash_step(h, w);
        }
        unsigned j = (unsigned)__builtin_ctzll(z) >> 3;
        if (q[j] != '\t')
            return NULL; /* a key alone on its line */
        uint64_t keep = j ? ~0ULL >> (64 - 8 * j) : 0, tail = w & keep;
        bad |= not_printable(tail | (ONES * 'a' & ~keep));
        n = (size_t)(q - p) + j;
        if (bad || n > ACCESSLOG_MAX_KEY)
            return NULL;
        h = hash_end(h, tail, n);
    }
    const char *r = p + n + 1;
    unsigned m;
    if (!checked && !short_key_printable(p, n))
        return NULL;
    /* the sort key, skipped */
    for (;; r += SCAN) {
        if (end - r < SCAN)
            return NULL;
        if ((m = seps_at(r)))
            break;
    }
    r += __builtin_ctz(m);
    if (*r++ != '\t' || end - r < 32)
        return NULL; /* PK<TAB>SK: the slow way */
    /* the units: at most 15 digits (the loops cannot pass end: 32 bytes remain) */
    const char *u = r;
    uint64_t v = 0;
    while (*r >= '0' && *r <= '9' && r - u < 15)
        v = v * 10 + (uint64_t)(*r++ - '0');
    if (r == u)
        return NULL;
    size_t frac = 0;
    if (*r == '.') {
        const char *f = ++r;
        while (*r >= '0' && *r <= '9' && r - u < 16)
            v = v * 10 + (uint64_t)(*r++ - '0');
        if (r == f)
            return NULL;
        frac = (size_t)(r - f);
    }
    double units = frac ? (double)v / pow10_tab[frac] : (double)v;
    bool write = false;
    const char *next;
    if (*r == '\n') {
        next = r + 1;
    } else if (*r == '\t') {
        uint64_t k = load8(r + 1);
        if ((k & 0xffffffffffULL) == (load8("read\n\0\0\0") & 0xffffffffffULL)) {
            next = r + 6;
        } else if ((k & 0xffffffffffffULL) == (load8("write\n\0\0") & 0xffffffffffffULL)) {
            next = r + 7;
            write = true;
        } else {
            return NULL;
        }
    } else {
        return NULL;
    }
    if (!units_ok(units))
        return NULL;
    rec rr = {h, p, (uint32_t)n, write, 1, units};
    if (s->nt == 1)
        ring_put(s, &rr);
    else
        hand(s, &rr);
    s->lines++;
    return next;
}

/* One line p[0..n) (no newline) the slow way: a CR, leading spaces, a comment, JSON. */
static bool parse_line(accesslog_sink *s, const char *p, size_t n)
{
    if (n && p[n - 1] == '\r')
        n--;
    while (n && *p == ' ') {
        p++;
        n--;
    }
    if (!n || *p == '#')
        return true;
    accesslog *h = s->h;
    if (*p == '{') {
        if (!h->o.json) {
            s->err = xstrdup(_("JSON lines are not read here"));
            return false;
        }
        return h->o.json(s, p, n, h->o.ctx, &s->err) == KP_OK;
    }
    const char *f[5] = {0};
    size_t fl[5] = {0}, nf = 0;
    const char *q = p, *end = p + n;
    while (nf < 5) {
        const char *tab = memchr(q, '\t', (size_t)(end - q));
        f[nf] = q;
        fl[nf++] = (size_t)((tab ? tab : end) - q);
        if (!tab)
            break;
        q = tab + 1;
    }
    return parse_fields(s, f, fl, nf);
}

/* The line p..e (e its newline or the chunk's end) the slow way: false with s->st and s->err
 * set when unusable. */
static bool slow_line(accesslog_sink *s, const char *p, const char *e)
{
    s->lines++;
    const char *nul = memchr(p, '\0', (size_t)(e - p));
    if (nul) {
        s->st = KP_ENCODING;
        s->err = xasprintf(_("column %zu: a NUL character; expected text (is it a binary file?)"),
                           (size_t)(nul - p) + 1);
        return false;
    }
    if (!parse_line(s, p, (size_t)(e - p))) {
        s->st = KP_INVALID;
        if (!s->err)
            s->err = xstrdup(_("unusable line"));
        return false;
    }
    return true;
}

/* Reads the sink's part, adding (alone) or handing on (with other threads) its requests; stops
 * at the first bad line. The usual line in one pass (fast_line), any other (one holding a NUL,
 * every line of a part file) the slow way. */
static void parse_piece(accesslog_sink *s)
{
    const char *text = s->text, *end = s->text + s->len;
    bool fast = FAST_LINES && !s->h->o.parts;
    s->lines = 0;
    for (const char *p = text; p < end;) {
        const char *next = fast ? fast_line(s, p, end) : NULL;
        if (next) {
            p = next;
            continue;
        }
        const char *e = memchr(p, '\n', (size_t)(end - p));
        if (!e)
            e = end;
        ring_flush(s); /* its requests after the ones before it */
        if (!slow_line(s, p, e))
            return;
        p = e + (e < end);
    }
    ring_flush(s);
}

static void *work(void *arg)
{
    parse_piece(arg);
    return NULL;
}

/* Adds what every part handed to the sink's thread, part after part (the log's order). */
static void *add_handed(void *arg)
{
    accesslog_sink *s = arg;
    size_t t = (size_t)(s - s->h->sink);
    for (size_t u = 0; u < s->nt; u++) {
        const accesslog_sink *from = &s->h->sink[u];
        for (size_t i = 0; i < from->nout[t]; i++)
            ring_put(s, &from->out[t][i]);
    }
    ring_flush(s);
    return NULL;
}

/* A thread of the pool (that of sink t >= 1): waits for a round, does its part when it takes
 * part in it, says so, and waits for the next. */
static void *pool_thread(void *arg)
{
    accesslog_sink *s = arg;
    accesslog *h = s->h;
    pool *p = &h->pool;
    size_t t = (size_t)(s - h->sink);
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->round == p->seen[t])
            pthread_cond_wait(&p->go, &p->mu);
        if (p->quit)
            break;
        p->seen[t] = p->round;
        if (t >= p->want)
            continue;
        void *(*fn)(void *) = p->fn;
        pthread_mutex_unlock(&p->mu);
        fn(s);
        pthread_mutex_lock(&p->mu);
        if (--p->left == 0)
            pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Runs fn on every sink of the nt, the caller's thread taking the first, the pool's the others
 * (the mutex hands each round's sinks over and back). */
static void run_all(accesslog *h, size_t nt, void *(*fn)(void *))
{
    pool *p = &h->pool;
    if (nt > 1) {
        pthread_mutex_lock(&p->mu);
        for (; p->started + 1 < nt; p->started++) {
            size_t t = p->started + 1;
            p->seen[t] = p->round;
            if (pthread_create(&p->tid[t], NULL, pool_thread, &h->sink[t]) != 0)
                util_die("cannot start a thread");
        }
        p->fn = fn;
        p->want = nt;
        p->left = nt - 1;
        p->round++;
        pthread_cond_broadcast(&p->go);
        pthread_mutex_unlock(&p->mu);
    }
    fn(&h->sink[0]);
    if (nt > 1) {
        pthread_mutex_lock(&p->mu);
        while (p->left)
            pthread_cond_wait(&p->done, &p->mu);
        pthread_mutex_unlock(&p->mu);
    }
}

/* The pool's threads ended. */
static void pool_end(accesslog *h)
{
    pool *p = &h->pool;
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    pthread_cond_broadcast(&p->go);
    pthread_mutex_unlock(&p->mu);
    for (size_t t = 1; t <= p->started; t++)
        pthread_join(p->tid[t], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->go);
    pthread_cond_destroy(&p->done);
}

/* Tallies text[0..len), whole lines (the last may lack its newline). With several threads, each
 * reads a part of it (whole lines) and hands every request to the thread of its shard; then each
 * adds what it was handed, part after part: each key's requests are added in the log's order
 * whatever the number of threads. The first bad line is the first part's that has one. */
static kp_status tally(accesslog *h, const char *text, size_t len, size_t *lineno, char **err)
{
    size_t nt = len / (h->o.piece ? h->o.piece : MIN_PIECE) + 1;
    if (nt > h->o.threads)
        nt = h->o.threads;
    if (nt < 1)
        nt = 1;
    const char *from = text, *end = text + len;
    for (size_t t = 0; t < nt; t++) {
        accesslog_sink *s = &h->sink[t];
        const char *to = end;
        if (t + 1 < nt) { /* to the line's end after its share */
            to = text + len / nt * (t + 1);
            if (to < from)
                to = from;
            const char *nl = memchr(to, '\n', (size_t)(end - to));
            to = nl ? nl + 1 : end;
        }
        s->text = from;
        s->len = (size_t)(to - from);
        from = to;
        s->chunk = text;
        s->chunk_end = end;
        s->nt = nt;
        s->head = s->n = 0;
        s->st = KP_OK;
        s->lines = 0;
        for (size_t u = 0; u < nt; u++)
            s->nout[u] = 0;
    }
    run_all(h, nt, work);
    size_t before = 0;
    accesslog_sink *bad = NULL;
    for (size_t t = 0; t < nt && !bad; t++) {
        if (h->sink[t].st != KP_OK)
            bad = &h->sink[t];
        else
            before += h->sink[t].lines;
    }
    if (!bad) {
        h->lines += before;
        if (nt > 1)
            run_all(h, nt, add_handed);
        for (size_t t = 0; t < nt; t++) {
            arena_free(h->sink[t].keys);
            h->sink[t].keys = NULL;
        }
        return KP_OK;
    }
    *lineno = h->lines + before + bad->lines;
    *err = bad->err;
    bad->err = NULL;
    for (size_t t = 0; t < nt; t++) {
        free(h->sink[t].err);
        h->sink[t].err = NULL;
        arena_free(h->sink[t].keys);
        h->sink[t].keys = NULL;
    }
    return bad->st;
}

kp_status accesslog_feed(accesslog *h, const char *text, size_t len, bool eof, size_t *used, size_t *lineno,
                         char **err)
{
    *used = 0;
    size_t take = len;
    if (!eof) {
        const char *nl = text + len;
        while (nl > text && nl[-1] != '\n')
            nl--;
        nl = nl > text ? nl - 1 : NULL;
        if (!nl) {
            if (len > ACCESSLOG_MAX_LINE) {
                *lineno = h->lines + 1;
                return kp_fail(err, KP_INVALID,
                               _("a line longer than %zu MiB; expected one request per line"),
                               ACCESSLOG_MAX_LINE >> 20);
            }
            return KP_OK;
        }
        take = (size_t)(nl - text) + 1;
    }
    /* in slices of whole lines: what threads hand each other is in proportion to a slice */
    for (size_t done = 0; done < take;) {
        size_t n = take - done;
        if (n > SLICE) {
            const char *s = text + done, *cut = s + SLICE;
            while (cut > s && cut[-1] != '\n')
                cut--;
            if (cut == s) { /* a line longer than a slice */
                const char *nl = memchr(s + SLICE, '\n', n - SLICE);
                cut = nl ? nl + 1 : s + n;
            }
            n = (size_t)(cut - s);
        }
        kp_status st = tally(h, text + done, n, lineno, err);
        if (st != KP_OK)
            return st;
        done += n;
    }
    *used = take;
    return KP_OK;
}

kp_status accesslog_read(accesslog *h, const char *text, size_t len, size_t *lineno, char **err)
{
    size_t used;
    *lineno = 0;
    return accesslog_feed(h, text, len, true, &used, lineno, err);
}

/* ---- merging ---------------------------------------------------------------------------- */

void accesslog_add(accesslog *h, const accesslog_key *k)
{
    uint64_t hash = key_hash(k->key, k->keylen);
    shard *sh = &h->sh[shard_of(hash)];
    bool found;
    size_t i = shard_find(sh, hash, k->key, k->keylen, &found);
    size_t x;
    if (found) {
        x = (uint32_t)sh->ix[i];
    } else {
        if (sh->cap && sh->n >= sh->cap)
            return; /* merges run in exact mode; a full approximate shard keeps what it has */
        x = shard_insert(sh, i, hash, k->key, k->keylen);
        if (sh->cap) {
            sh->heap[sh->nheap] = (uint32_t)x;
            sh->hpos[x] = (uint32_t)sh->nheap;
            heap_up(sh, sh->nheap++);
        }
    }
    entry *s = &sh->e[x];
    s->requests += k->requests;
    s->units += k->units;
    s->read_units += k->read_units;
    s->write_units += k->write_units;
    if (k->error != 0) {
        shard_need_err(sh);
        sh->err[x] += k->error;
    }
    if (sh->cap)
        heap_down(sh, sh->hpos[x]);
}

void accesslog_add_totals(accesslog *h, double requests, double units, double read_units, double write_units)
{
    shard *sh = &h->sh[0];
    sh->requests += requests;
    sh->units += units;
    sh->read_units += read_units;
    sh->write_units += write_units;
}

void accesslog_raise(accesslog *h, double by)
{
    if (by == 0)
        return;
    h->raised += by;
    for (size_t k = 0; k < ACCESSLOG_SHARDS; k++) {
        shard *sh = &h->sh[k];
        shard_need_err(sh);
        for (size_t i = 0; i < sh->n; i++) {
            sh->e[i].units += by;
            sh->err[i] += by;
        }
    }
}

/* ---- the result ------------------------------------------------------------------------- */

typedef struct cand {
    const entry *s;
    double err;
} cand;

/* true when a ranks before b: more units, then more requests, then the key's bytes. */
static bool hotter(const cand *a, const cand *b)
{
    if (a->s->units != b->s->units)
        return a->s->units > b->s->units;
    if (a->s->requests != b->s->requests)
        return a->s->requests > b->s->requests;
    size_t la = a->s->len, lb = b->s->len;
    int c = memcmp(entry_key(a->s), entry_key(b->s), la < lb ? la : lb);
    return c != 0 ? c < 0 : la < lb;
}

static int cmp_cand(const void *x, const void *y)
{
    const cand *a = x, *b = y;
    return hotter(a, b) ? -1 : hotter(b, a) ? 1 : 0;
}

/* The selection is a heap whose root is the coldest chosen so far. */
static void sel_down(cand *v, size_t n, size_t pos)
{
    cand x = v[pos];
    for (;;) {
        size_t c = 2 * pos + 1;
        if (c >= n)
            break;
        if (c + 1 < n && hotter(&v[c], &v[c + 1]))
            c++;
        if (!hotter(&x, &v[c]))
            break;
        v[pos] = v[c];
        pos = c;
    }
    v[pos] = x;
}

static void sel_up(cand *v, size_t pos)
{
    cand x = v[pos];
    while (pos > 0) {
        size_t p = (pos - 1) / 2;
        if (!hotter(&v[p], &x))
            break;
        v[pos] = v[p];
        pos = p;
    }
    v[pos] = x;
}

bool accesslog_key_hot(const accesslog_key *k, double seconds)
{
    if (isnan(seconds))
        return false;
    return k->read_units / seconds >= CAP_PARTITION_RCU || k->write_units / seconds >= CAP_PARTITION_WCU;
}

void accesslog_result_get(const accesslog *h, size_t top, double seconds, accesslog_result *r)
{
    memset(r, 0, sizeof *r);
    size_t total = 0;
    for (size_t k = 0; k < ACCESSLOG_SHARDS; k++) {
        const shard *sh = &h->sh[k];
        total += sh->n;
        r->requests += sh->requests;
        r->units += sh->units;
        r->read_units += sh->read_units;
        r->write_units += sh->write_units;
        if (sh->cap && sh->n >= sh->cap && sh->nheap)
            r->bound = fmax(r->bound, sh->e[sh->heap[0]].units);
    }
    r->distinct = total;
    r->approx = h->o.approx > 0 || h->raised > 0;
    r->capacity = h->o.approx;
    r->bound += h->raised;
    size_t want = top && top < total ? top : total;
    cand *sel = xmalloc((want ? want : 1) * sizeof *sel);
    size_t n = 0;
    for (size_t k = 0; k < ACCESSLOG_SHARDS; k++) {
        const shard *sh = &h->sh[k];
        for (size_t i = 0; i < sh->n; i++) {
            const entry *s = &sh->e[i];
            if (!r->hot && !isnan(seconds) &&
                (s->read_units / seconds >= CAP_PARTITION_RCU ||
                 s->write_units / seconds >= CAP_PARTITION_WCU))
                r->hot = true;
            cand c = {s, sh->err ? sh->err[i] : 0};
            if (n < want) {
                sel[n] = c;
                sel_up(sel, n++);
            } else if (want && hotter(&c, &sel[0])) {
                sel[0] = c;
                sel_down(sel, n, 0);
            }
        }
    }
    if (n)
        qsort(sel, n, sizeof *sel, cmp_cand);
    r->v = xcalloc(n ? n : 1, sizeof *r->v);
    r->n = n;
    for (size_t i = 0; i < n; i++) {
        const entry *s = sel[i].s;
        accesslog_key *e = &r->v[i];
        e->key = xstrndup(entry_key(s), s->len);
        e->keylen = s->len;
        e->requests = s->requests;
        e->units = s->units;
        e->read_units = s->read_units;
        e->write_units = s->write_units;
        e->error = sel[i].err;
    }
    free(sel);
}

void accesslog_result_free(accesslog_result *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i].key);
    free(r->v);
    memset(r, 0, sizeof *r);
}
