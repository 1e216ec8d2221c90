/* tour.h - the CloudShop walkthrough: the course's worked example as nine steps, each with a title, an English narration that keeps the
 * course's Spanish key names (CLIENTE#, PEDIDO#, ESTADO#...), the design at that step, and what
 * the workbench should highlight. Step 7 also carries the course's cost ladder: four designs
 * (first month, sparse GSI-1, eventual reads, provisioned) whose cost keyplan computes.
 *
 * The designs are built from the two samples, embedded here (samples/cloudshop/design.yaml and
 * first-design.yaml; tests/test_tour.c checks that the copies match the files), by editing the
 * loaded design in C; each step's YAML is the canonical save of that design. Nothing here does
 * terminal I/O; tour_print builds the handout text `keyplan tour --print` writes. */
#ifndef KP_TOUR_H
#define KP_TOUR_H

#include "analysis.h"
#include "design.h"

#include <stdbool.h>
#include <stddef.h>

#define TOUR_DEFAULT "cloudshop"

/* One rung of a cost ladder: the label and the course's own figure for it (for comparison; the
 * figure keyplan shows is computed from the rung's design). */
typedef struct tour_rung {
    const char *label;        /* "first month", "sparse GSI-1", ... */
    const char *course;       /* the course's words for it: "1,244 EUR, index writes 410 EUR" */
    double course_total;      /* the course's monthly total (EUR) */
} tour_rung;

/* What a step points at, for highlighting: kind is "pattern", "entity", "index", "partition"
 * (name = the partition-key template), "finding" (name = the code), "decision", "cost"
 * (name = a line, or "total"), "checklist" (name = the item number). */
typedef struct tour_mark {
    const char *kind;
    const char *name;
} tour_mark;

typedef struct tour_step {
    int number;               /* 1..9 */
    const char *title;
    const char *narration;    /* paragraphs separated by blank lines, English */
    const tour_mark *marks;   /* what to highlight */
    size_t nmarks;
    const tour_rung *rungs;   /* step 7: the cost ladder; NULL otherwise */
    size_t nrungs;
} tour_step;

/* The names tour_steps knows ("cloudshop"). */
bool tour_exists(const char *name);

/* The steps of the tour `name` (NULL = "cloudshop"), static and immutable; *n receives how
 * many. NULL (and *n = 0) for an unknown name. */
const tour_step *tour_steps(const char *name, size_t *n);

/* The design at step `i` (0-based) of tour `name`. Returns a new design (caller frees with
 * design_free), or NULL with *err set (caller frees) for an unknown tour or step, or when the
 * embedded design does not load (a bug: the tests catch it). */
kp_design *tour_design(const char *name, size_t i, char **err);

/* The design of rung `r` of step `i`'s cost ladder, as tour_design. */
kp_design *tour_rung_design(const char *name, size_t i, size_t r, char **err);

/* The YAML of step `i`'s design (canonical save). NULL with *err on failure; caller frees. */
char *tour_yaml(const char *name, size_t i, char **err);

/* The figures of step `i` computed by keyplan from the step's design and its analysis `a`
 * (a->design is the step's design): a few lines of text, each ending in '\n'. For step 7 it
 * also builds and analyses the ladder's rungs. Never NULL; caller frees. */
char *tour_figures(const char *name, size_t i, const kp_analysis *a);

/* The whole handout: every step's number, title, narration (wrapped to `width` columns,
 * 60..200, 0 = 96) and figures. NULL with *err for an unknown tour or a design that does not
 * load; caller frees both. */
char *tour_print(const char *name, int width, char **err);

#endif
