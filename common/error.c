/* SPDX-License-Identifier: Apache-2.0 */
#include "common/error.h"

#include <string.h>

const char *kvr_strerror(int code)
{
    switch (code) {
    case 0: return "success";
    case KVR_EPARSE: return "malformed input";
    case KVR_ETLS: return "TLS failed (handshake or certificate)";
    default: break;
    }
    const char *segment = kvr_shm_strerror(code);
    if (segment != NULL)
        return segment;
    if (code < 0 && code > -KVR_ERR_BASE)
        return strerror(-code);
    return "unknown error";
}
