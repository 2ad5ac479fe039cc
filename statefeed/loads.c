/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Source "loads": SGLang's GET /v1/loads?include=core, per DP rank, the only
 * poll that carries batch caps. An SGLang without it (older versions, or a
 * router in front) answers 404; the engine is then scraped on /metrics, caps
 * incomplete, and /v1/loads is tried again now and then, since an engine
 * restarting into a newer version should not stay on the poorer source.
 */
#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "common/sglang_loads.h"
#include "statefeed/feed.h"

#define LOADS_RETRY_NS (30ull * KVR_NS_PER_SEC)

int kvr__feed_loads_parse(const char *body, size_t len, kvr_engine_state_t *out,
                          const char **reason)
{
    const char *why = NULL;
    int rc = kvr_sglang_loads_parse(body, len, out, &why);
    if (rc < 0)
        *reason = why != NULL ? why : "loads answer rejected";
    return rc;
}

bool kvr__feed_loads_wanted(kvr__feed_engine_t *engine, uint64_t now_ns)
{
    if (engine->kind != KVR_FEED_KIND_SGLANG)
        return false;
    if (engine->loads_unsupported && now_ns >= engine->loads_retry_ns) {
        engine->loads_unsupported = false;
        KVR_DEBUG("loads_retry engine=%s", engine->id);
    }
    return !engine->loads_unsupported;
}

bool kvr__feed_loads_fallback(kvr__feed_engine_t *engine, int status, uint64_t now_ns)
{
    if (status != 404 && status != 405 && status != 400 && status != 501)
        return false;
    if (engine->loads_retry_ns == 0)
        KVR_WARN("loads_unsupported engine=%s status=%d fallback=/metrics caps=incomplete",
                 engine->id, status);
    engine->loads_unsupported = true;
    engine->loads_retry_ns = now_ns + LOADS_RETRY_NS;
    return true;
}
