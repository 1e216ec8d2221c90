/* session.c - working copy, undo/redo and commits over the workspace (or in memory). */
#include "session.h"
#include "i18n.h"

#include "validate.h"
#include "design_io.h"
#include "edit.h"
#include "fields.h"
#include "merge.h"
#include "namemap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* An undo (redo) step: the whole design it brings back, or, for a cell of one pattern edited in
 * place (session_edit_set), that pattern's other value alone, or, for a row added, deleted or
 * moved in place (session_pattern_rows), the structural step that takes it back, or, for a change
 * of the design's rest alone (design_same_model: a setting, a decision), the other rest. */
typedef struct snapshot {
    kp_design *d;    /* the design; NULL for a step of one pattern, of the pattern list or of the rest */
    kp_design *rest; /* a step of the design's rest alone (a setting, a decision): the rest it
                        brings back, in a design holding nothing else (design_rest_take) */
    kp_design *keys; /* a key attribute renamed (the table's or index `row`'s, etab), the templates
                        keyed on it following: the keys it brings back (design_keys_copy) */
    kp_pattern pat;  /* d NULL: the value pattern `row` takes back; rows: the pattern op inserts */
    void *elem;      /* the value element `row` of list etab (an entity, an attribute, an index, a
                   decision) takes back, a cell of it edited in place; its record erec */
    const kp_record *erec;
    edit_table etab;
    size_t row;
    /* an entity renamed (elem its old value): the patterns that named it take back their lists of
       entities too (the rename changed nothing else of them) */
    bool renamed;
    struct pents {
        size_t row;
        kp_str *v;
        size_t n;
    } * pents;
    size_t npents;
    /* a pattern's id changed (pat its old value, row its row): the patterns covered_by it take
       back their covered_by (pcov, the others'), the decisions naming it their rest (rest, or NULL
       when none named it) */
    bool pidren;
    struct pcov {
        size_t row;
        char *cb;
    } * pcov;
    size_t npcov;
    bool rows; /* a step of the list etab (EDIT_PATTERNS: the patterns): op applied to it (an
                  insertion puts back pat, or elem, of record erec, for another list) */
    kp_rowop op;
    char *label;
    int base; /* the version the state was based on */
} snapshot;

struct session {
    ws_t *ws;
    char *path;
    kp_design *design;
    kp_design *base_design; /* the design of version `base`, NULL when base == 0 */
    int base;
    snapshot *undo, *redo;
    size_t nundo, capundo, nredo, capredo;
    char *note;
    char *unloaded; /* a working copy that did not load */
    char *readonly; /* why nothing may change (the latest version is damaged), NULL when editable */
    char *author;   /* memory sessions; a workspace's is ws_author() */
    /* a merge with conflicts still to resolve: of version merge_into into the working copy */
    merge_result *merge;
    int merge_into;
    /* the working copy's text as this session last saved it (NULL: not known), and where each
       pattern's lines are in it (npatterns + 1 offsets, the last the end of the list; NULL: not
       found yet): an edit of a few patterns is saved as those lines alone (ws_working_splice) */
    char *text;
    size_t tlen, tcap; /* tcap: the bytes allocated for text (a splice is made in place) */
    size_t *pat;
    size_t unfolded; /* edits saved as lines since the text was last saved whole */
    /* the last undo or redo exchanged pattern `step_row`'s value alone (a cell edited in place),
       or element `step_row`'s of list step_tab (step_elem) */
    bool step_one, step_elem;
    edit_table step_tab;
    size_t step_row;
    /* the last undo or redo exchanged entity `step_row` and the patterns naming it (a rename) */
    bool step_rename;
    /* the last undo or redo exchanged pattern `step_row`'s id and what names it (step_pid) */
    bool step_pid;
    /* the last undo or redo exchanged the design's rest alone (a setting, a decision) */
    bool step_rest;
    /* the last undo or redo exchanged the design's keys (a key attribute of the table or of index
       step_row, step_tab, renamed) */
    bool step_keys;
    /* the last undo or redo made the structural step `step_op` of the pattern list alone
       (step_rows), or of list step_list (step_elems) */
    bool step_rows, step_elems;
    kp_rowop step_op;
    edit_table step_list;
    /* memory sessions keep their versions here */
    kp_design **mem_versions;
    char **mem_messages;
    size_t nmem, capmem, capmsg;
};

static kp_design *empty_design(void)
{
    kp_design *d = design_new();
    d->name = xstrdup("new design");
    d->table.name = xstrdup("Table");
    d->table.pk.s = xstrdup("PK");
    d->table.sk.s = xstrdup("SK");
    return d;
}

static void snapshot_free(snapshot *sn)
{
    if (sn->pidren) {
        pattern_free(&sn->pat);
        design_free(sn->rest);
        for (size_t k = 0; k < sn->npcov; k++)
            free(sn->pcov[k].cb);
        free(sn->pcov);
    } else if (sn->d || sn->rest || sn->keys)
        design_free(sn->d ? sn->d : sn->rest ? sn->rest : sn->keys);
    else if (sn->elem) {
        fields_free(sn->erec, sn->elem);
        free(sn->elem);
        for (size_t k = 0; k < sn->npents; k++)
            strs_free(sn->pents[k].v, sn->pents[k].n);
        free(sn->pents);
    } else if (!sn->rows || (sn->etab == EDIT_PATTERNS && sn->op.kind == KP_ROW_INSERT))
        pattern_free(&sn->pat);
    free(sn->label);
}

static void snapshots_free(snapshot *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        snapshot_free(&v[i]);
    free(v);
}

/* The undo and redo stacks in memory keep at most `steps` steps each (UNDO_STEPS: the workspace's
 * own cap) and, when a workspace keeps the history, at most UNDO_DESIGNS whole designs (one of
 * 10,000 patterns takes over a megabyte): the oldest go. Undoing further than memory keeps reads
 * the steps back from the workspace's history, which stores each as a delta; so a stack is cut
 * for its designs only when the workspace's holds more steps than memory keeps (when its saves
 * fail, memory keeps every step). The workspace's stack is memory's newest steps: it lacks only
 * states it never stored (a new workspace's empty design, a save that failed), and those go with
 * the cut. */
#define UNDO_STEPS   1000
#define UNDO_DESIGNS 32

static void trim(session *s, bool undo, size_t steps)
{
    snapshot *v = undo ? s->undo : s->redo;
    size_t *n = undo ? &s->nundo : &s->nredo, cut = *n > steps ? *n - steps : 0;
    if (s->ws) {
        size_t k = *n, designs = 0;
        while (k > cut && designs + (v[k - 1].d != NULL) <= UNDO_DESIGNS)
            designs += v[--k].d != NULL;
        size_t nundo = 0, nredo = 0;
        if (k > cut && ws_history_depth(s->ws, &nundo, &nredo, NULL) == KP_OK &&
            (undo ? nundo : nredo) > *n - k)
            cut = k;
    }
    if (!cut)
        return;
    for (size_t i = 0; i < cut; i++)
        snapshot_free(&v[i]);
    memmove(v, v + cut, (*n - cut) * sizeof *v);
    *n -= cut;
}

static void text_forget(session *s)
{
    free(s->text);
    free(s->pat);
    s->text = NULL;
    s->pat = NULL;
    s->tlen = s->tcap = 0;
}

/* Finds where each of the design's `n` patterns is in s->text: the list follows a line
 * "patterns:" and each pattern starts a line with "- " (its other lines are indented or empty).
 * false when the text does not show exactly n of them. */
static bool find_patterns(session *s, size_t n)
{
    free(s->pat);
    s->pat = NULL;
    const char *t = s->text, *key = "patterns:\n";
    if (!t || !n)
        return false;
    const char *at = strncmp(t, key, strlen(key)) == 0 ? t : strstr(t, "\npatterns:\n");
    if (!at)
        return false;
    const char *p = at + (at == t ? 0 : 1) + strlen(key), *end = t + s->tlen;
    size_t *pat = xmalloc((n + 1) * sizeof *pat), k = 0;
    while (p < end && p[0] == '-' && p[1] == ' ' && k < n) {
        pat[k++] = (size_t)(p - t);
        do {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl + 1 : end;
        } while (p < end && (*p == ' ' || *p == '\n'));
    }
    if (k != n || (p < end && p[0] == '-' && p[1] == ' ')) {
        free(pat);
        return false;
    }
    pat[n] = (size_t)(p - t);
    s->pat = pat;
    return true;
}

static kp_design *load_yaml(const char *yaml, char **why)
{
    kp_diags dg;
    diags_init(&dg, _("working copy"));
    kp_design *d = designio_load_string(yaml, strlen(yaml), _("working copy"), &dg);
    if (!d && why)
        *why = dg.n ? diags_format(&dg, 0) : xstrdup(_("the working copy does not load"));
    diags_free(&dg);
    return d;
}

