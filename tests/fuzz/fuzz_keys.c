/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A client's request body, through the routing keys extraction exactly as
 * the router runs it (default --session-keys, no session header): either a
 * 400 with a reason, or keys whose sizes agree with each other and whose
 * model and session id are UTF-8 (a body read two ways is a 400).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"
#include "common/prefix_hash.h"
#include "router/keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kvr_keys_config_t cfg;
    kvr_keys_config_defaults(&cfg);
    kvr_route_keys_t keys;
    char err[256] = "";
    int rc = kvr_keys_extract(&cfg, (const char *)data, size, NULL, &keys, err, sizeof err);
    if (rc != 0) {
        if (rc != -EINVAL || err[0] == '\0')
            abort(); /* a 400 needs its reason */
        return 0;
    }
    if (!keys.text || strlen(keys.text) != keys.text_len ||
        keys.n_blocks != keys.text_len / KVR_PREFIX_BLOCK_BYTES || keys.prompt_tokens == 0 ||
        (keys.session_id &&
         (keys.session_id[0] == '\0' || strlen(keys.session_id) >= KVR_SESSION_ID_MAX)))
        abort();
    /* Keys routed on are ones every reader reads alike (no header here: both come from the body). */
    if ((keys.model &&
         kvr_json_utf8_valid_prefix(keys.model, strlen(keys.model)) != strlen(keys.model)) ||
        (keys.session_id && kvr_json_utf8_valid_prefix(keys.session_id, strlen(keys.session_id)) !=
                                strlen(keys.session_id)))
        abort();
    kvr_keys_free(&keys);
    return 0;
}
