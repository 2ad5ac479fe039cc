/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_ERROR_H
#define KVR_COMMON_ERROR_H

#include <errno.h>
#include <stddef.h>

#include "shm_layout/shm_error.h"

/*
 * Functions return 0 or a negative code. Codes above -KVR_ERR_BASE are
 * negative errno values (liburing's cqe->res speaks the same); codes at or
 * below it are kvroute's own, for failures errno has no word for.
 */
#define KVR_ERR_BASE 4000

enum kvr_err {
    /* -(KVR_ERR_BASE + 1) .. -(KVR_ERR_BASE + 19): the segment's, in shm_layout/shm_error.h */
    KVR_EPARSE = -(KVR_ERR_BASE + 20), /* malformed input */
    KVR_ETLS = -(KVR_ERR_BASE + 21),   /* a TLS handshake or record failed */
    KVR_ERR_LAST = -(KVR_ERR_BASE + 99),
};

/** Text for a code returned by any kvroute function (negative errno or enum kvr_err). */
const char *kvr_strerror(int code);

#endif