session *session_new_memory(kp_design *d)
{
    session *s = xcalloc(1, sizeof *s);
    s->path = xstrdup("(memory)");
    s->author = xstrdup("test");
    s->design = d ? d : empty_design();
    return s;
}

kp_status session_open(const char *path, session **out, bool *created, char **err)
{
    return session_open_as(path, NULL, out, created, err);
}

/* Loads the author's working copy (else the latest version, else a new design) into s. */
static void load_working(session *s)
{
    ws_t *ws = s->ws;
    const char *path = s->path;
    char *yaml = NULL;
    int base = 0;
    int latest = 0;
    ws_latest(ws, &latest, NULL);
    if (ws_working_get(ws, &yaml, &base, NULL) == KP_OK) {
        char *why = NULL;
        s->design = load_yaml(yaml, &why);
        if (!s->design) {
            s->note = xasprintf(_("the saved working copy does not load (%s); opened version %d instead; "
                                  ":recover FILE writes the saved text out to repair it"),
                                why, latest);
            s->unloaded = xstrdup(yaml);
            base = latest;
        }
        free(why);
        s->base = base;
        if (s->design) { /* the text as saved: the first edit can be saved as its lines */
            s->text = yaml;
            s->tlen = strlen(yaml);
            s->tcap = s->tlen + 1;
        } else {
            free(yaml);
        }
    } else {
        s->base = latest;
    }
    if (s->base > 0) {
        char *e2 = NULL;
        if (ws_version_design(ws, s->base, &s->base_design, &e2) != KP_OK) {
            s->base_design = NULL;
            if (!s->design) {
                /* the version to open is damaged or does not load: open the newest one that does,
                   read-only, so that nothing is built (or committed) on a design that is not the one
                   the workspace holds */
                int good = s->base - 1;
                kp_design *gd = NULL;
                while (good > 0 && ws_version_design(ws, good, &gd, NULL) != KP_OK)
                    good--;
                s->readonly = good > 0
                                  ? xasprintf(_("%s; opened version %d read-only (keyplan fsck %s says what "
                                                "is intact)"),
                                              e2, good, path)
                                  : xasprintf(_("%s; no version loads, so nothing can be edited here "
                                                "(keyplan fsck %s)"),
                                              e2, path);
                free(s->note);
                s->note = xstrdup(s->readonly);
                if (gd) {
                    s->base = good;
                    s->base_design = gd;
                }
            }
        }
        free(e2);
    }
    if (!s->design)
        s->design = s->base_design ? design_clone(s->base_design) : empty_design();
}

kp_status session_open_as(const char *path, const char *author, session **out, bool *created, char **err)
{
    *out = NULL;
    if (created)
        *created = access(path, F_OK) != 0;
    ws_t *ws = NULL;
    kp_status st = ws_open(path, WS_CREATE, &ws, err);
    if (st != KP_OK)
        return st;
    if (author && (st = ws_set_author(ws, author, err)) != KP_OK) {
        ws_close(ws);
        return st;
    }
    session *s = xcalloc(1, sizeof *s);
    s->ws = ws;
    s->path = xstrdup(path);
    bool adopted = false;
    ws_working_adopt(ws, &adopted, NULL);
    load_working(s);
    if (adopted && !s->note)
        s->note =
            xasprintf(_("%s now has the working copy this workspace had before each author got their own"),
                      ws_author(ws));
    *out = s;
    return KP_OK;
}

const char *session_readonly(const session *s) { return s->readonly; }

void session_close(session *s)
{
    if (!s)
        return;
    if (s->ws)
        ws_close(s->ws);
    free(s->path);
    design_free(s->design);
    design_free(s->base_design);
    snapshots_free(s->undo, s->nundo);
    snapshots_free(s->redo, s->nredo);
    free(s->note);
    free(s->unloaded);
    free(s->readonly);
    free(s->author);
    text_forget(s);
    merge_free(s->merge);
    for (size_t i = 0; i < s->nmem; i++) {
        design_free(s->mem_versions[i]);
        free(s->mem_messages[i]);
    }
    free(s->mem_versions);
    free(s->mem_messages);
    free(s);
}

const kp_design *session_design(const session *s) { return s->design; }
ws_t *session_ws(session *s) { return s->ws; }
const char *session_path(const session *s) { return s->path; }
const char *session_note(const session *s) { return s->note; }
const char *session_unloaded_text(const session *s) { return s->unloaded; }
int session_base(const session *s) { return s->base; }
size_t session_undo_depth(const session *s) { return s->nundo; }

bool session_dirty(const session *s)
{
    if (!s->base_design)
        return s->base == 0 ? !(s->design->npatterns == 0 && s->design->nentities == 0) : true;
    return !design_equal(s->base_design, s->design);
}

static kp_status persist(session *s, bool undoable, const char *label, char **err)
{
    if (!s->ws)
        return KP_OK;
    char *why = NULL;
    char *yaml = designio_save(s->design, &why);
    if (!yaml) {
        kp_status st = kp_fail(err, KP_INVALID, _("the design cannot be saved (%s)"), why);
        free(why);
        return st;
    }
    text_forget(s);
    kp_status st = ws_working_set(s->ws, yaml, s->base, undoable, label, err);
    if (st == KP_OK) {
        s->text = yaml;
        s->tlen = strlen(yaml);
        s->tcap = s->tlen + 1;
        s->unfolded = 0;
    } else {
        free(yaml);
    }
    return st;
}

/* Saves patterns first..last of the current design as their lines in the saved text (which
 * s->pat locates), old[i - first] being pattern i's value before the step: a pattern equal to it
 * keeps its lines, a changed one gets designio_save_pattern's. Saved whole (persist) when a
 * changed pattern's old lines are not what its old value writes. */
static kp_status persist_lines(session *s, size_t first, size_t last, const kp_pattern *old,
                               const char *label, char **err)
{
    const kp_design *nd = s->design;
    size_t n = nd->npatterns;
    /* the new lines of patterns first..last; each changed one's old lines must be exactly what
       its old value writes, else the text is not what this session thinks: saved whole */
    sbuf mid;
    sbuf_init(&mid);
    size_t *len = xmalloc((last - first + 1) * sizeof *len);
    bool fits = true;
    for (size_t i = first; fits && i <= last; i++) {
        const char *was = s->text + s->pat[i];
        size_t wl = s->pat[i + 1] - s->pat[i];
        if (fields_equal(&kp_rec_pattern, &old[i - first], &nd->patterns[i])) {
            sbuf_addn(&mid, was, wl);
            len[i - first] = wl;
            continue;
        }
        char *oc = designio_save_pattern(&old[i - first], NULL);
        char *nc = oc ? designio_save_pattern(&nd->patterns[i], NULL) : NULL;
        fits = nc && strlen(oc) == wl && memcmp(oc, was, wl) == 0;
        if (fits) {
            len[i - first] = strlen(nc);
            sbuf_addn(&mid, nc, len[i - first]);
        }
        free(oc);
        free(nc);
    }
    if (!fits) {
        free(len);
        sbuf_free(&mid);
        return persist(s, true, label, err);
    }
    size_t prefix = s->pat[first], suffix = s->tlen - s->pat[last + 1], waslen = s->pat[last + 1] - prefix;
    /* what is stored is the bytes that differ (the undo step of a figure: a few bytes) */
    const char *was = s->text + prefix, *now = mid.s ? mid.s : "";
    size_t cp = 0, cs = 0;
    while (cp < mid.len && cp < waslen && now[cp] == was[cp])
        cp++;
    while (cs < mid.len - cp && cs < waslen - cp && now[mid.len - 1 - cs] == was[waslen - 1 - cs])
        cs++;
    kp_status st = ws_working_splice(s->ws, prefix + cp, suffix + cs, was + cp, waslen - cp - cs, now + cp,
                                     mid.len - cp - cs, label, err);
    if (st != KP_OK) {
        free(len);
        sbuf_free(&mid);
        if (st != KP_CONFLICT) {
            text_forget(s); /* not saved: the next save writes the whole text */
            return st;
        }
        if (err) {
            free(*err);
            *err = NULL;
        }
        return persist(s, true, label, err); /* the handle did not know the text: saved whole */
    }
    /* the same edit on the text held here, in place: the bytes after the edit move only when
       its length changed (a figure's new digits usually fit where the old ones were) */
    size_t tlen = prefix + mid.len + suffix;
    if (tlen + 1 > s->tcap) {
        s->tcap = tlen + 1 + tlen / 16 + 64;
        s->text = xrealloc(s->text, s->tcap);
    }
    if (mid.len != waslen) /* the bytes after the change, its common tail and the NUL */
        memmove(s->text + prefix + mid.len - cs, s->text + prefix + waslen - cs, cs + suffix + 1);
    if (mid.len - cp - cs)
        memcpy(s->text + prefix + cp, now + cp, mid.len - cp - cs);
    size_t at = prefix;
    for (size_t i = first; i <= last; i++) {
        s->pat[i] = at;
        at += len[i - first];
    }
    if (mid.len != waslen)
        for (size_t i = last + 1; i <= n; i++)
            s->pat[i] = s->pat[i] - (s->tlen - suffix) + tlen - suffix;
    s->tlen = tlen;
    s->unfolded++;
    free(len);
    sbuf_free(&mid);
    return KP_OK;
}

