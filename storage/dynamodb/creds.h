/* creds.h - the AWS credentials and region a DynamoDB client signs with.
 *
 * Credentials come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, else
 * from the shared credentials file (AWS_SHARED_CREDENTIALS_FILE or ~/.aws/credentials, profile
 * AWS_PROFILE or "default"). The region from the option, AWS_REGION, AWS_DEFAULT_REGION, the
 * profile's region in ~/.aws/config (AWS_CONFIG_FILE), else us-east-1. Secrets are never
 * printed; creds_free wipes them. */
#ifndef KP_CREDS_H
#define KP_CREDS_H

#include "util.h"

typedef struct kp_creds {
    char *access_key;
    char *secret_key;
    char *session_token; /* NULL when none */
    char *region;
} kp_creds;

/* Finds the credentials and the region as described above (region_opt wins when given).
 * KP_NOTFOUND with *err set (caller frees; err may be NULL) when no credentials are found; *c
 * is then empty. Release with creds_free (which also wipes the secrets). */
kp_status creds_load(kp_creds *c, const char *region_opt, char **err);
void creds_free(kp_creds *c);

/* Overwrites a secret with zeros, then frees it. NULL is ignored. */
void creds_wipe_free(char *s);

#endif
