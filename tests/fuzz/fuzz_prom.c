/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An engine's /metrics page: the Prometheus text parser, then the engine
 * state built from it for every kind, as statefeed's scrape source does.
 */
#include <stddef.h>
#include <stdint.h>

#include "common/engine_metrics.h"
#include "common/prom.h"

static int count_sample(const kvr_prom_sample_t *sample, void *arg)
{
    (void)sample;
    (*(size_t *)arg)++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t samples = 0;
    kvr_prom_error_t err;
    (void)kvr_prom_parse((const char *)data, size, count_sample, &samples, &err);
    kvr_engine_state_t state;
    kvr_engine_kind_t kind;
    (void)kvr_engine_metrics_parse((const char *)data, size, &state, &kind, &err);
    return 0;
}