/* Whether the saved text is known and located (s->pat found) for a design of n patterns. */
static bool text_located(session *s, size_t n) { return s->ws && s->text && (s->pat || find_patterns(s, n)); }

static kp_status persist_around_patterns(session *s, const char *label, char **err);

/* Saves the step from `old` to the current design as the lines of the patterns it changed,
 * when that is all it changed and the saved text is known (else whole, as persist). */
static kp_status persist_edit(session *s, const kp_design *old, const char *label, char **err)
{
    const kp_design *nd = s->design;
    size_t n = nd->npatterns;
    if (!s->ws || !s->text || !old || old->npatterns != n || !text_located(s, n))
        return persist(s, true, label, err);
    kp_design ra = *old, rb = *nd; /* everything but the patterns */
    ra.patterns = rb.patterns = NULL;
    ra.npatterns = rb.npatterns = 0;
    if (!design_equal(&ra, &rb)) { /* the rest of the model changed: the patterns too? */
        for (size_t i = 0; i < n; i++)
            if (!fields_equal(&kp_rec_pattern, &old->patterns[i], &nd->patterns[i]))
                return persist(s, true, label, err);
        return persist_around_patterns(s, label, err);
    }
    size_t first = n, last = 0, nchanged = 0;
    for (size_t i = 0; i < n; i++)
        if (!fields_equal(&kp_rec_pattern, &old->patterns[i], &nd->patterns[i])) {
            if (first == n)
                first = i;
            last = i;
            nchanged++;
        }
    if (!nchanged || nchanged > 16)
        return persist(s, true, label, err);
    return persist_lines(s, first, last, &old->patterns[first], label, err);
}

void session_idle(session *s)
{
    if (!s->ws || !s->unfolded || s->readonly)
        return;
    /* the text held here is what the log makes: stored as it is, the log not read */
    if (ws_working_fold_text(s->ws, s->text, NULL) == KP_OK)
        s->unfolded = 0;
}

/* A new step forgets what was undone. */
static void clear_redo(session *s)
{
    snapshots_free(s->redo, s->nredo);
    s->redo = NULL;
    s->nredo = s->capredo = 0;
}

kp_status session_apply(session *s, kp_design *d, const char *label, char **err)
{
    if (err)
        *err = NULL;
    if (s->readonly) {
        design_free(d);
        return kp_fail(err, KP_READONLY, _("read-only: %s"), s->readonly);
    }
    if (design_equal(s->design, d)) {
        /* nothing changes: no step (the workspace stores none, and the two histories must stay
           one: else an undo here would take back a step there that this one is not) */
        design_free(d);
        return KP_OK;
    }
    VEC_GROW(s->undo, s->nundo, s->capundo);
    kp_status st;
    if (design_same_model(s->design, d)) {
        /* the rest alone changes: the design stays, its rest is exchanged, and the undo step
           holds the old rest (not a copy of the whole design) */
        s->undo[s->nundo++] =
            (snapshot){.rest = design_rest_take(s->design), .label = xstrdup(label), .base = s->base};
        design_rest_swap(s->design, d);
        design_free(d);
        clear_redo(s);
        st = persist_around_patterns(s, label, err);
    } else {
        s->undo[s->nundo++] = (snapshot){.d = s->design, .label = xstrdup(label), .base = s->base};
        s->design = d;
        clear_redo(s);
        st = persist_edit(s, s->undo[s->nundo - 1].d, label, err);
    }
    trim(s, true, UNDO_STEPS);
    return st;
}

static kp_status persist_entity(session *s, size_t row, const kp_entity *old, const char *label, char **err);
static bool find_item(const char *t, size_t tlen, const char *key, size_t row, size_t *from, size_t *to);

/* session_edit_set of a cell that changes element `row` of list t alone (edit_changes_row_only):
 * edited in place, its old value is the undo step, and the working copy is saved as that entity's
 * lines (an entity) or as the text around the patterns' list. */
static kp_status edit_row_in_place(session *s, edit_table t, size_t row, size_t col, const char *text,
                                   const char *label, bool *applied, char **err)
{
    const kp_record *rec;
    void *e = edit_row(s->design, t, row, &rec), *was = fields_dup(rec, e);
    kp_status st = edit_set(s->design, t, row, col, text, err);
    bool same = st == KP_OK && fields_equal(rec, was, e);
    if (st != KP_OK || s->readonly || same) { /* as session_apply: nothing changes, no step */
        if (st == KP_OK) {
            fields_free(rec, e);
            memcpy(e, was, rec->size);
        } else {
            fields_free(rec, was);
        }
        free(was);
        *applied = st == KP_OK;
        return st != KP_OK || same ? st : kp_fail(err, KP_READONLY, _("read-only: %s"), s->readonly);
    }
    *applied = true;
    VEC_GROW(s->undo, s->nundo, s->capundo);
    s->undo[s->nundo++] =
        (snapshot){.elem = was, .erec = rec, .etab = t, .row = row, .label = xstrdup(label), .base = s->base};
    clear_redo(s);
    st = !s->ws                  ? KP_OK
         : rec == &kp_rec_entity ? persist_entity(s, row, was, label, err)
                                 : persist_around_patterns(s, label, err);
    trim(s, true, UNDO_STEPS);
    return st;
}

/* A copy of d's rest alone (design_rest_copy) in a design holding nothing else. */
static kp_design *rest_copy(const kp_design *d)
{
    kp_design *r = design_new();
    design_rest_copy(r, d);
    return r;
}

/* session_edit_set of a cell that changes one part of the design alone, edited in place: the
 * undo step holds a copy of that part before it, and the working copy is saved as the text around
 * the patterns' list. A setting that changes the design's rest alone (edit_changes_rest_only): the
 * rest (a setting may set others); `keys`, a key attribute of the table or of an index
 * (edit_changes_keys_only): the keys (the table's key attributes, the indexes, the entities,
 * whose templates keyed on it follow; the step knows the cell's table and row), not the
 * patterns. */
static kp_status part_in_place(session *s, edit_table t, size_t row, size_t col, const char *text,
                               const char *label, bool *applied, char **err, bool keys)
{
    kp_design *(*copy)(const kp_design *) = keys ? design_keys_copy : rest_copy;
    void (*swap)(kp_design *, kp_design *) = keys ? design_keys_swap : design_rest_swap;
    kp_design *was = copy(s->design), *now = NULL;
    kp_status st = edit_set(s->design, t, row, col, text, err);
    if (st == KP_OK) /* the parts compared */
        now = copy(s->design);
    bool same = now && design_equal(was, now);
    design_free(now);
    *applied = st == KP_OK;
    if (st != KP_OK || s->readonly || same) { /* as session_apply: nothing changes, no step */
        if (st == KP_OK)
            swap(s->design, was);
        design_free(was);
        return st != KP_OK || same ? st : kp_fail(err, KP_READONLY, _("read-only: %s"), s->readonly);
    }
    VEC_GROW(s->undo, s->nundo, s->capundo);
    s->undo[s->nundo++] =
        keys ? (snapshot){.keys = was, .etab = t, .row = row, .label = xstrdup(label), .base = s->base}
             : (snapshot){.rest = was, .label = xstrdup(label), .base = s->base};
    clear_redo(s);
    st = s->ws ? persist_around_patterns(s, label, err) : KP_OK;
    trim(s, true, UNDO_STEPS);
    return st;
}

/* After an edit made in place whose undo step is *sn (taken; st the edit's status, same: it
 * changed nothing): the step pushed (labelled, redo cleared) when the edit took, changed something
 * and the session may change; else what it changed put back by exchange (the step then holds the
 * new values) while read-only, the step released, *st the edit's status (KP_READONLY with *err
 * while read-only). true when the step was pushed: the caller saves. */
static bool keep_step(session *s, snapshot *sn, kp_status *st, bool same,
                      void (*exchange)(kp_design *, snapshot *), const char *label, bool *applied, char **err)
{
    *applied = *st == KP_OK;
    if (*st != KP_OK || s->readonly || same) { /* as session_apply: nothing changes, no step */
        if (*st == KP_OK && !same)
            exchange(s->design, sn);
        snapshot_free(sn);
        if (*st == KP_OK && !same)
            *st = kp_fail(err, KP_READONLY, _("read-only: %s"), s->readonly);
        return false;
    }
    sn->label = xstrdup(label);
    VEC_GROW(s->undo, s->nundo, s->capundo);
    s->undo[s->nundo++] = *sn;
    clear_redo(s);
    return true;
}

