/* tour_load.c - reading a tour file (tour.h has its grammar) with libyaml's document API, and
 * building its steps: every design from a design file or an earlier step, edited
 * (tour_edit.c) and validated; every mark, figure and check checked against the step's design.
 * Each error carries the tour file's line and column; loading goes on past an error to the
 * next step, so that one run reports the problems of every step. */
#include "tour_int.h"

#include "i18n.h"

#include "design_io.h"
#include "validate.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* A design file read once, cloned for every use. */
typedef struct loaded {
    char *path;
    kp_design *d; /* NULL when it did not load (reported once) */
} loaded;

typedef struct ld {
    yaml_document_t doc;
    kp_diags *dg;
    const char *file;
    tour *t;
    loaded *files;
    size_t nfiles, capfiles;
} ld;

#define N(a) (sizeof(a) / sizeof *(a))

/* ---- nodes ------------------------------------------------------------------------------- */

static kp_loc at(const yaml_node_t *n)
{
    return (kp_loc){(int)n->start_mark.line + 1, (int)n->start_mark.column + 1};
}

static const yaml_node_t *node(ld *c, int id) { return yaml_document_get_node(&c->doc, id); }

static const char *text_of(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static const char *shape(const yaml_node_t *n)
{
    return n->type == YAML_MAPPING_NODE    ? _("a map")
           : n->type == YAML_SEQUENCE_NODE ? _("a list")
                                           : _("text");
}

static size_t seq_len(const yaml_node_t *n)
{
    return (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
}

static const yaml_node_t *seq_at(ld *c, const yaml_node_t *n, size_t i)
{
    return node(c, n->data.sequence.items.start[i]);
}

static size_t map_len(const yaml_node_t *n)
{
    return (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
}

static const yaml_node_t *map_key(ld *c, const yaml_node_t *n, size_t i)
{
    return node(c, n->data.mapping.pairs.start[i].key);
}

static const yaml_node_t *map_value(ld *c, const yaml_node_t *n, size_t i)
{
    return node(c, n->data.mapping.pairs.start[i].value);
}

/* The value of `key` in map n, or NULL. */
static const yaml_node_t *get(ld *c, const yaml_node_t *n, const char *key)
{
    for (size_t i = 0; i < map_len(n); i++) {
        const char *k = text_of(map_key(c, n, i));
        if (k && strcmp(k, key) == 0)
            return map_value(c, n, i);
    }
    return NULL;
}

/* Reports the first key of map n that is not in `keys` (NULL-terminated), or a key given
 * twice; false then. */
static bool known_keys(ld *c, const yaml_node_t *n, const char *what, const char *const *keys)
{
    for (size_t i = 0; i < map_len(n); i++) {
        const yaml_node_t *kn = map_key(c, n, i);
        const char *k = text_of(kn);
        size_t nk = 0;
        bool ok = false;
        for (; keys[nk]; nk++)
            ok |= k && strcmp(k, keys[nk]) == 0;
        for (size_t j = 0; ok && j < i; j++) {
            const char *prev = text_of(map_key(c, n, j));
            if (prev && strcmp(prev, k) == 0) {
                diags_add(c->dg, KP_DUPLICATE, at(kn), _("%s: '%s' is given twice; expected each key once"),
                          what, k);
                return false;
            }
        }
        if (ok)
            continue;
        char *all = tour_words_list(keys);
        const char *near = k ? util_did_you_mean(k, keys, nk) : NULL;
        if (near)
            diags_add(c->dg, KP_UNKNOWN_KEY, at(kn),
                      _("%s: unknown key '%s' (did you mean '%s'?); expected %s"), what, k, near, all);
        else
            diags_add(c->dg, KP_UNKNOWN_KEY, at(kn), _("%s: unknown key '%s'; expected %s"), what,
                      k ? k : shape(kn), all);
        free(all);
        return false;
    }
    return true;
}

/* The node of the wanted type (YAML_SCALAR_NODE for text) under `key` of map n. NULL with an
 * error when it is of another shape, or absent and `required`; NULL alone when absent. */
static const yaml_node_t *need(ld *c, const yaml_node_t *n, const char *key, yaml_node_type_t type,
                               bool required, const char *what, const char *expected)
{
    const yaml_node_t *v = get(c, n, key);
    if (!v) {
        if (required)
            diags_add(c->dg, KP_MISSING_KEY, at(n), _("%s: '%s' is missing; expected %s"), what, key,
                      expected);
        return NULL;
    }
    if (v->type != type) {
        diags_add(c->dg, KP_TYPE, at(v), _("%s: '%s' is %s; expected %s"), what, key, shape(v), expected);
        return NULL;
    }
    return v;
}

/* ---- design files -------------------------------------------------------------------------- */

/* `rel` relative to the folder of c->file, with "." and ".." resolved; NULL when it leaves
 * the source tree or is absolute. Caller frees. */
static char *resolve(const char *file, const char *rel)
{
    if (!*rel || rel[0] == '/')
        return NULL;
    const char *slash = strrchr(file, '/');
    char *joined = slash ? xasprintf("%.*s/%s", (int)(slash - file), file, rel) : xstrdup(rel);
    char *out = xmalloc(strlen(joined) + 1);
    size_t n = 0;
    bool bad = false;
    for (char *seg = joined, *next; seg && !bad; seg = next) {
        char *end = strchr(seg, '/');
        next = end ? end + 1 : NULL;
        size_t len = end ? (size_t)(end - seg) : strlen(seg);
        if (len == 0 || (len == 1 && seg[0] == '.'))
            continue;
        if (len == 2 && seg[0] == '.' && seg[1] == '.') {
            if (n == 0)
                bad = true;
            while (n > 0 && out[--n] != '/')
                ;
            continue;
        }
        if (n)
            out[n++] = '/';
        memcpy(out + n, seg, len);
        n += len;
    }
    out[n] = '\0';
    free(joined);
    if (bad || !n) {
        free(out);
        return NULL;
    }
    return out;
}

/* The design of file `rel` (named by node `where`): a new copy, or NULL with an error. */
static kp_design *load_file(ld *c, const yaml_node_t *where, const char *rel, const char *what)
{
    char *path = resolve(c->file, rel);
    if (!path || !tour_file_find(path)) {
        diags_add(
            c->dg, KP_NOTFOUND, at(where),
            _("%s: no design file '%s' in the tour's sample; expected a path relative to the tour's folder "
              "(../design.yaml) or the id of an earlier step"),
            what, rel);
        free(path);
        return NULL;
    }
    for (size_t i = 0; i < c->nfiles; i++) {
        if (strcmp(c->files[i].path, path) == 0) {
            free(path);
            return c->files[i].d ? design_clone(c->files[i].d) : NULL;
        }
    }
    const tour_file *f = tour_file_find(path);
    kp_diags dg;
    diags_init(&dg, path);
    kp_design *d = designio_load_string(f->text, f->len, path, &dg);
    if (!d) {
        char *first = dg.n ? diags_format(&dg, 0) : xstrdup("cannot load");
        diags_add(c->dg, KP_INVALID, at(where), _("%s: the design file does not load: %s"), what, first);
        free(first);
    }
    diags_free(&dg);
    VEC_GROW(c->files, c->nfiles, c->capfiles);
    c->files[c->nfiles++] = (loaded){path, d};
    return d ? design_clone(d) : NULL;
}

static bool is_file_name(const char *s)
{
    size_t n = strlen(s);
    return n > 5 && strcmp(s + n - 5, ".yaml") == 0;
}

/* ---- edits ----------------------------------------------------------------------------- */

/* Applies edit node e to d (tour_edit_apply does the work); false with an error. */
static bool apply_edit(ld *c, kp_design *d, const yaml_node_t *e, const char *what)
{
    static const char *const set_keys[] = {"set", "to", NULL}, *const delete_keys[] = {"delete", NULL},
                             *const copy_keys[] = {"copy", "from", NULL};
    static const char *const *const op_keys[] = {set_keys, delete_keys, copy_keys};
    if (e->type != YAML_MAPPING_NODE) {
        diags_add(c->dg, KP_TYPE, at(e),
                  _("%s: an edit is %s; expected { set: TABLE ROW COLUMN, to: TEXT }, "
                    "{ delete: TABLE ROW } or { copy: TABLE ROW, from: FILE }"),
                  what, shape(e));
        return false;
    }
    int op = -1, nops = 0;
    for (int i = 0; i < TOUR_EDIT__COUNT; i++)
        if (get(c, e, tour_edit_words[i]))
            op = i, nops++;
    if (nops != 1) {
        diags_add(c->dg, nops ? KP_INVALID : KP_MISSING_KEY, at(e),
                  _("%s: an edit %s; expected one of set, delete or copy"), what,
                  nops ? "says several operations" : "says no operation");
        return false;
    }
    if (!known_keys(c, e, what, op_keys[op]))
        return false;
    const yaml_node_t *tn = get(c, e, tour_edit_words[op]);
    if (!text_of(tn)) {
        diags_add(c->dg, KP_TYPE, at(tn), _("%s: %s names %s; expected TABLE ROW%s"), what,
                  tour_edit_words[op], shape(tn), op == TOUR_EDIT_SET ? " COLUMN" : "");
        return false;
    }
    const yaml_node_t *to = NULL, *from = NULL;
    kp_design *src = NULL;
    if (op == TOUR_EDIT_SET && !(to = need(c, e, "to", YAML_SCALAR_NODE, true, what, "the cell's new text")))
        return false;
    if (op == TOUR_EDIT_COPY) {
        if (!(from = need(c, e, "from", YAML_SCALAR_NODE, true, what, "a design file (../design.yaml)")))
            return false;
        if (!(src = load_file(c, from, text_of(from), what)))
            return false;
    }
    char *err = NULL;
    kp_status code = KP_INVALID;
    bool at_value = false;
    bool ok = tour_edit_apply(d, (tour_edit_op)op, text_of(tn), text_of(to), src, text_of(from), &code,
                              &at_value, &err);
    if (!ok)
        diags_add(c->dg, code, at(at_value ? to : tn), _("%s: %s"), what, err);
    free(err);
    design_free(src);
    return ok;
}

/* ---- designs ------------------------------------------------------------------------------ */

/* The design `spec` describes (FROM or { from, edits }), resolved among the first `prior`
 * steps: a new design, or NULL with an error (or silently when the step it starts from failed,
 * which was reported). */
static kp_design *build_design(ld *c, const yaml_node_t *spec, size_t prior, const char *what)
{
    static const char *const keys[] = {"from", "edits", NULL};
    const yaml_node_t *from = spec, *edits = NULL;
    if (spec->type == YAML_MAPPING_NODE) {
        if (!known_keys(c, spec, what, keys))
            return NULL;
        from = need(c, spec, "from", YAML_SCALAR_NODE, true, what, "a design file or an earlier step's id");
        if (!from)
            return NULL;
        edits = get(c, spec, "edits");
        if (edits && edits->type != YAML_SEQUENCE_NODE) {
            diags_add(c->dg, KP_TYPE, at(edits), _("%s: 'edits' is %s; expected a list of edits"), what,
                      shape(edits));
            return NULL;
        }
    } else if (spec->type != YAML_SCALAR_NODE) {
        diags_add(c->dg, KP_TYPE, at(spec),
                  _("%s: the design is %s; expected a design file, an earlier step's id or "
                    "{ from: ..., edits: [...] }"),
                  what, shape(spec));
        return NULL;
    }
    const char *name = text_of(from);
    kp_design *d = NULL;
    if (is_file_name(name)) {
        d = load_file(c, from, name, what);
    } else {
        ptrdiff_t k = -1;
        const char **ids = xcalloc(prior + 1, sizeof *ids);
        for (size_t i = 0; i < prior; i++) {
            ids[i] = c->t->steps[i].id ? c->t->steps[i].id : "";
            if (strcmp(ids[i], name) == 0)
                k = (ptrdiff_t)i;
        }
        if (k < 0) {
            const char *near = util_did_you_mean(name, ids, prior);
            diags_add(c->dg, KP_UNKNOWN_REF, at(from),
                      _("%s: '%s' is no earlier step%s%s%s and no design file; expected "
                        "an earlier step's id or a path ending in .yaml"),
                      what, name, near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
        } else if (c->t->play[k].design) {
            d = design_clone(c->t->play[k].design);
        }
        free(ids);
    }
    for (size_t i = 0; d && edits && i < seq_len(edits); i++) {
        if (!apply_edit(c, d, seq_at(c, edits, i), what)) {
            design_free(d);
            d = NULL;
        }
    }
    if (!d)
        return NULL;
    kp_diags vd;
    diags_init(&vd, NULL);
    if (!validate_design(d, &vd)) {
        for (size_t i = 0; i < vd.n; i++)
            if (vd.v[i].sev == KP_SEV_ERROR) {
                diags_add(c->dg, KP_INVALID, at(spec), _("%s: the design does not validate: %s"), what,
                          vd.v[i].msg);
                break;
            }
        design_free(d);
        d = NULL;
    }
    diags_free(&vd);
    return d;
}

/* ---- marks, figures, checks --------------------------------------------------------------- */

static bool has_decision(const kp_design *d, const char *id)
{
    for (size_t i = 0; i < d->ndecisions; i++)
        if (d->decisions[i].id && strcmp(d->decisions[i].id, id) == 0)
            return true;
    return false;
}

static bool has_template(const kp_design *d, const char *src)
{
    for (size_t e = 0; e < d->nentities; e++)
        for (size_t k = 0; k < d->entities[e].nkeys; k++)
            if (d->entities[e].keys[k].tpl.src && strcmp(d->entities[e].keys[k].tpl.src, src) == 0)
                return true;
    return false;
}

static bool is_item(const char *s)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    return *s && !*end && v >= 1 && v <= KP_CHECKLIST_ITEMS;
}

static bool is_finding(const char *code)
{
    size_t n = 0;
    const kp_finding_info *f = analysis_finding_catalogue(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(f[i].code, code) == 0)
            return true;
    return false;
}

/* What an argument of kind `arg` must name. */
static const char *arg_expected(tour_arg arg)
{
    switch (arg) {
    case TOUR_ARG_SELECTION:
        return _("all, reads or needs");
    case TOUR_ARG_PATTERN:
        return _("the id of a pattern of the step's design");
    case TOUR_ARG_ITEM:
        return _("a checklist item, 1 to 11");
    case TOUR_ARG_INDEX:
        return _("an index of the step's design");
    case TOUR_ARG_DECISION:
        return _("a decision of the step's design");
    case TOUR_ARG_TEMPLATE:
        return _("a key template of an entity of the step's design");
    default:
        return "nothing";
    }
}

/* Whether `name` names a thing of kind `arg` in design d. */
static bool names_something(const kp_design *d, tour_arg arg, const char *name)
{
    switch (arg) {
    case TOUR_ARG_SELECTION:
        return strcmp(name, "all") == 0 || strcmp(name, "reads") == 0 || strcmp(name, "needs") == 0;
    case TOUR_ARG_PATTERN:
        return design_pattern(d, name);
    case TOUR_ARG_ITEM:
        return is_item(name);
    case TOUR_ARG_INDEX:
        return design_index(d, name);
    case TOUR_ARG_DECISION:
        return has_decision(d, name);
    case TOUR_ARG_TEMPLATE:
        return has_template(d, name);
    default:
        return false;
    }
}

static void parse_marks(ld *c, const yaml_node_t *m, tour_step *s, const kp_design *d, const char *what)
{
    static const char *const kinds[] = {"pattern",  "entity", "index",     "partition", "finding",
                                        "decision", "cost",   "checklist", NULL};
    if (m->type != YAML_MAPPING_NODE) {
        diags_add(c->dg, KP_TYPE, at(m), _("%s: 'marks' is %s; expected a map KIND: [NAME, ...]"), what,
                  shape(m));
        return;
    }
    if (!known_keys(c, m, what, kinds))
        return;
    size_t cap = 0;
    for (size_t i = 0; i < map_len(m); i++) {
        const char *kind = text_of(map_key(c, m, i));
        const yaml_node_t *v = map_value(c, m, i);
        if (v->type != YAML_SEQUENCE_NODE) {
            diags_add(c->dg, KP_TYPE, at(v), _("%s: marks '%s' is %s; expected a list of names"), what, kind,
                      shape(v));
            continue;
        }
        for (size_t k = 0; k < seq_len(v); k++) {
            const yaml_node_t *nn = seq_at(c, v, k);
            const char *name = text_of(nn), *expected = NULL;
            bool ok = name && *name;
            if (ok && d) {
                static const struct {
                    const char *kind;
                    tour_arg arg;
                } by_kind[] = {{"pattern", TOUR_ARG_PATTERN},
                               {"index", TOUR_ARG_INDEX},
                               {"decision", TOUR_ARG_DECISION},
                               {"partition", TOUR_ARG_TEMPLATE},
                               {"checklist", TOUR_ARG_ITEM}};
                for (size_t j = 0; j < N(by_kind); j++)
                    if (strcmp(kind, by_kind[j].kind) == 0)
                        ok = names_something(d, by_kind[j].arg, name),
                        expected = arg_expected(by_kind[j].arg);
                if (strcmp(kind, "entity") == 0)
                    ok = design_entity(d, name), expected = "an entity of the step's design";
                else if (strcmp(kind, "finding") == 0)
                    ok = is_finding(name), expected = "a finding code (keyplan check lists them)";
            }
            if (!ok) {
                diags_add(c->dg, KP_UNKNOWN_REF, at(nn), _("%s: mark %s '%s' names nothing; expected %s"),
                          what, kind, name ? name : shape(nn), expected ? expected : "a name");
                continue;
            }
            VEC_GROW(s->marks, s->nmarks, cap);
            s->marks[s->nmarks++] = (tour_mark){xstrdup(kind), xstrdup(name)};
        }
    }
}

static void parse_figure(ld *c, const yaml_node_t *f, tour_play *p, size_t *cap, const kp_design *d,
                         const char *what)
{
    const yaml_node_t *name_node = f, *arg_node = NULL, *label_node = NULL;
    if (f->type == YAML_MAPPING_NODE && (map_len(f) == 1 || (map_len(f) == 2 && get(c, f, "label")))) {
        for (size_t i = 0; i < map_len(f); i++) {
            const char *k = text_of(map_key(c, f, i));
            if (k && strcmp(k, "label") == 0)
                label_node = map_value(c, f, i);
            else
                name_node = map_key(c, f, i), arg_node = map_value(c, f, i);
        }
    } else if (f->type != YAML_SCALAR_NODE) {
        diags_add(c->dg, KP_TYPE, at(f), _("%s: a figure is %s; expected NAME or { NAME: ARGUMENT }"), what,
                  shape(f));
        return;
    }
    const char *name = text_of(name_node);
    const char *names[TOUR_FIG__COUNT + 1];
    int kind = -1;
    for (int i = 0; i < TOUR_FIG__COUNT; i++) {
        names[i] = tour_fig_catalogue[i].name;
        if (name && strcmp(name, names[i]) == 0)
            kind = i;
    }
    names[TOUR_FIG__COUNT] = NULL;
    if (kind < 0) {
        const char *near = name ? util_did_you_mean(name, names, TOUR_FIG__COUNT) : NULL;
        char *all = tour_words_list(names);
        diags_add(c->dg, KP_UNKNOWN_KEY, at(name_node), _("%s: unknown figure '%s'%s%s%s; expected %s"), what,
                  name ? name : shape(name_node), near ? " (did you mean '" : "", near ? near : "",
                  near ? "'?)" : "", all);
        free(all);
        return;
    }
    tour_arg want = tour_fig_catalogue[kind].arg;
    const char *arg = arg_node ? text_of(arg_node) : NULL, *label = label_node ? text_of(label_node) : NULL;
    if (want == TOUR_ARG_NONE && arg_node) {
        diags_add(c->dg, KP_INVALID, at(arg_node),
                  _("%s: figure '%s' takes no argument; expected just its name"), what, name);
        return;
    }
    if (want != TOUR_ARG_NONE && (!arg || !*arg)) {
        diags_add(c->dg, KP_MISSING_KEY, at(arg_node ? arg_node : f),
                  _("%s: figure '%s' needs an argument; expected "
                    "{ %s: ARGUMENT }, ARGUMENT %s"),
                  what, name, name, arg_expected(want));
        return;
    }
    if (label_node && (!label || kind != TOUR_FIG_CHECKLIST)) {
        diags_add(c->dg, KP_INVALID, at(label_node),
                  _("%s: figure '%s' takes no label; expected a label (text) on "
                    "checklist figures only"),
                  what, name);
        return;
    }
    if (arg && d && !names_something(d, want, arg)) {
        diags_add(c->dg, KP_UNKNOWN_REF, at(arg_node), _("%s: figure '%s': '%s' names nothing; expected %s"),
                  what, name, arg, arg_expected(want));
        return;
    }
    VEC_GROW(p->figures, p->nfigures, *cap);
    p->figures[p->nfigures++] = (tour_figure){(tour_fig_kind)kind, xstrdup(arg), xstrdup(label)};
}

static void parse_ladder(ld *c, const yaml_node_t *l, tour_step *s, tour_play *p, size_t prior,
                         const char *what)
{
    static const char *const keys[] = {"label", "course", "course_total", "design", NULL};
    size_t n = seq_len(l);
    s->rungs = n ? xcalloc(n, sizeof *s->rungs) : NULL;
    p->rungs = n ? xcalloc(n, sizeof *p->rungs) : NULL;
    for (size_t r = 0; r < n; r++) {
        const yaml_node_t *rn = seq_at(c, l, r);
        /* TRANSLATORS: a rung of a step's cost ladder in error messages: "step 7 (cost-ladder), rung 2" */
        char *rwhat = xasprintf(_("%1$s, rung %2$zu"), what, r + 1);
        if (rn->type != YAML_MAPPING_NODE) {
            diags_add(c->dg, KP_TYPE, at(rn),
                      _("%s: a rung is %s; expected a map with label, course, course_total and "
                        "design"),
                      rwhat, shape(rn));
            free(rwhat);
            continue;
        }
        if (!known_keys(c, rn, rwhat, keys)) {
            free(rwhat);
            continue;
        }
        const yaml_node_t *label = need(c, rn, "label", YAML_SCALAR_NODE, true, rwhat, "text");
        const yaml_node_t *course =
            need(c, rn, "course", YAML_SCALAR_NODE, true, rwhat, "the course's figure as text");
        const yaml_node_t *total = need(c, rn, "course_total", YAML_SCALAR_NODE, true, rwhat, "a number");
        const yaml_node_t *design = get(c, rn, "design");
        if (!design)
            diags_add(c->dg, KP_MISSING_KEY, at(rn), _("%s: 'design' is missing; expected the rung's design"),
                      rwhat);
        char *end = NULL;
        double v = total ? strtod(text_of(total), &end) : NAN;
        if (total && (!*text_of(total) || *end || !isfinite(v)))
            diags_add(c->dg, KP_TYPE, at(total), _("%s: course_total '%s'; expected a number"), rwhat,
                      text_of(total));
        else if (label && course && total && design) {
            tour_rung *g = &s->rungs[s->nrungs];
            g->label = xstrdup(text_of(label));
            g->course = xstrdup(text_of(course));
            g->course_total = v;
            p->rungs[s->nrungs] = build_design(c, design, prior, rwhat);
            s->nrungs++;
        }
        free(rwhat);
    }
}

/* ---- steps --------------------------------------------------------------------------------- */

/* The checks of list node `checks` (tour_check_validate'd) into *out, *n (caller frees); the
 * malformed ones are reported and left out. */
static void parse_checks(ld *c, const yaml_node_t *checks, const char *what, char ***out, size_t *n)
{
    size_t k = checks ? seq_len(checks) : 0;
    *out = k ? xcalloc(k, sizeof **out) : NULL;
    *n = 0;
    for (size_t i = 0; i < k; i++) {
        const yaml_node_t *cn = seq_at(c, checks, i);
        char *why = NULL;
        if (tour_check_validate(text_of(cn), &why) != KP_OK)
            diags_add(c->dg, KP_INVALID, at(cn), _("%s: check '%s': %s"), what,
                      text_of(cn) ? text_of(cn) : shape(cn), why);
        else
            (*out)[(*n)++] = xstrdup(text_of(cn));
        free(why);
    }
}

/* The step's exercise: try: { task: TEXT, checks: [CHECK, ...], solution: [EDIT, ...] }. The
 * solution applied to the step's design d must make every check hold, and d itself must not
 * (an exercise already done is none): both are proved here, when the tour loads. */
static void parse_try(ld *c, const yaml_node_t *tn, tour_step *s, const kp_design *d, const char *what)
{
    static const char *const keys[] = {"task", "checks", "solution", NULL};
    char *w = xasprintf("%s: try", what); /* try: the key of the tour file */
    kp_design *x = NULL;
    kp_analysis *a0 = NULL, *a1 = NULL;
    const yaml_node_t *task = NULL, *checks = NULL, *sol = NULL;
    if (tn->type != YAML_MAPPING_NODE) {
        diags_add(c->dg, KP_TYPE, at(tn),
                  _("%s is %s; expected { task: TEXT, checks: [...], solution: [...] }"), w, shape(tn));
        goto out;
    }
    if (!known_keys(c, tn, w, keys))
        goto out;
    task = need(c, tn, "task", YAML_SCALAR_NODE, true, w, "the exercise, as text");
    checks = need(c, tn, "checks", YAML_SEQUENCE_NODE, true, w, "a list of checks");
    sol = need(c, tn, "solution", YAML_SEQUENCE_NODE, true, w, "a list of edits that solve it");
    if (!task || !checks || !sol || !d)
        goto out;
    size_t n = seq_len(checks);
    parse_checks(c, checks, w, &s->try_checks, &s->ntry);
    if (s->ntry != n || !n) {
        if (!n)
            diags_add(c->dg, KP_MISSING_KEY, at(checks),
                      _("%s: no checks; expected the conditions that say done"), w);
        goto out;
    }
    s->try_task = xstrdup(text_of(task));
    x = design_clone(d);
    for (size_t k = 0; k < seq_len(sol); k++)
        if (!apply_edit(c, x, seq_at(c, sol, k), w))
            goto out;
    kp_diags vd;
    diags_init(&vd, NULL);
    bool valid = validate_design(x, &vd);
    for (size_t k = 0; !valid && k < vd.n; k++)
        if (vd.v[k].sev == KP_SEV_ERROR) {
            diags_add(c->dg, KP_INVALID, at(sol), _("%s: the solution does not validate: %s"), w,
                      vd.v[k].msg);
            break;
        }
    diags_free(&vd);
    if (!valid)
        goto out;
    a0 = analysis_run(d);
    a1 = analysis_run(x);
    bool done = true;
    for (size_t k = 0; k < s->ntry; k++) {
        char *why = NULL;
        done &= tour_check(s->try_checks[k], a0, NULL);
        if (!tour_check(s->try_checks[k], a1, &why))
            diags_add(c->dg, KP_INVALID, at(sol), _("%s: the solution leaves '%s' false: %s"), w,
                      s->try_checks[k], why ? why : "");
        free(why);
    }
    if (done)
        diags_add(c->dg, KP_INVALID, at(checks),
                  _("%s: the step's own design already meets every check; expected "
                    "an exercise that asks for a change"),
                  w);
out:
    analysis_free(a0);
    analysis_free(a1);
    design_free(x);
    free(w);
}

static void parse_step(ld *c, size_t i, const yaml_node_t *sn)
{
    static const char *const keys[] = {"id",    "title",   "narration", "design", "ladder",
                                       "marks", "figures", "checks",    "try",    NULL};
    tour_step *s = &c->t->steps[i];
    tour_play *p = &c->t->play[i];
    s->number = (int)i + 1;
    char *what = xasprintf(_("step %zu"), i + 1);
    if (sn->type != YAML_MAPPING_NODE) {
        diags_add(c->dg, KP_TYPE, at(sn), _("%s is %s; expected a map with id, title, narration and design"),
                  what, shape(sn));
        goto out;
    }
    const yaml_node_t *id =
        need(c, sn, "id", YAML_SCALAR_NODE, true, what, "a short name (letters, digits, '-')");
    if (!id)
        goto out;
    const char *idt = text_of(id);
    bool word = *idt;
    for (const char *q = idt; *q; q++)
        word &= isalnum((unsigned char)*q) || *q == '-' || *q == '_';
    if (!word || is_file_name(idt)) {
        diags_add(c->dg, KP_INVALID, at(id),
                  _("%s: id '%s'; expected a short name of letters, digits and '-'"), what, idt);
        goto out;
    }
    for (size_t k = 0; k < i; k++)
        if (c->t->steps[k].id && strcmp(c->t->steps[k].id, idt) == 0) {
            diags_add(c->dg, KP_DUPLICATE, at(id),
                      _("%s: id '%s' is step %zu's already; expected a unique id"), what, idt, k + 1);
            goto out;
        }
    s->id = xstrdup(idt);
    free(what);
    /* TRANSLATORS: a step of a tour file in its error messages: its number and id */
    what = xasprintf(_("step %1$zu (%2$s)"), i + 1, idt);
    if (!known_keys(c, sn, what, keys))
        goto out;

    const yaml_node_t *title = need(c, sn, "title", YAML_SCALAR_NODE, true, what, "text");
    const yaml_node_t *narr =
        need(c, sn, "narration", YAML_SEQUENCE_NODE, true, what, "a list of paragraphs");
    const yaml_node_t *design = get(c, sn, "design");
    if (!design)
        diags_add(c->dg, KP_MISSING_KEY, at(sn),
                  _("%s: 'design' is missing; expected a design file, an earlier step's "
                    "id or { from: ..., edits: [...] }"),
                  what);
    if (!title || !narr || !design)
        goto out;
    s->title = xstrdup(text_of(title));
    sbuf b;
    sbuf_init(&b);
    for (size_t k = 0; k < seq_len(narr); k++) {
        const yaml_node_t *pn = seq_at(c, narr, k);
        if (!text_of(pn) || !*text_of(pn)) {
            diags_add(c->dg, KP_TYPE, at(pn), _("%s: a paragraph is %s; expected text"), what,
                      text_of(pn) ? "empty" : shape(pn));
            break;
        }
        sbuf_printf(&b, "%s%s", k ? "\n\n" : "", text_of(pn));
    }
    if (!b.len)
        diags_add(c->dg, KP_MISSING_KEY, at(narr), _("%s: the narration is empty; expected paragraphs"),
                  what);
    s->narration = sbuf_steal(&b);

    p->design = build_design(c, design, i, what);
    const yaml_node_t *ladder = need(c, sn, "ladder", YAML_SEQUENCE_NODE, false, what, "a list of rungs");
    if (ladder)
        parse_ladder(c, ladder, s, p, i, what);
    const yaml_node_t *marks = get(c, sn, "marks");
    if (marks)
        parse_marks(c, marks, s, p->design, what);
    const yaml_node_t *figs = need(c, sn, "figures", YAML_SEQUENCE_NODE, false, what, "a list of figures");
    size_t cap = 0;
    for (size_t k = 0; figs && k < seq_len(figs); k++)
        parse_figure(c, seq_at(c, figs, k), p, &cap, p->design, what);
    for (size_t k = 0; k < p->nfigures; k++)
        if (p->figures[k].kind == TOUR_FIG_LADDER && !ladder)
            diags_add(c->dg, KP_MISSING_KEY, at(figs),
                      _("%s: the figure 'cost ladder' needs the step's ladder; expected "
                        "'ladder:' in the step"),
                      what);
    const yaml_node_t *checks = need(c, sn, "checks", YAML_SEQUENCE_NODE, false, what, "a list of checks");
    parse_checks(c, checks, what, &s->checks, &s->nchecks);
    const yaml_node_t *ex = get(c, sn, "try");
    if (ex)
        parse_try(c, ex, s, p->design, what);
out:
    free(what);
}

/* The tour's name from its file: the sample folder under "samples/" ("cloudshop" of
 * "samples/cloudshop/tour/tour.yaml" and of its Spanish "samples/cloudshop/es/tour/tour.yaml"),
 * else the folder above "tour/tour.yaml". */
static char *name_of(const char *file)
{
    if (strncmp(file, "samples/", 8) == 0 && strchr(file + 8, '/'))
        return xstrndup(file + 8, (size_t)(strchr(file + 8, '/') - (file + 8)));
    char *dir = xstrdup(file);
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
    }
    const char *base = strrchr(dir, '/');
    char *name = xstrdup(base ? base + 1 : dir);
    free(dir);
    return name;
}

static void syntax_error(ld *c, yaml_parser_t *p)
{
    kp_loc loc = {(int)p->problem_mark.line + 1, (int)p->problem_mark.column + 1};
    const char *problem = p->problem ? p->problem : "unreadable input";
    if (p->context)
        diags_add(c->dg, KP_SYNTAX, loc,
                  _("YAML syntax error: %s %s (started at line %d, column %d); expected well-formed YAML"),
                  problem, p->context, (int)p->context_mark.line + 1, (int)p->context_mark.column + 1);
    else
        diags_add(c->dg, KP_SYNTAX, loc, _("YAML syntax error: %s; expected well-formed YAML"), problem);
}

tour *tour_load(const char *text, size_t len, const char *file, kp_diags *diags)
{
    if (!diags->file)
        diags->file = xstrdup(file);
    size_t errors = diags->errors;
    ld c = {.dg = diags, .file = file};
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        diags_add(diags, KP_NOMEM, (kp_loc){0, 0}, _("cannot start the YAML parser (out of memory)"));
        return NULL;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &c.doc)) {
        syntax_error(&c, &parser);
        yaml_parser_delete(&parser);
        return NULL;
    }
    const yaml_node_t *root = yaml_document_get_root_node(&c.doc);
    yaml_document_t second;
    if (!root) {
        diags_add(diags, KP_EMPTY, (kp_loc){0, 0},
                  _("the file is empty; expected a tour with title: and steps:"));
    } else if (!yaml_parser_load(&parser, &second)) {
        syntax_error(&c, &parser);
    } else {
        const yaml_node_t *r2 = yaml_document_get_root_node(&second);
        if (r2)
            diags_add(diags, KP_INVALID, at(r2), _("a second YAML document; expected one tour per file"));
        yaml_document_delete(&second);
    }
    yaml_parser_delete(&parser);
    static const char *const keys[] = {"title", "steps", NULL};
    const yaml_node_t *title = NULL, *steps = NULL;
    if (diags->errors > errors) {
    } else if (root->type != YAML_MAPPING_NODE) {
        diags_add(diags, KP_TYPE, at(root), _("the tour is %s; expected a map with title: and steps:"),
                  shape(root));
    } else if (known_keys(&c, root, "tour", keys)) {
        title = need(&c, root, "title", YAML_SCALAR_NODE, true, "tour", "the handout's title");
        steps = need(&c, root, "steps", YAML_SEQUENCE_NODE, true, "tour", "a list of steps");
        if (steps && seq_len(steps) == 0) {
            diags_add(diags, KP_MISSING_KEY, at(steps),
                      _("tour: 'steps' is empty; expected at least one step"));
            steps = NULL;
        }
    }
    tour *t = NULL;
    if (title && steps) {
        t = c.t = xcalloc(1, sizeof *t);
        t->name = name_of(file);
        t->title = xstrdup(text_of(title));
        t->nsteps = seq_len(steps);
        t->steps = xcalloc(t->nsteps, sizeof *t->steps);
        t->play = xcalloc(t->nsteps, sizeof *t->play);
        for (size_t i = 0; i < t->nsteps; i++)
            parse_step(&c, i, seq_at(&c, steps, i));
    }
    for (size_t i = 0; i < c.nfiles; i++) {
        free(c.files[i].path);
        design_free(c.files[i].d);
    }
    free(c.files);
    yaml_document_delete(&c.doc);
    if (diags->errors > errors) {
        tour_close(t);
        return NULL;
    }
    return t;
}
