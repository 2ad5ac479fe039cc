/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An engine's /metrics page: the Prometheus text parser, then the engine
 * state built from it for every kind, as statefeed's scrape source does,
 * and the sample-by-sample accumulator the router feeds, which must agree
 * with it whenever the whole page parses.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/engine_metrics.h"
#include "common/error.h"
#include "common/prom.h"

static int count_sample(const kvr_prom_sample_t *sample, void *arg)
{
    if (!sample->name || sample->label_count > KVR_PROM_MAX_LABELS)
        abort();
    (*(size_t *)arg)++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    size_t samples = 0;
    kvr_prom_error_t err;
    int whole_rc = kvr_prom_parse(text, size, count_sample, &samples, &err);
    if (whole_rc != 0 && (whole_rc != KVR_EPARSE || !err.reason))
        abort();

    kvr_engine_state_t state, before;
    memset(&state, 0x5a, sizeof state);
    before = state;
    kvr_engine_kind_t kind;
    int rc = kvr_engine_metrics_parse(text, size, &state, &kind, &err);
    if (rc != 0) {
        if ((rc != KVR_EPARSE && rc != -ENODATA) || !err.reason ||
            memcmp(&state, &before, sizeof state) != 0)
            abort(); /* a refusal says why and touches nothing */
    } else if (!(state.kv_usage >= 0 && state.kv_usage <= 1) ||
               !(state.utilization >= 0 && state.utilization <= 1) || state.dp_ranks == 0) {
        abort();
    }

    /* The accumulator over an unfiltered parse: when it accepts, the filtered parse agrees. */
    kvr_engine_metrics_t *m = malloc(sizeof *m);
    if (!m)
        return 0;
    kvr_engine_metrics_init(m);
    kvr_engine_state_t fed = before;
    if (kvr_prom_parse(text, size, kvr_engine_metrics_sample, m, &err) == 0 &&
        kvr_engine_metrics_finish(m, &fed, NULL) == 0 &&
        (rc != 0 || memcmp(&fed, &state, sizeof fed) != 0))
        abort();
    free(m);
    return 0;
}