/* A step of one element (sn->elem): its value and d's change places, and for a rename the lists
 * of entities of the patterns it holds too. */
static void exchange_element(kp_design *d, snapshot *sn)
{
    const kp_record *rec;
    void *e = edit_row(d, sn->etab, sn->row, &rec), *tmp = xmalloc(rec->size);
    memcpy(tmp, e, rec->size);
    memcpy(e, sn->elem, rec->size);
    memcpy(sn->elem, tmp, rec->size);
    free(tmp);
    for (size_t k = 0; k < sn->npents; k++) {
        struct pents *pe = &sn->pents[k];
        kp_pattern *p = &d->patterns[pe->row];
        kp_str *v = p->entities;
        size_t n = p->nentities;
        p->entities = pe->v;
        p->nentities = pe->n;
        pe->v = v;
        pe->n = n;
    }
}

/* The range of the saved text [from, from + waslen) that becomes now[0..len), trimmed of what
 * they share at either end, appended to r (n of cap). */
static void add_range(ws_range **r, size_t *n, size_t *cap, const char *t, size_t from, size_t waslen,
                      const char *now, size_t len)
{
    const char *was = t + from;
    size_t cp = 0, cs = 0;
    while (cp < len && cp < waslen && now[cp] == was[cp])
        cp++;
    while (cs < len - cp && cs < waslen - cp && now[len - 1 - cs] == was[waslen - 1 - cs])
        cs++;
    if (cp == len && cp == waslen)
        return; /* the same */
    VEC_GROW(*r, *n, *cap);
    (*r)[(*n)++] = (ws_range){from + cp, was + cp, waslen - cp - cs, now + cp, len - cp - cs};
}

/* The entity lines of patterns with one entity list, old and new (a rename changes those lines
 * of a pattern alone), keyed by the old list: most patterns share a few lists. */
typedef struct ent_lines {
    char *key;       /* the old list's form and names */
    char *was, *now; /* designio_save_pattern_entities' of the old value and the new (NULL: none) */
    char *now_in;    /* now as it stands after the item's first field ("  " for "- ") */
} ent_lines;

/* Where lines `l` (as designio_save_pattern_entities writes them, "- " first) stand in pattern
 * lines blk[0..blen): at the item's start, or at a line's start after it with "  " for "- ";
 * (size_t)-1 unless exactly once. */
static size_t lines_at(const char *blk, size_t blen, const char *l)
{
    size_t ll = strlen(l), at = (size_t)-1, found = 0;
    for (size_t p = 0; p + ll <= blen; p++) {
        if (p && blk[p - 1] != '\n')
            continue;
        bool first = p == 0;
        if ((first ? memcmp(blk, "- ", 2) == 0 : memcmp(blk + p, "  ", 2) == 0) &&
            memcmp(blk + p + 2, l + 2, ll - 2) == 0) {
            at = p;
            found++;
        }
        const char *nl = memchr(blk + p, '\n', blen - p);
        if (!nl)
            break;
        p = (size_t)(nl - blk); /* the loop's p++ is the next line's start */
    }
    return found == 1 ? at : (size_t)-1;
}

/* Saves entity rename *sn (its old value, the old entity lists of the patterns naming it) as the
 * ranges it changed: the entity's lines and each of those patterns' entity lines, one step in
 * the workspace (ws_working_splices), not the text whole; whole (persist) when the text is not
 * known or located, or a changed part's old lines are not what its old value writes (a pattern's
 * entity lines are found in its lines, written once for each list of entities). */
static kp_status persist_rename(session *s, const snapshot *sn, const char *label, char **err)
{
    const kp_design *d = s->design;
    size_t n = d->npatterns, from, to, nr = 0, cap = 0;
    if (!text_located(s, n) || !find_item(s->text, s->tlen, "entities", sn->row, &from, &to) ||
        (n && to > s->pat[0]))
        return persist(s, true, label, err);
    char *ent[2] = {designio_save_entity(sn->elem, NULL), NULL};
    ent[1] = ent[0] ? designio_save_entity(&d->entities[sn->row], NULL) : NULL;
    ws_range *r = NULL;
    bool fits = ent[1] && strlen(ent[0]) == to - from && memcmp(ent[0], s->text + from, to - from) == 0;
    if (fits)
        add_range(&r, &nr, &cap, s->text, from, to - from, ent[1], strlen(ent[1]));
    ent_lines *el = NULL;
    size_t nel = 0, capel = 0;
    namemap seen = {0};
    for (size_t k = 0; fits && k < sn->npents; k++) {
        const struct pents *pe = &sn->pents[k];
        const kp_pattern *p = &d->patterns[pe->row];
        fits = k == 0 || pe->row > sn->pents[k - 1].row; /* in the text's order */
        sbuf key;
        sbuf_init(&key);
        sbuf_add(&key, p->multi_form ? "+" : "-");
        for (size_t j = 0; j < pe->n; j++)
            sbuf_printf(&key, "%s\x1f", pe->v[j].s ? pe->v[j].s : "");
        size_t i;
        if (!namemap_get(&seen, key.s, &i)) { /* this list's lines, old and new */
            kp_pattern old = *p;
            old.entities = pe->v;
            old.nentities = pe->n;
            VEC_GROW(el, nel, capel);
            i = nel++;
            el[i] = (ent_lines){sbuf_steal(&key), designio_save_pattern_entities(&old),
                                designio_save_pattern_entities(p), NULL};
            if (el[i].now) {
                el[i].now_in = xstrdup(el[i].now);
                memcpy(el[i].now_in, "  ", 2);
            }
            namemap_put(&seen, el[i].key, i); /* the key outlives the map */
        }
        sbuf_free(&key);
        size_t at = s->pat[pe->row], blen = s->pat[pe->row + 1] - at;
        size_t off = fits && el[i].was && el[i].now ? lines_at(s->text + at, blen, el[i].was) : (size_t)-1;
        fits = off != (size_t)-1;
        if (!fits)
            break;
        /* the new lines where the old ones were ("- " or "  " as they stood) */
        const char *now = off ? el[i].now_in : el[i].now;
        add_range(&r, &nr, &cap, s->text, at + off, strlen(el[i].was), now, strlen(now));
    }
    namemap_free(&seen);
    kp_status st = fits ? ws_working_splices(s->ws, s->tlen, r, nr, label, err) : KP_CONFLICT;
    if (st == KP_OK) {
        /* the same ranges on the text held here; each pattern's lines move by the ranges before */
        sbuf t;
        sbuf_init(&t);
        size_t done = 0, k = 0;
        long long shift = 0;
        for (size_t i = 0; i <= n; i++) {
            for (; k < nr && r[k].at + r[k].waslen <= s->pat[i]; k++)
                shift += (long long)r[k].len - (long long)r[k].waslen;
            s->pat[i] = (size_t)((long long)s->pat[i] + shift);
        }
        for (k = 0; k < nr; k++) {
            sbuf_addn(&t, s->text + done, r[k].at - done);
            sbuf_addn(&t, r[k].text, r[k].len);
            done = r[k].at + r[k].waslen;
        }
        sbuf_addn(&t, s->text + done, s->tlen - done);
        free(s->text);
        s->tlen = t.len;
        s->tcap = t.len + 1;
        s->text = t.s ? sbuf_steal(&t) : xstrdup("");
        s->unfolded++;
    }
    for (size_t i = 0; i < nel; i++) {
        free(el[i].key);
        free(el[i].was);
        free(el[i].now);
        free(el[i].now_in);
    }
    free(el);
    free(ent[0]);
    free(ent[1]);
    free(r);
    if (st == KP_CONFLICT) { /* not known as this session holds it, or not its lines: whole */
        if (err) {
            free(*err);
            *err = NULL;
        }
        return persist(s, true, label, err);
    }
    if (st != KP_OK)
        text_forget(s);
    return st;
}

/* session_edit_set of an entity's name (edit_renames_entity): renamed in place, the patterns
 * naming it following; the undo step holds the entity's old value and those patterns' lists of
 * entities (not a copy of the design), and the working copy is saved whole. */
static kp_status rename_in_place(session *s, edit_table t, size_t row, size_t col, const char *text,
                                 const char *label, bool *applied, char **err)
{
    kp_design *d = s->design;
    kp_entity *e = &d->entities[row];
    snapshot sn = {.erec = &kp_rec_entity, .etab = t, .row = row, .renamed = true, .base = s->base};
    size_t cap = 0;
    for (size_t i = 0; i < d->npatterns; i++)
        if (edit_names_entity(&d->patterns[i], e->name)) {
            VEC_GROW(sn.pents, sn.npents, cap);
            const kp_pattern *p = &d->patterns[i];
            sn.pents[sn.npents++] = (struct pents){i, strs_clone(p->entities, p->nentities), p->nentities};
        }
    sn.elem = fields_dup(&kp_rec_entity, e);
    kp_status st = edit_set(d, t, row, col, text, err);
    bool same = st == KP_OK && fields_equal(&kp_rec_entity, sn.elem, e); /* its name: its patterns too */
    if (!keep_step(s, &sn, &st, same, exchange_element, label, applied, err))
        return st;
    st = s->ws ? persist_rename(s, &s->undo[s->nundo - 1], label, err) : KP_OK;
    trim(s, true, UNDO_STEPS);
    return st;
}

