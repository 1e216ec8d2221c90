/* exchange.c - dispatch of the exchange formats (exports by name, imports by content). */
#include "exchange.h"

#include "cfn.h"
#include "csvio.h"
#include "design_io.h"
#include "fileio.h"
#include "i18n.h"
#include "nosqlwb.h"
#include "requests.h"

#include <stdlib.h>
#include <string.h>

static const char *const FORMATS[] = {"cfn", "nosqlwb", "csv", "requests", "items"};

bool exchange_has_format(const char *format)
{
    for (size_t i = 0; format && i < sizeof FORMATS / sizeof *FORMATS; i++)
        if (strcmp(format, FORMATS[i]) == 0)
            return true;
    return false;
}

char *exchange_export(const kp_design *d, const kp_analysis *a, const char *format, char **err)
{
    *err = NULL;
    if (!format || !exchange_has_format(format)) {
        *err = xasprintf(_("unknown export format '%s'; expected one of cfn, nosqlwb, csv, requests, items"),
                         format ? format : "");
        return NULL;
    }
    if (!strcmp(format, "cfn"))
        return cfn_export(d, a, err);
    if (!strcmp(format, "nosqlwb"))
        return nosqlwb_export(d, a, err);
    if (!strcmp(format, "csv"))
        return csvio_export(d, err);
    if (!strcmp(format, "requests"))
        return requests_export(d, a, err);
    return items_export(d, err);
}

/* JSON when the first meaningful character opens an object or array; else CSV. */
static bool looks_json(const char *text, size_t len)
{
    size_t i = 0;
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
        i = 3;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    return i < len && (text[i] == '{' || text[i] == '[');
}

static kp_design *exchange_import_string(const char *text, size_t len, const char *name, kp_diags *diags)
{
    if (!diags->file && name)
        diags->file = xstrdup(name);
    size_t bad;
    if (!util_utf8_valid(text, len, &bad)) {
        kp_loc loc = util_loc_of(text, len, bad);
        diags_add(diags, KP_ENCODING, loc, _("invalid UTF-8 (byte 0x%02X); expected UTF-8 text"),
                  (unsigned char)text[bad]);
        return NULL;
    }
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    if (i == len || (len == 3 && !memcmp(text, "\xEF\xBB\xBF", 3))) {
        diags_add(diags, KP_EMPTY, (kp_loc){0, 0},
                  _("the file is empty; expected a NoSQL Workbench model (JSON) or a CSV pattern table"));
        return NULL;
    }
    if (looks_json(text, len)) {
        bool bom = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3);
        return nosqlwb_import(text + (bom ? 3 : 0), len - (bom ? 3 : 0), name, diags);
    }
    return csvio_import(text, len, name, diags);
}

kp_design *exchange_import_file(const char *path, kp_diags *diags)
{
    if (!diags->file)
        diags->file = xstrdup(path);
    char *err = NULL;
    size_t len = 0;
    char *text = fileio_read(path, &len, &err);
    if (!text) {
        /* fileio's message already names the file */
        diags_add(diags, KP_IO, (kp_loc){0, 0}, "%s", fileio_reason(path, err));
        free(err);
        return NULL;
    }
    kp_design *d = exchange_import_string(text, len, diags->file, diags);
    free(text);
    return d;
}

/* The offset of the first meaningful byte after a UTF-8 BOM and blanks. */
static size_t content_start(const char *text, size_t len)
{
    size_t i = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    while (i < len && strchr(" \t\r\n", text[i]))
        i++;
    return i;
}

kp_design *exchange_import_table(const char *path, const char *table, kp_diags *diags, char **err)
{
    const char *label = strcmp(path, "-") ? path : "<stdin>";
    *err = NULL;
    size_t len = 0;
    char *text = fileio_read(path, &len, err);
    if (!text)
        return NULL;
    kp_design *d = NULL;
    size_t bom = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    size_t j = content_start(text, len);
    if (j < len && (text[j] == '{' || text[j] == '['))
        d = nosqlwb_import_table(text + bom, len - bom, label, table, diags);
    else
        *err = xasprintf("%s: error: %s", label,
                         _("--table takes a NoSQL Workbench model (JSON); this is not JSON"));
    free(text);
    return d;
}

kp_design *exchange_import_into(const char *path, const char *into, kp_diags *design_diags,
                                kp_diags *table_diags, char **err)
{
    *err = NULL;
    kp_design *d = designio_load_file(into, design_diags);
    if (!d)
        return NULL;
    size_t len = 0;
    char *text = fileio_read(path, &len, err);
    if (!text) {
        design_free(d);
        return NULL;
    }
    size_t i = content_start(text, len);
    if (i < len && (text[i] == '{' || text[i] == '[')) {
        *err = xasprintf(
            "%s: error: --into takes a CSV pattern table; this is JSON (import it without --into)", path);
        free(text);
        design_free(d);
        return NULL;
    }
    kp_pattern *pats = NULL;
    size_t n = 0;
    kp_status st = csvio_read_patterns(text, len, path, table_diags, &pats, &n);
    free(text);
    if (st != KP_OK) {
        design_free(d);
        return NULL;
    }
    for (size_t k = 0; k < d->npatterns; k++)
        pattern_free(&d->patterns[k]);
    free(d->patterns);
    d->patterns = pats;
    d->npatterns = n;
    return d;
}

exchange_roundtrip exchange_import_roundtrip(const kp_design *d, kp_diags *diags)
{
    char *err = NULL;
    char *yaml = designio_save(d, &err);
    if (!yaml) {
        diags_add(diags, KP_INVALID, (kp_loc){0, 0}, _("the imported design cannot be saved as YAML: %s"),
                  err);
        free(err);
        return EXCHANGE_NO_LOAD;
    }
    kp_design *back = designio_load_string(yaml, strlen(yaml), _("the imported design"), diags);
    exchange_roundtrip r = !back                   ? EXCHANGE_NO_LOAD
                           : design_equal(back, d) ? EXCHANGE_SAME
                                                   : EXCHANGE_DIFFERENT;
    design_free(back);
    free(yaml);
    return r;
}
