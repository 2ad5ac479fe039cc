/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Source "scrape": a vLLM or SGLang Prometheus /metrics page. The page is
 * mostly histograms the feed does not publish; kvr_engine_metrics_parse skips
 * those families by name, which keeps a 20 Hz scrape cheap.
 */
#include <errno.h>

#include "common/engine_metrics.h"
#include "common/error.h"
#include "statefeed/feed.h"

int kvr__feed_scrape_parse(const char *body, size_t len, kvr_engine_state_t *out,
                           const char **reason)
{
    kvr_engine_kind_t kind = KVR_ENGINE_KIND_UNKNOWN;
    kvr_prom_error_t err = {0, NULL};
    kvr_engine_state_t state = *out;
    int rc = kvr_engine_metrics_parse(body, len, &state, &kind, &err);
    if (rc == -ENODATA) {
        *reason = "no running/waiting gauge on the page";
        return rc;
    }
    if (rc < 0) {
        *reason = err.reason != NULL ? err.reason : "metrics page rejected";
        return rc;
    }
    /* A page carries no batch caps: a scrape-only engine is never caps complete. */
    state.flags &= ~KVR_SLOT_CAPS_COMPLETE;
    *out = state;
    return 0;
}