/* A step of a pattern's id (sn->pidren): the pattern's value, the covered_by naming it and the
 * rest (when the decisions named it) and d's change places. */
static void exchange_pattern_id(kp_design *d, snapshot *sn)
{
    kp_pattern tmp = d->patterns[sn->row];
    d->patterns[sn->row] = sn->pat;
    sn->pat = tmp;
    for (size_t k = 0; k < sn->npcov; k++) {
        kp_str *cb = &d->patterns[sn->pcov[k].row].covered_by;
        char *was = cb->s;
        cb->s = sn->pcov[k].cb;
        sn->pcov[k].cb = was;
    }
    if (sn->rest)
        design_rest_swap(d, sn->rest);
}

/* session_edit_set of a pattern's id (edit_renames_pattern): changed in place, the covered_by
 * and the decisions naming it following; the undo step holds the pattern's old value, the old
 * covered_by of the patterns covered by it and, when a decision named it, the rest before (not a
 * copy of the design). Saved as that pattern's lines when nothing else changed, else whole. */
static kp_status pattern_id_in_place(session *s, edit_table t, size_t row, size_t col, const char *text,
                                     const char *label, bool *applied, char **err)
{
    kp_design *d = s->design;
    const char *id = d->patterns[row].id;
    snapshot sn = {.pidren = true, .row = row, .base = s->base};
    size_t cap = 0;
    for (size_t i = 0; id && i < d->npatterns; i++) {
        const char *cb = d->patterns[i].covered_by.s;
        if (i != row && cb && strcmp(cb, id) == 0) { /* its own covered_by goes with its value */
            VEC_GROW(sn.pcov, sn.npcov, cap);
            sn.pcov[sn.npcov++] = (struct pcov){i, xstrdup(cb)};
        }
    }
    bool named = false;
    for (size_t i = 0; id && !named && i < d->ndecisions; i++)
        for (size_t j = 0; !named && j < d->decisions[i].npatterns; j++)
            named = d->decisions[i].patterns[j].s && strcmp(d->decisions[i].patterns[j].s, id) == 0;
    if (named) {
        sn.rest = design_new();
        design_rest_copy(sn.rest, d);
    }
    sn.pat = d->patterns[row];
    fields_clone(&kp_rec_pattern, &sn.pat, &d->patterns[row]);
    kp_status st = edit_set(d, t, row, col, text, err);
    /* the same id: nothing named it anew either */
    bool same = st == KP_OK && fields_equal(&kp_rec_pattern, &sn.pat, &d->patterns[row]);
    if (!keep_step(s, &sn, &st, same, exchange_pattern_id, label, applied, err))
        return st;
    const snapshot *u = &s->undo[s->nundo - 1];
    if (!s->ws)
        st = KP_OK;
    else if (u->npcov || u->rest || !s->text || !text_located(s, d->npatterns))
        st = persist(s, true, label, err);
    else
        st = persist_lines(s, row, row, &u->pat, label, err);
    trim(s, true, UNDO_STEPS);
    return st;
}

kp_status session_edit_set(session *s, edit_table t, size_t row, size_t col, const char *text,
                           const char *label, bool *applied, char **err)
{
    *applied = false;
    if (err)
        *err = NULL;
    kp_design *d = s->design;
    if (edit_changes_row_only(d, t, col) && row < edit_nrows(d, t))
        return edit_row_in_place(s, t, row, col, text, label, applied, err);
    if (edit_changes_rest_only(t, row, col))
        return part_in_place(s, t, row, col, text, label, applied, err, false);
    if (edit_changes_keys_only(t, row, col) && (t == EDIT_SETTINGS || row < d->nindexes))
        return part_in_place(s, t, row, col, text, label, applied, err, true);
    if (edit_renames_entity(t, col) && row < d->nentities)
        return rename_in_place(s, t, row, col, text, label, applied, err);
    if (edit_renames_pattern(t, col) && row < d->npatterns)
        return pattern_id_in_place(s, t, row, col, text, label, applied, err);
    if (!edit_changes_pattern_only(t, col) || row >= d->npatterns) {
        /* a cell whose edit may reach further (a rename and its references, a setting): on a copy */
        kp_design *nd = design_clone(d);
        kp_status st = edit_set(nd, t, row, col, text, err);
        if (st != KP_OK) {
            design_free(nd);
            return st;
        }
        *applied = true;
        return session_apply(s, nd, label, err);
    }
    /* one pattern changes and nothing else: edited in place, its old value is the undo step */
    kp_pattern was = d->patterns[row];
    fields_clone(&kp_rec_pattern, &was, &d->patterns[row]);
    kp_status st = edit_set(d, t, row, col, text, err);
    if (st != KP_OK) {
        pattern_free(&was);
        return st;
    }
    *applied = true;
    bool same = fields_equal(&kp_rec_pattern, &was, &d->patterns[row]);
    if (s->readonly || same) { /* as session_apply: nothing changes, no step */
        pattern_free(&d->patterns[row]);
        d->patterns[row] = was;
        return same ? KP_OK : kp_fail(err, KP_READONLY, _("read-only: %s"), s->readonly);
    }
    VEC_GROW(s->undo, s->nundo, s->capundo);
    s->undo[s->nundo++] = (snapshot){.pat = was, .row = row, .label = xstrdup(label), .base = s->base};
    clear_redo(s);
    if (!s->ws) {
        trim(s, true, UNDO_STEPS);
        return KP_OK;
    }
    if (!s->text || !text_located(s, d->npatterns))
        st = persist(s, true, label, err);
    else
        st = persist_lines(s, row, row, &s->undo[s->nundo - 1].pat, label, err);
    trim(s, true, UNDO_STEPS);
    return st;
}

/* The saved text's bytes [at, at + waslen) replaced by now[0..len) in the workspace and in
 * s->text (the pattern offsets are the caller's to update). KP_CONFLICT when the handle did not
 * know the text (nothing changed: the caller saves whole); another failure forgets the text. */
static kp_status splice_text(session *s, size_t at, size_t waslen, const char *now, size_t len,
                             const char *label, char **err)
{
    size_t suffix = s->tlen - at - waslen;
    kp_status st = ws_working_splice(s->ws, at, suffix, s->text + at, waslen, now, len, label, err);
    if (st != KP_OK) {
        if (st == KP_CONFLICT && err) {
            free(*err);
            *err = NULL;
        }
        if (st != KP_CONFLICT)
            text_forget(s);
        return st;
    }
    size_t tlen = s->tlen - waslen + len;
    if (tlen + 1 > s->tcap) {
        s->tcap = tlen + 1 + tlen / 16 + 64;
        s->text = xrealloc(s->text, s->tcap);
    }
    memmove(s->text + at + len, s->text + at + waslen, suffix + 1);
    if (len)
        memcpy(s->text + at, now, len);
    s->tlen = tlen;
    s->unfolded++;
    return KP_OK;
}

/* The saved text's bytes [from, from + waslen) made now[0..len): what is stored is the bytes that
 * differ (a figure's: a few). `moves`: the patterns' lines come after them, their offsets follow.
 * Whole (persist) when the handle did not know the text. */
static kp_status splice_diff(session *s, size_t from, size_t waslen, const char *now, size_t len, bool moves,
                             const char *label, char **err)
{
    const char *was = s->text + from;
    size_t cp = 0, cs = 0;
    while (cp < len && cp < waslen && now[cp] == was[cp])
        cp++;
    while (cs < len - cp && cs < waslen - cp && now[len - 1 - cs] == was[waslen - 1 - cs])
        cs++;
    kp_status st = splice_text(s, from + cp, waslen - cp - cs, now + cp, len - cp - cs, label, err);
    if (st == KP_CONFLICT)
        return persist(s, true, label, err); /* the handle did not know the text: saved whole */
    if (st == KP_OK && moves && s->pat && len != waslen)
        for (size_t i = 0; i <= s->design->npatterns; i++)
            if (s->pat[i] >= from + waslen)
                s->pat[i] = s->pat[i] + len - waslen;
    return st;
}

/* Where element `row` of the top-level list `key` is in text t (tlen bytes) as designio_save
 * writes it: [*from, *to), its "- " line and the indented lines after it. false when the text has
 * no such list or element. */
