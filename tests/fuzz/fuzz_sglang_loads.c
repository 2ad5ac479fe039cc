/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An SGLang /v1/loads or /get_load answer, as statefeed's loads source
 * parses it on every poll: a refusal leaves the state as it was, and an
 * accepted answer holds only numbers the router can route on.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/sglang_loads.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kvr_engine_state_t state, before;
    memset(&state, 0x5a, sizeof state);
    before = state;
    const char *reason = NULL;
    int rc = kvr_sglang_loads_parse((const char *)data, size, &state, &reason);
    if (rc != 0) {
        if (rc != KVR_EPARSE || !reason || memcmp(&state, &before, sizeof state) != 0)
            abort(); /* a refusal says why and touches nothing */
        return 0;
    }
    if (state.dp_ranks == 0 || !(state.kv_usage >= 0 && state.kv_usage <= 1) ||
        !(state.utilization >= 0 && state.utilization <= 1) ||
        (!(state.flags & KVR_SLOT_HAS_PENDING_PREFILL) && state.pending_prefill_tokens != 0))
        abort();
    return 0;
}
