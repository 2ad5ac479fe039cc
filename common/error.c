/* SPDX-License-Identifier: Apache-2.0 */
#include "common/error.h"

#include <string.h>

const char *kvr_strerror(int code)
{
    switch (code) {
    case 0: return "success";
    case KVR_ESHM_MAGIC: return "bad magic: not a kvroute state segment";
    case KVR_ESHM_MAJOR: return "incompatible ABI major version";
    case KVR_ESHM_TRUNCATED: return "object smaller than the segment header";
    case KVR_ESHM_CAPACITY: return "slot capacity does not fit the mapping";
    case KVR_ESHM_SLOT_SIZE: return "slot size differs from this build's";
    case KVR_ESHM_STALE: return "writer heartbeat older than the max age";
    case KVR_ESHM_ENGINE_ID: return "engine id is not NUL-terminated";
    case KVR_ESHM_HEADER_SIZE: return "header size smaller than this ABI's header";
    case KVR_ESHM_WRITER_GONE: return "writer has stopped";
    case KVR_ESHM_BUSY: return "slot kept changing during the read (writer busy or died mid-write)";
    case KVR_EPARSE: return "malformed input";
    default: break;
    }
    if (code < 0 && code > -KVR_ERR_BASE)
        return strerror(-code);
    return "unknown error";
}