static bool find_item(const char *t, size_t tlen, const char *key, size_t row, size_t *from, size_t *to)
{
    size_t k = strlen(key);
    const char *at = t, *end = t + tlen;
    while (at && !(strncmp(at, key, k) == 0 && strncmp(at + k, ":\n", 2) == 0)) {
        at = memchr(at, '\n', (size_t)(end - at));
        at = at ? at + 1 : NULL;
    }
    if (!at)
        return false;
    const char *p = at + k + 2;
    for (size_t i = 0; p < end && p[0] == '-' && p[1] == ' '; i++) {
        const char *start = p;
        do {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            p = nl ? nl + 1 : end;
        } while (p < end && (*p == ' ' || *p == '\n'));
        if (i == row) {
            *from = (size_t)(start - t);
            *to = (size_t)(p - t);
            return true;
        }
    }
    return false;
}

/* Saves entity `row`'s change from `old` to s->design's as its lines in the saved text (the
 * bytes that differ), the patterns' offsets following; whole (persist) when the text is not
 * known or its lines are not what the old value writes. */
static kp_status persist_entity(session *s, size_t row, const kp_entity *old, const char *label, char **err)
{
    size_t from, to;
    if (!s->text || !find_item(s->text, s->tlen, "entities", row, &from, &to))
        return persist(s, true, label, err);
    char *oc = designio_save_entity(old, NULL);
    char *nc = oc ? designio_save_entity(&s->design->entities[row], NULL) : NULL;
    size_t waslen = to - from, len = nc ? strlen(nc) : 0;
    if (!nc || strlen(oc) != waslen || memcmp(oc, s->text + from, waslen) != 0) {
        free(oc);
        free(nc);
        return persist(s, true, label, err);
    }
    kp_status st = splice_diff(s, from, waslen, nc, len, true, label, err);
    free(oc);
    free(nc);
    return st;
}

/* Saves a change that left every pattern as it was (and their number): what designio_save writes
 * before the patterns' list and after it is written again and spliced in where it changed, the
 * patterns' offsets following. Whole (persist) when the text is not known or located, or both
 * parts changed (or neither: the step is then stored whole, as any other). */
static kp_status persist_around_patterns(session *s, const char *label, char **err)
{
    static const char key[] = "patterns:\n";
    size_t n = s->design->npatterns, kl = sizeof key - 1;
    if (!text_located(s, n) || s->pat[0] < kl || memcmp(s->text + s->pat[0] - kl, key, kl) != 0)
        return persist(s, true, label, err);
    char *head = NULL, *tail = NULL;
    if (!designio_save_around_patterns(s->design, &head, &tail, NULL))
        return persist(s, true, label, err); /* which says why */
    size_t hl = s->pat[0] - kl, at = s->pat[n], tl = s->tlen - at, hn = strlen(head), tn = strlen(tail);
    bool head_same = hn == hl && memcmp(head, s->text, hl) == 0;
    bool tail_same = tn == tl && memcmp(tail, s->text + at, tn) == 0;
    if (head_same == tail_same) {
        free(head);
        free(tail);
        return persist(s, true, label, err);
    }
    /* the part that changed: before the patterns (their lines move with it) or after them */
    kp_status st = head_same ? splice_diff(s, at, tl, tail, tn, false, label, err)
                             : splice_diff(s, 0, hl, head, hn, true, label, err);
    free(head);
    free(tail);
    return st;
}

/* Saves structural step op of the pattern list, just made on s->design (nbefore patterns
 * before; `located`: s->pat located them then), as the lines it moves: a removed pattern's
 * lines cut, an inserted one's written (designio_save_pattern), a moved one's put at their new
 * place. Saved whole (persist) when the text is not known or the list is or was empty (the
 * list's key is written another way then). */
static kp_status persist_rows(session *s, kp_rowop op, size_t nbefore, bool located, const char *label,
                              char **err)
{
    size_t n = s->design->npatterns;
    if (!s->ws)
        return KP_OK;
    if (!located || !n || !nbefore)
        return persist(s, true, label, err);
    size_t *pat = s->pat, r = op.row;
    kp_status st;
    if (op.kind == KP_ROW_REMOVE) {
        size_t wl = pat[r + 1] - pat[r];
        st = splice_text(s, pat[r], wl, "", 0, label, err);
        if (st == KP_OK) {
            for (size_t i = r; i < n; i++)
                pat[i] = pat[i + 1] - wl;
            pat[n] = pat[n + 1] - wl;
        }
    } else if (op.kind == KP_ROW_INSERT) {
        char *lines = designio_save_pattern(&s->design->patterns[r], NULL);
        if (!lines)
            return persist(s, true, label, err);
        size_t len = strlen(lines);
        st = splice_text(s, pat[r], 0, lines, len, label, err);
        free(lines);
        if (st == KP_OK) {
            s->pat = pat = xrealloc(pat, (n + 1) * sizeof *pat);
            for (size_t i = n; i > r; i--)
                pat[i] = pat[i - 1] + len;
        }
    } else {
        size_t lo = r < op.to ? r : op.to, hi = r < op.to ? op.to : r, k = hi - lo + 1;
        size_t *order = xmalloc(k * sizeof *order); /* the old position of each new one */
        for (size_t i = 0; i < k; i++)
            order[i] = lo + i;
        kp_rowop_shift(order, k, sizeof *order, (kp_rowop){KP_ROW_MOVE, r - lo, op.to - lo});
        sbuf b;
        sbuf_init(&b);
        for (size_t i = 0; i < k; i++)
            sbuf_addn(&b, s->text + pat[order[i]], pat[order[i] + 1] - pat[order[i]]);
        size_t *len = xmalloc(k * sizeof *len);
        for (size_t i = 0; i < k; i++)
            len[i] = pat[order[i] + 1] - pat[order[i]];
        st = splice_text(s, pat[lo], pat[hi + 1] - pat[lo], b.s ? b.s : "", b.len, label, err);
        if (st == KP_OK)
            for (size_t i = 1; i < k; i++)
                pat[lo + i] = pat[lo + i - 1] + len[i - 1];
        free(len);
        free(order);
        sbuf_free(&b);
    }
    return st == KP_CONFLICT ? persist(s, true, label, err) : st;
}

kp_status session_pattern_rows(session *s, session_rowcmd cmd, size_t row, const char *label, kp_rowop *op,
                               char **err)
{
    return session_rows(s, EDIT_PATTERNS, cmd, row, label, op, err);
}

kp_status session_rows(session *s, edit_table t, session_rowcmd cmd, size_t row, const char *label,
                       kp_rowop *op, char **err)
{
    if (err)
        *err = NULL;
    kp_design *d = s->design;
    const kp_record *rec = edit_record(t);
    size_t n = edit_nrows(d, t), at = (size_t)-1;
    /* a command that does not apply says so first, read-only or not */
    if (!rec || (cmd != SESSION_ROW_ADD && (row >= n || (cmd == SESSION_ROW_UP && row == 0) ||
                                            (cmd == SESSION_ROW_DOWN && row + 1 >= n))))
        return KP_NOTFOUND;
    if (s->readonly)
        return kp_fail(err, KP_READONLY, _("read-only: %s"), s->readonly);
    bool pats = t == EDIT_PATTERNS;
    bool located = pats && text_located(s, n); /* where the patterns' lines are, before they move */
    snapshot back = {.base = s->base, .rows = true, .etab = t, .erec = pats ? NULL : rec};
    switch (cmd) {
    case SESSION_ROW_ADD:
    case SESSION_ROW_DUPLICATE:
        at = cmd == SESSION_ROW_ADD ? edit_add(d, t, row) : edit_duplicate(d, t, row);
        *op = (kp_rowop){KP_ROW_INSERT, at, 0};
        break;
    case SESSION_ROW_DELETE: /* the element taken out is the undo step's */
        *op = (kp_rowop){KP_ROW_REMOVE, row, 0};
        if (!pats)
            back.elem = xmalloc(rec->size);
        edit_rows_step(d, t, *op, NULL, pats ? (void *)&back.pat : back.elem);
        at = row;
        break;
    case SESSION_ROW_UP:
    case SESSION_ROW_DOWN: {
        int by = cmd == SESSION_ROW_UP ? -1 : +1;
        size_t to = (size_t)((ptrdiff_t)row + by);
        *op = (kp_rowop){KP_ROW_MOVE, row, to};
        const kp_record *r;
        if (fields_equal(rec, edit_row(d, t, row, &r), edit_row(d, t, to, &r)))
            return KP_OK; /* past an element equal to it: nothing changes, no step (as session_apply) */
        if (edit_move(d, t, row, by))
            at = to;
        break;
    }
    }
    if (at == (size_t)-1)
        return KP_NOTFOUND;
    back.op = kp_rowop_inverse(*op); /* the undo step */
    back.label = xstrdup(label);
    VEC_GROW(s->undo, s->nundo, s->capundo);
    s->undo[s->nundo++] = back;
    clear_redo(s);
    /* the patterns' lines it moves, else the text around the patterns' list */
    kp_status st = pats    ? persist_rows(s, *op, n, located, label, err)
                   : s->ws ? persist_around_patterns(s, label, err)
                           : KP_OK;
    trim(s, true, UNDO_STEPS);
    return st;
}

