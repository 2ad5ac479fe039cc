/* SPDX-License-Identifier: Apache-2.0 */
/* Source "loads": SGLang's GET /v1/loads?include=core, per DP rank. */
#include "common/error.h"
#include "common/sglang_loads.h"
#include "statefeed/feed.h"

int kvr_feed_loads_parse(const char *body, size_t len, kvr_engine_state_t *out, const char **reason)
{
    const char *why = NULL;
    int rc = kvr_sglang_loads_parse(body, len, out, &why);
    if (rc < 0)
        *reason = why != NULL ? why : "loads answer rejected";
    return rc;
}
