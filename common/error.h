/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_ERROR_H
#define KVR_COMMON_ERROR_H

#include <errno.h>
#include <stddef.h>

/*
 * Functions return 0 or a negative code. Codes above -KVR_ERR_BASE are
 * negative errno values (liburing's cqe->res speaks the same); codes at or
 * below it are kvroute's own, for failures errno has no word for.
 */
#define KVR_ERR_BASE 4000

enum kvr_err {
    KVR_ESHM_MAGIC = -(KVR_ERR_BASE + 1),     /* segment: bad magic (not a kvroute segment) */
    KVR_ESHM_MAJOR = -(KVR_ERR_BASE + 2),     /* segment: another ABI major version */
    KVR_ESHM_TRUNCATED = -(KVR_ERR_BASE + 3), /* segment: object smaller than its header */
    KVR_ESHM_CAPACITY = -(KVR_ERR_BASE + 4),  /* segment: capacity does not fit the mapping */
    KVR_ESHM_SLOT_SIZE = -(KVR_ERR_BASE + 5), /* segment: slot size differs from this build */
    KVR_ESHM_STALE = -(KVR_ERR_BASE + 6),     /* segment: writer heartbeat older than max age */
    KVR_ESHM_ENGINE_ID = -(KVR_ERR_BASE + 7), /* segment: engine id not NUL-terminated */
    KVR_ESHM_HEADER_SIZE = -(KVR_ERR_BASE + 8), /* segment: header size smaller than this ABI's */
    KVR_ESHM_WRITER_GONE = -(KVR_ERR_BASE + 9), /* segment: writer stopped */
    KVR_ESHM_BUSY = -(KVR_ERR_BASE + 10),     /* segment: slot kept changing (writer busy or dead mid-write) */
    KVR_EPARSE = -(KVR_ERR_BASE + 20),        /* malformed input */
    KVR_ERR_LAST = -(KVR_ERR_BASE + 99),
};

/** Text for a code returned by any kvroute function (negative errno or enum kvr_err). */
const char *kvr_strerror(int code);

#endif
