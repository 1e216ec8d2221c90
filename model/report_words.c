/* report_words.c - the analysis's words in the reader's language. See report_words.h. */
#include "report_words.h"

#include "i18n.h"

#include <string.h>

const char *report_plan_word(kp_plan p)
{
    switch (p) {
    case KP_PLAN_GET:
        return P_("plan", "get");
    case KP_PLAN_QUERY:
        return P_("plan", "query");
    case KP_PLAN_MULTI:
        return P_("plan", "multi");
    case KP_PLAN_SCAN:
        return P_("plan", "scan");
    case KP_PLAN_OUTSIDE:
        return P_("plan", "outside");
    case KP_PLAN_COVERED:
        return P_("plan", "covered");
    case KP_PLAN_WRITE:
        return P_("plan", "write");
    case KP_PLAN_TRANSACT:
        return P_("plan", "transact");
    case KP_PLAN_INVALID:
        return P_("plan", "invalid");
    default:
        return kp_plan_word(p);
    }
}

const char *report_cost_name(const char *name)
{
    if (!name)
        return "";
    const char *const keys[] = {"reads",   "writes",  "index writes",      "storage",
                                "streams", "backups", "replicated writes", "replica storage",
                                "transfer"};
    const char *const texts[] = {P_("cost line", "reads"),
                                 P_("cost line", "writes"),
                                 P_("cost line", "index writes"),
                                 P_("cost line", "storage"),
                                 P_("cost line", "streams"),
                                 P_("cost line", "backups"),
                                 P_("cost line", "replicated writes"),
                                 P_("cost line", "replica storage"),
                                 P_("cost line", "transfer")};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strcmp(name, keys[i]) == 0)
            return texts[i];
    return name;
}

const char *report_severity(kp_severity s)
{
    switch (s) {
    case KP_SEV_ERROR:
        return P_("severity", "error");
    case KP_SEV_WARNING:
        return P_("severity", "warning");
    default:
        return P_("severity", "note");
    }
}

const char *report_billing_name(kp_billing b)
{
    return b == KP_BILLING_PROVISIONED ? P_("billing", "provisioned") : P_("billing", "on-demand");
}
