/* yamlout.c - the one wrapper around libyaml's emitter. */
#include "yamlout.h"
#include "i18n.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int write_cb(void *data, unsigned char *buf, size_t size)
{
    sbuf_addn(&((yamlout *)data)->out, (const char *)buf, size);
    return 1;
}

static void fail(yamlout *o, const char *what)
{
    if (!o->failed)
        o->problem = xstrdup(what);
    o->failed = true;
}

/* Emits an initialised event (libyaml takes ownership, also on failure). */
static void emit(yamlout *o, yaml_event_t *ev)
{
    if (o->failed) {
        yaml_event_delete(ev);
        return;
    }
    if (!yaml_emitter_emit(&o->e, ev))
        fail(o, o->e.problem ? o->e.problem : _("the YAML emitter failed"));
}

void yamlout_open(yamlout *o, int indent, int width)
{
    memset(o, 0, sizeof *o);
    sbuf_init(&o->out);
    if (!yaml_emitter_initialize(&o->e)) {
        memset(&o->e, 0, sizeof o->e); /* yaml_emitter_delete of a zeroed emitter does nothing */
        fail(o, _("cannot start the YAML emitter"));
        return;
    }
    yaml_emitter_set_output(&o->e, write_cb, o);
    yaml_emitter_set_unicode(&o->e, 1);
    yaml_emitter_set_indent(&o->e, indent ? indent : 2);
    yaml_emitter_set_width(&o->e, width);
    yaml_emitter_set_break(&o->e, YAML_LN_BREAK);
    yaml_event_t ev;
    yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
    emit(o, &ev);
    yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
    emit(o, &ev);
}

void yamlout_scalar(yamlout *o, const char *s, yaml_scalar_style_t style)
{
    if (o->failed)
        return;
    if (!s)
        s = "";
    yaml_event_t ev;
    if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1, style)) {
        fail(o, _("a scalar that is not UTF-8 text"));
        return;
    }
    emit(o, &ev);
}

void yamlout_map(yamlout *o, bool flow)
{
    yaml_event_t ev;
    yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
                                        flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
    emit(o, &ev);
}

void yamlout_map_end(yamlout *o)
{
    yaml_event_t ev;
    yaml_mapping_end_event_initialize(&ev);
    emit(o, &ev);
}

void yamlout_seq(yamlout *o, bool flow)
{
    yaml_event_t ev;
    yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
                                         flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
    emit(o, &ev);
}

void yamlout_seq_end(yamlout *o)
{
    yaml_event_t ev;
    yaml_sequence_end_event_initialize(&ev);
    emit(o, &ev);
}

void yamlout_free(yamlout *o)
{
    yaml_emitter_delete(&o->e);
    sbuf_free(&o->out);
    free(o->problem);
    memset(o, 0, sizeof *o);
}

char *yamlout_finish(yamlout *o, char **err)
{
    yaml_event_t ev;
    yaml_document_end_event_initialize(&ev, 1);
    emit(o, &ev);
    yaml_stream_end_event_initialize(&ev);
    emit(o, &ev);
    if (!o->failed && !yaml_emitter_flush(&o->e))
        fail(o, o->e.problem ? o->e.problem : _("the YAML emitter failed"));
    char *text = NULL;
    if (!o->failed)
        text = sbuf_steal(&o->out);
    else
        kp_fail(err, KP_INVALID, _("YAML emitter: %s"), o->problem);
    yamlout_free(o);
    return text;
}

bool yamlout_typed(const char *s)
{
    static const char *const words[] = {"null", "~", "true", "false", "yes", "no", "on", "off", "y", "n"};
    if (!s || !*s)
        return true;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (!strcasecmp(s, words[i]))
            return true;
    char *end;
    (void)strtod(s, &end);
    if (end != s && *end == '\0')
        return true;
    const char *t = s + (*s == '+' || *s == '-');
    if (!strcasecmp(t, ".inf") || !strcasecmp(t, ".nan") || !strncasecmp(t, "0x", 2) ||
        !strncasecmp(t, "0o", 2))
        return true;
    /* a YAML 1.1 timestamp: 2010-09-09 (and what follows it) */
    bool date = strlen(s) >= 10 && s[4] == '-' && s[7] == '-';
    for (int i = 0; date && i < 10; i++)
        date = i == 4 || i == 7 || isdigit((unsigned char)s[i]);
    return date;
}

void yamlout_text(yamlout *o, const char *s)
{
    yamlout_scalar(o, s, yamlout_typed(s) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
}
