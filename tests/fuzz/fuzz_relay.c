/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A relay peer's bytes, as the importer and the exporter take them: the
 * input as one frame body (table, or challenge, hello, welcome), then as a stream of
 * length-prefixed frames whose bodies go to the table decoder.
 */
#include <stddef.h>
#include <stdint.h>

#include "statefeed/relay_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void table(const uint8_t *data, size_t size)
{
    kvr__relay_table_t t;
    if (kvr__relay_table_decode(data, size, &t, NULL) == 0) {
        for (uint32_t i = 0; i < t.count; i++)
            if (t.entries[i].frame.state.engine_id[0] == '\0')
                __builtin_trap(); /* a decoded entry always names its engine */
        kvr__relay_table_free(&t);
    } else if (t.entries != NULL || t.count != 0) {
        __builtin_trap(); /* a failed decode leaves nothing to free */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    table(data, size);
    kvr__relay_handshake_t h;
    if (kvr__relay_handshake_decode(data, size, &h, NULL) != 0 && (h.has_nonce || h.has_mac))
        __builtin_trap(); /* a refused handshake claims nothing */

    size_t off = 0;
    while (size - off >= KVR_RELAY_HEADER) {
        uint32_t n = 0;
        if (kvr__relay_frame_length(data + off, KVR_RELAY_FRAME_MAX, &n) < 0 ||
            n > size - off - KVR_RELAY_HEADER)
            break;
        table(data + off + KVR_RELAY_HEADER, n);
        off += KVR_RELAY_HEADER + (size_t)n;
    }
    return 0;
}