/* Applies a structural snapshot's step to s->design; returns the snapshot of its inverse. */
static snapshot rows_step(session *s, snapshot sn)
{
    snapshot inv = {.label = sn.label,
                    .base = s->base,
                    .rows = true,
                    .etab = sn.etab,
                    .erec = sn.erec,
                    .op = kp_rowop_inverse(sn.op)};
    bool pats = sn.etab == EDIT_PATTERNS;
    if (!pats && sn.op.kind == KP_ROW_REMOVE)
        inv.elem = xmalloc(sn.erec->size);
    edit_rows_step(s->design, sn.etab, sn.op, pats ? (void *)&sn.pat : sn.elem,
                   pats ? (void *)&inv.pat : inv.elem);
    free(sn.elem); /* an insertion's element is the list's now (NULL for a pattern's) */
    return inv;
}

static void set_base(session *s, int number, kp_design *base_design)
{
    design_free(s->base_design);
    s->base_design = base_design;
    s->base = number;
}

/* Makes `number` the base (its design loaded; NULL when it does not load). */
static void rebase(session *s, int number)
{
    if (number == s->base)
        return;
    kp_design *bd = NULL;
    if (number > 0 && session_version_design(s, number, &bd, NULL) != KP_OK)
        bd = NULL;
    set_base(s, number, bd);
}

/* session_apply with a new base: `d` (taken) based on version `number` whose design is `bd`
 * (taken); undo brings back the design and the base before. */
static kp_status apply_based(session *s, kp_design *d, int number, kp_design *bd, const char *label,
                             char **err)
{
    if (s->readonly) {
        design_free(d);
        design_free(bd);
        return kp_fail(err, KP_READONLY, _("read-only: %s"), s->readonly);
    }
    VEC_GROW(s->undo, s->nundo, s->capundo);
    s->undo[s->nundo++] = (snapshot){.d = s->design, .label = xstrdup(label), .base = s->base};
    s->design = d;
    set_base(s, number, bd);
    clear_redo(s);
    kp_status st = persist(s, true, label, err);
    trim(s, true, UNDO_STEPS);
    return st;
}

static kp_status step(session *s, bool undo, char **err)
{
    if (s->readonly)
        return kp_fail(err, KP_READONLY, _("read-only: %s"), s->readonly);
    if (s->merge)
        return kp_fail(err, KP_CONFLICT, _("a merge is open: finish it or drop it first"));
    snapshot **from = undo ? &s->undo : &s->redo;
    size_t *nfrom = undo ? &s->nundo : &s->nredo;
    snapshot **to = undo ? &s->redo : &s->undo;
    size_t *nto = undo ? &s->nredo : &s->nundo;
    size_t *capto = undo ? &s->capredo : &s->capundo;
    s->step_one = false;
    s->step_elem = false;
    s->step_rename = false;
    s->step_pid = false;
    s->step_rest = false;
    s->step_keys = false;
    s->step_rows = false;
    s->step_elems = false;
    /* the history's step rewrites the working copy: the text held here (what the handle knows)
       spares reading it, and the text comes back with the step */
    char *held = s->text;
    s->text = NULL;
    text_forget(s);
    if (*nfrom == 0) {
        /* nothing in memory: the persisted history of an earlier session */
        free(held);
        char *yaml = NULL;
        int base = s->base;
        if (!s->ws)
            return kp_fail(err, KP_NOTFOUND, "%s", undo ? _("nothing to undo") : _("nothing to redo"));
        kp_status st = undo ? ws_undo(s->ws, &yaml, &base, err) : ws_redo(s->ws, &yaml, &base, err);
        if (st != KP_OK)
            return st;
        char *why = NULL;
        kp_design *d = load_yaml(yaml, &why);
        free(yaml);
        if (!d) {
            /* TRANSLATORS: %1$s why the state does not load; %2$s the command undo or redo (not translated) */
            st = kp_fail(err, KP_INVALID,
                         _("that state does not load (%1$s); %2$s brings the current one back"), why,
                         undo ? "redo" : "undo");
            free(why);
            return st;
        }
        VEC_GROW(*to, *nto, *capto);
        (*to)[(*nto)++] = (snapshot){.d = s->design, .base = s->base};
        s->design = d;
        rebase(s, base);
        trim(s, !undo, UNDO_STEPS);
        return KP_OK;
    }
    snapshot sn = (*from)[--(*nfrom)];
    VEC_GROW(*to, *nto, *capto);
    if (sn.pidren) { /* a pattern's id: its values and what names it change places */
        exchange_pattern_id(s->design, &sn);
        (*to)[(*nto)++] = sn;
        (*to)[*nto - 1].base = s->base;
        s->step_pid = true;
        s->step_row = sn.row;
    } else if (sn.d) {
        (*to)[(*nto)++] = (snapshot){.d = s->design, .label = sn.label, .base = s->base};
        s->design = sn.d;
    } else if (sn.keys) { /* a key attribute renamed: the two designs' keys change places */
        design_keys_swap(s->design, sn.keys);
        (*to)[(*nto)++] = sn;
        (*to)[*nto - 1].base = s->base;
        s->step_keys = true;
        s->step_tab = sn.etab;
        s->step_row = sn.row;
    } else if (sn.rest) { /* a step of the rest alone: the two rests change places */
        design_rest_swap(s->design, sn.rest);
        (*to)[(*nto)++] = (snapshot){.rest = sn.rest, .label = sn.label, .base = s->base};
        s->step_rest = true;
    } else if (sn.rows) { /* a step of a list: made, its inverse kept */
        (*to)[(*nto)++] = rows_step(s, sn);
        s->step_rows = sn.etab == EDIT_PATTERNS;
        s->step_elems = !s->step_rows;
        s->step_list = sn.etab;
        s->step_op = sn.op;
    } else if (sn.elem) { /* a step of one element: its two values change places */
        exchange_element(s->design, &sn);
        (*to)[(*nto)++] = sn;
        (*to)[*nto - 1].base = s->base;
        s->step_elem = !sn.renamed;
        s->step_rename = sn.renamed;
        s->step_tab = sn.etab;
        s->step_row = sn.row;
    } else { /* a step of one pattern: its two values change places */
        kp_pattern *p = &s->design->patterns[sn.row];
        (*to)[(*nto)++] = (snapshot){.pat = *p, .row = sn.row, .label = sn.label, .base = s->base};
        *p = sn.pat;
        s->step_one = true;
        s->step_row = sn.row;
    }
    rebase(s, sn.base);
    if (s->ws) {
        char *yaml = NULL;
        kp_status st = ws_step_text(s->ws, undo, held, &yaml, NULL, NULL);
        if (st != KP_OK) {
            persist(s, false, NULL, NULL);
        } else if (yaml) { /* the text the step left, as its log makes it: the next save splices on it */
            s->text = yaml;
            s->tlen = strlen(yaml);
            s->tcap = s->tlen + 1;
            s->unfolded++;
        }
    }
    free(held);
    trim(s, !undo, UNDO_STEPS);
    return KP_OK;
}

kp_status session_compact(session *s, size_t keep, long long *freed, char **err)
{
    if (freed)
        *freed = 0;
    if (!s->ws)
        return kp_fail(err, KP_NOTFOUND, _("no workspace to compact"));
    kp_status st = ws_compact(s->ws, keep, freed, err);
    if (st == KP_OK)
        trim(s, true, keep);
    return st;
}

const char *session_undo_label(const session *s) { return s->nundo ? s->undo[s->nundo - 1].label : NULL; }
const char *session_redo_label(const session *s) { return s->nredo ? s->redo[s->nredo - 1].label : NULL; }

kp_status session_undo(session *s, char **err) { return step(s, true, err); }

bool session_last_step_row(const session *s, size_t *row)
{
    if (s->step_one)
        *row = s->step_row;
    return s->step_one;
}
kp_status session_redo(session *s, char **err) { return step(s, false, err); }

bool session_last_step_element(const session *s, edit_table *t, size_t *row)
{
    if (s->step_elem) {
        *t = s->step_tab;
        *row = s->step_row;
    }
    return s->step_elem;
}

bool session_last_step_rename(const session *s, size_t *row)
{
    if (s->step_rename)
        *row = s->step_row;
    return s->step_rename;
}

bool session_last_step_pattern_id(const session *s, size_t *row)
{
    if (s->step_pid)
        *row = s->step_row;
    return s->step_pid;
}

bool session_last_step_rest(const session *s)
{
    return s->step_rest || (s->step_elem && s->step_tab == EDIT_DECISIONS); /* a decision's cell */
}

