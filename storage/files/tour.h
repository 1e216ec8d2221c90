/* tour.h - the walkthroughs (`keyplan tour`): content kept as data, played by a small engine.
 *
 * A tour is the file samples/NAME/tour/tour.yaml, compiled into keyplan with the sample's design
 * files at build time (storage/files/tour_embed.cmake), so the binary reads nothing at run time.
 * The CloudShop walkthrough ("cloudshop") is the course's worked example in nine steps. Its
 * narration is English and keeps the course's Spanish key names (CLIENTE#, PEDIDO#, ESTADO#...).
 * A tour in another language LL is samples/NAME/LL/tour/tour.yaml (the Spanish CloudShop tour:
 * samples/cloudshop/es/tour/tour.yaml, on the Spanish designs of samples/cloudshop/es/), with the
 * same step ids; tour_open and tour_exists choose it when i18n_lang() is LL.
 *
 * The file (every key but ladder, marks, figures and checks is required):
 *
 *   title: TEXT                      the handout's first line
 *   steps:                           in order; step N is the Nth item
 *     - id: WORD                     a short unique name (tests and designs refer to steps by it)
 *       title: TEXT
 *       narration: [TEXT, ...]       the paragraphs
 *       design: DESIGN               the design at this step
 *       ladder:                      a cost ladder (the figure "cost ladder" shows it)
 *         - { label: TEXT, course: TEXT, course_total: NUMBER, design: DESIGN }
 *       marks: { KIND: [NAME, ...], ... }      what the workbench highlights (see tour_mark)
 *       figures: [FIGURE, ...]       computed by keyplan from the step's design
 *       checks: [CHECK, ...]         what the step's design shows: conditions on its analysis
 *       try:                         the "try it" exercise the step checks on the student's design
 *         task: TEXT                 what to do, in a sentence or two
 *         checks: [CHECK, ...]       the conditions that say it is done
 *         solution: [EDIT, ...]      edits that do it (loading proves they make every check hold
 *                                    and that the step's own design does not)
 *
 *   DESIGN  = FROM | { from: FROM, edits: [EDIT, ...] }
 *   FROM    = the id of an earlier step (its design), or a design file: a path relative to the
 *             tour's folder ending in .yaml (../design.yaml)
 *   EDIT    = { set: "TABLE ROW COLUMN", to: TEXT }   a cell, set as the workbench sets it
 *                                                     (model/edit.h; settings take "settings ROW")
 *           | { delete: "TABLE ROW" }                 a row; an index takes with it the key
 *                                                     templates and sparse rules it gave entities
 *           | { copy: "TABLE ROW", from: FILE }       a decision or an index of another design file,
 *                                                     appended; an index brings its entities' key
 *                                                     templates and sparse rules
 *           TABLE is a table name of model/edit.h (patterns, entities, indexes, attributes,
 *           decisions, keys, settings), ROW the row's id or name, COLUMN the column's name.
 *   FIGURE  = NAME | { NAME: ARGUMENT } | { NAME: ARGUMENT, label: TEXT }, NAME one of:
 *             targets                  every pattern: rate, latency target, plan
 *             plans: all|reads|needs   the plan of every pattern, of the reads, of those that need
 *                                      what DynamoDB lacks (search, aggregation)
 *             plan: PATTERN            one pattern's plan;  key condition: PATTERN  its key condition
 *             checklist: ITEM          a checklist item's status (label: shown after the number)
 *             hottest partition        the partition with the highest write use, and the table's writes
 *             findings                 the findings' codes
 *             index items: INDEX       how many items the index holds
 *             signals: DECISION        the decision's signals and their values now
 *             refused: DECISION        the decision's discarded alternatives
 *             cost ladder              every rung of the step's ladder: keyplan's cost and the course's
 *             partition: TEMPLATE      the distribution of a partition-key template
 *             hot partitions           how many partitions are hot
 *             alerts                   the design's alerts
 *             decisions                every decision with its status and whether a signal fired
 *             cost                     the cost lines and total
 *   CHECK   = "SUBJECT OP VALUE" (tour_check)
 *
 * Loading checks all of it: every step's design is built, edited and validated, every figure's
 * argument and mark names something of the step's design, every check parses. Errors carry the
 * tour file's line and column. */
#ifndef KP_TOUR_H
#define KP_TOUR_H

#include "analysis.h"
#include "design.h"

#include <stdbool.h>
#include <stddef.h>

#define TOUR_DEFAULT "cloudshop"

/* A loaded tour: an opaque handle (tour_open / tour_load, released with tour_close). */
typedef struct tour tour;

/* One rung of a cost ladder: the label and the course's own figure for it (for comparison; the
 * figure keyplan shows is computed from the rung's design). Strings belong to the tour. */
typedef struct tour_rung {
    char *label;         /* "first month", "sparse GSI-1", ... */
    char *course;        /* the course's words for it: "1,244 EUR, index writes 410 EUR" */
    double course_total; /* the course's monthly total (EUR) */
} tour_rung;

/* What a step points at, for highlighting: kind is "pattern", "entity", "index", "partition"
 * (name = the partition-key template), "finding" (name = the code), "decision", "cost"
 * (name = a line, or "total"), "checklist" (name = the item number). */
typedef struct tour_mark {
    char *kind;
    char *name;
} tour_mark;

/* A step as the tour file says it. Everything belongs to the tour: read-only for callers. */
typedef struct tour_step {
    int number; /* 1.. */
    char *id;   /* "gsi1" */
    char *title;
    char *narration;  /* paragraphs separated by blank lines, English */
    tour_mark *marks; /* what to highlight */
    size_t nmarks;
    tour_rung *rungs; /* the cost ladder; NULL when the step has none */
    size_t nrungs;
    char **checks; /* what the step's design shows, as conditions on its analysis */
    size_t nchecks;
    char *try_task;    /* the "try it" exercise for the student, NULL when the step has none */
    char **try_checks; /* the conditions that say it is done, on the student's design */
    size_t ntry;
} tour_step;

/* true when `name` (NULL = the default) names a tour built into keyplan ("cloudshop"). */
bool tour_exists(const char *name);

/* Loads the built-in tour `name` (NULL = "cloudshop") in the language in use (i18n_lang(); the
 * English tour when the sample has none in that language). Returns the tour (release with
 * tour_close), or NULL with *err set (caller frees): "unknown tour 'x'; expected 'cloudshop'",
 * or the first located error of a tour that does not load (a bug: the tests catch it). */
tour *tour_open(const char *name, char **err);

/* Loads a tour from text; `file` is its path in the source tree ("samples/cloudshop/tour/tour.yaml"),
 * used in messages and to find the design files it names among those built into keyplan. NULL
 * on any error, with every problem in `diags` ("FILE:LINE:COL: error: what; what was expected";
 * diags->file is set to `file` when the caller left it NULL). */
tour *tour_load(const char *text, size_t len, const char *file, kp_diags *diags);

/* Releases a tour and everything it owns (NULL is fine). */
void tour_close(tour *t);

/* The handout's title; the tour's name ("cloudshop"; for tour_load, the sample folder's name). */
const char *tour_title(const tour *t);
const char *tour_name(const tour *t);

/* How many steps; step `i` (0-based), NULL when out of range. */
size_t tour_nsteps(const tour *t);
const tour_step *tour_step_at(const tour *t, size_t i);

/* The position of the step with id `id`, or -1. */
ptrdiff_t tour_find(const tour *t, const char *id);

/* The design at step `i`: a new copy (caller frees with design_free), NULL when out of range. */
kp_design *tour_design(const tour *t, size_t i);

/* The design of rung `r` of step `i`'s cost ladder, as tour_design. */
kp_design *tour_rung_design(const tour *t, size_t i, size_t r);

/* The YAML of step `i`'s design (canonical save; caller frees). NULL with *err (caller frees;
 * err may be NULL) when there is no step `i` or the design cannot be saved (designio_save). */
char *tour_yaml(const tour *t, size_t i, char **err);

/* The figures of step `i` computed by keyplan from the step's design and its analysis `a`
 * (a->design is the step's design): a few lines of text, each ending in '\n'. The cost ladder
 * builds and analyses its rungs. Never NULL ("" when out of range); caller frees. */
char *tour_figures(const tour *t, size_t i, const kp_analysis *a);

/* Why the monthly cost of analysis `a` is what it is when scans make most of it: "Why
 * €6,318,340,496.14 a month: scans (patterns 1, 2, 3) read the whole table, 17.6M read units a
 * call, and make 99% of the read units the design asks for (pattern 1 alone 40%)...". NULL when
 * scans make less than half of the design's read units (caller frees). */
char *tour_cost_why(const kp_analysis *a);

/* The whole handout: the title, then every step's number, title, narration (wrapped to
 * `width` columns, 60..200, 0 = 96) and figures. Never NULL; caller frees. */
char *tour_print(const tour *t, int width);

/* The check language of the exercises: "SUBJECT OP VALUE", OP one of == != > >= < <=.
 *   pattern.ID.plan         get, query, multi, scan, outside, covered, write, ... (== or != only)
 *   pattern.ID.index        "table" or the index's name  (== or !=)
 *   pattern.ID.latency_ok   true or false                (== or !=)
 *   partition.TEMPLATE.distinct|read_hot_share|write_hot_share|read_util|write_util  a number;
 *   partition.TEMPLATE.hot  true or false (the first partition of that template)
 *   finding.CODE.count      how many findings carry the code
 *   checklist.N.status      pass, fail, n/a
 *   decision.ID.status      accepted, proposed, ..., or reopen when one of its signals fires
 *   any signal metric       (model/signals.h: pattern.ID.rate, index.GSI1.items, cost.total...)
 * Parses `check` and evaluates it on analysis `a`. Returns true when it holds. On false, *why
 * (when why is not NULL; caller frees) says what was found instead, that the subject names
 * nothing of the design, or what is malformed. */
bool tour_check(const char *check, const kp_analysis *a, char **why);

/* KP_OK when `check` is well-formed (the subject's kind and field known, the value of the
 * right type for the operator); else KP_INVALID with *err (caller frees; err may be NULL)
 * saying what is malformed. */
kp_status tour_check_validate(const char *check, char **err);

/* Evaluates every check of step `i` on `a` (the analysis of the step's design). NULL when all
 * hold; otherwise one line per failing check ("CHECK: WHY\n"), caller frees. */
char *tour_exercise(const tour *t, size_t i, const kp_analysis *a);

#endif