bool session_last_step_keys(const session *s, edit_table *t, size_t *row)
{
    if (s->step_keys) {
        *t = s->step_tab;
        *row = s->step_row;
    }
    return s->step_keys;
}

bool session_last_step_list(const session *s, edit_table *t, kp_rowop *op)
{
    if (s->step_elems) {
        *t = s->step_list;
        *op = s->step_op;
    }
    return s->step_elems;
}

bool session_last_step_rows(const session *s, kp_rowop *op)
{
    if (s->step_rows)
        *op = s->step_op;
    return s->step_rows;
}

kp_status session_commit(session *s, const char *message, int *number, char **err)
{
    if (s->readonly)
        return kp_fail(err, KP_READONLY, _("not committed: %s"), s->readonly);
    if (s->merge)
        return kp_fail(err, KP_CONFLICT,
                       ngettext("not committed: the merge of version %d has %zu conflict to resolve first",
                                "not committed: the merge of version %d has %zu conflicts to resolve first",
                                merge_unresolved(s->merge)),
                       s->merge_into, merge_unresolved(s->merge));
    if (!message || !*message) {
        *err = xstrdup(_("a commit needs a message"));
        return KP_INVALID;
    }
    kp_diags dg;
    diags_init(&dg, "design");
    bool valid = validate_design(s->design, &dg);
    if (!valid) {
        char *first = dg.n ? diags_format(&dg, 0) : xstrdup(_("the design does not validate"));
        *err = xasprintf(ngettext("not committed: %zu error to fix first (%s)",
                                  "not committed: %zu errors to fix first (%s)", dg.errors),
                         dg.errors, first);
        free(first);
        diags_free(&dg);
        return KP_INVALID;
    }
    diags_free(&dg);
    if (!s->ws) {
        if (s->base != (int)s->nmem) {
            *err = xasprintf(_("version %zu was committed meanwhile; your design is based on version %d"),
                             s->nmem, s->base);
            return KP_CONFLICT;
        }
        VEC_GROW(s->mem_versions, s->nmem, s->capmem);
        VEC_GROW(s->mem_messages, s->nmem, s->capmsg);
        s->mem_versions[s->nmem] = design_clone(s->design);
        s->mem_messages[s->nmem] = xstrdup(message);
        s->nmem++;
        set_base(s, (int)s->nmem, design_clone(s->design));
        if (number)
            *number = (int)s->nmem;
        return KP_OK;
    }
    int n = 0;
    text_forget(s); /* the commit writes the working copy whole */
    kp_status st = ws_commit(s->ws, s->design, NULL, message, s->base, true, &n, err);
    if (st != KP_OK)
        return st;
    /* the text it wrote read back, the handle knowing it: the next edit is saved as the lines it
       changes, not the design whole again */
    char *t = NULL;
    if (ws_working_get(s->ws, &t, NULL, NULL) == KP_OK) {
        s->text = t;
        s->tlen = strlen(t);
        s->tcap = s->tlen + 1;
        s->unfolded = 0;
    }
    set_base(s, n, design_clone(s->design));
    if (number)
        *number = n;
    return KP_OK;
}

int session_latest(session *s)
{
    if (!s->ws)
        return (int)s->nmem;
    int n = 0;
    ws_latest(s->ws, &n, NULL);
    return n;
}

/* The merge is over: its result (taken) becomes the working copy based on merge_into. */
static kp_status merge_apply(session *s, kp_design *d, char **err)
{
    int into = s->merge_into;
    merge_free(s->merge);
    s->merge = NULL;
    s->merge_into = 0;
    kp_design *bd = NULL;
    kp_status st = session_version_design(s, into, &bd, err);
    if (st != KP_OK) {
        design_free(d);
        return st;
    }
    char *label = xasprintf("merge version %d", into);
    st = apply_based(s, d, into, bd, label, err);
    free(label);
    return st;
}

kp_status session_reload(session *s, size_t *nconflicts, char **err)
{
    if (nconflicts)
        *nconflicts = 0;
    if (s->readonly)
        return kp_fail(err, KP_READONLY, _("read-only: %s"), s->readonly);
    if (s->merge)
        return kp_fail(err, KP_CONFLICT, _("the merge of version %d is open: resolve its conflicts first"),
                       s->merge_into);
    int latest = session_latest(s);
    if (latest == 0)
        return kp_fail(err, KP_NOTFOUND, _("nothing was committed yet"));
    kp_design *theirs = NULL;
    kp_status st = session_version_design(s, latest, &theirs, err);
    if (st != KP_OK)
        return st;
    if (!session_dirty(s)) {
        /* nothing of ours to keep: the working copy simply follows */
        if (latest == s->base && design_equal(s->design, theirs)) {
            design_free(theirs);
            return KP_OK;
        }
        return apply_based(s, design_clone(theirs), latest, theirs, "reload", err);
    }
    if (latest == s->base) {
        design_free(theirs);
        return KP_OK; /* based on the latest already: nothing to bring in */
    }
    kp_design *base = s->base_design ? design_clone(s->base_design) : design_new();
    s->merge = merge_designs(base, s->design, theirs);
    s->merge_into = latest;
    design_free(base);
    design_free(theirs);
    size_t n = merge_nconflicts(s->merge);
    if (nconflicts)
        *nconflicts = n;
    if (n)
        return KP_OK;
    kp_design *d = merge_finish(s->merge, err);
    if (!d) {
        session_merge_abort(s);
        return KP_INVALID;
    }
    return merge_apply(s, d, err);
}

merge_result *session_merge(session *s, int *into)
{
    if (into)
        *into = s->merge ? s->merge_into : 0;
    return s->merge;
}

kp_status session_merge_finish(session *s, char **err)
{
    if (!s->merge)
        return kp_fail(err, KP_NOTFOUND, _("no merge is open"));
    kp_design *d = merge_finish(s->merge, err);
    if (!d)
        return KP_CONFLICT;
    return merge_apply(s, d, err);
}

void session_merge_abort(session *s)
{
    merge_free(s->merge);
    s->merge = NULL;
    s->merge_into = 0;
}

const char *session_author(const session *s) { return s->ws ? ws_author(s->ws) : s->author; }

kp_status session_set_author(session *s, const char *author, char **err)
{
    if (!s->ws) {
        if (!author || !*author || util_control_at(author, false) >= 0)
            return kp_fail(err, KP_INVALID, _("expected an author's name of printable text"));
        free(s->author);
        s->author = xstrdup(author);
        return KP_OK;
    }
    if (author && strcmp(author, ws_author(s->ws)) == 0)
        return KP_OK;
    if (s->merge)
        return kp_fail(err, KP_CONFLICT, _("a merge is open: finish it or drop it first"));
    kp_status st = ws_set_author(s->ws, author, err);
    if (st != KP_OK)
        return st;
    text_forget(s);
    s->unfolded = 0;
    if (ws_working_get(s->ws, NULL, NULL, NULL) == KP_NOTFOUND)
        return persist(s, false, NULL, err); /* the new author starts from what is on screen */
    /* the author has a working copy of their own: theirs shows, with their undo history */
    design_free(s->design);
    s->design = NULL;
    design_free(s->base_design);
    s->base_design = NULL;
    s->base = 0;
    snapshots_free(s->undo, s->nundo);
    snapshots_free(s->redo, s->nredo);
    s->undo = s->redo = NULL;
    s->nundo = s->nredo = s->capundo = s->capredo = 0;
    free(s->note);
    s->note = NULL;
    load_working(s);
    return KP_OK;
}

bool session_changed_elsewhere(session *s) { return s->ws ? ws_changed_elsewhere(s->ws) : false; }

kp_status session_log(session *s, ws_version **v, size_t *n, char **err)
{
    if (s->ws)
        return ws_log(s->ws, v, n, err);
    *n = s->nmem;
    *v = s->nmem ? xcalloc(s->nmem, sizeof **v) : NULL;
    for (size_t i = 0; i < s->nmem; i++) {
        (*v)[i].number = (int)i + 1;
        (*v)[i].parent = (int)i;
        (*v)[i].time = xstrdup("2026-01-01T00:00:00Z");
        (*v)[i].author = xstrdup("test");
        (*v)[i].message = xstrdup(s->mem_messages[i]);
        (*v)[i].name = xstrdup(s->mem_versions[i]->name ? s->mem_versions[i]->name : "");
    }
    return KP_OK;
}

kp_status session_version_design(session *s, int number, kp_design **out, char **err)
{
    if (s->ws)
        return ws_version_design(s->ws, number, out, err);
    if (number == 0)
        number = (int)s->nmem;
    if (number < 1 || (size_t)number > s->nmem) {
        *err = xasprintf(_("no version %d (versions 1..%zu exist)"), number, s->nmem);
        return KP_NOTFOUND;
    }
    *out = design_clone(s->mem_versions[number - 1]);
    return KP_OK;
}
