/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_XMALLOC_H
#define KVR_COMMON_XMALLOC_H

#include <stddef.h>

/*
 * Allocation on the request path: out of memory there has no useful answer,
 * so it aborts with one log line. Start-up and config code use malloc and
 * return -ENOMEM instead.
 */
void *kvr_xmalloc(size_t size);
void *kvr_xcalloc(size_t count, size_t size);
void *kvr_xrealloc(void *ptr, size_t size);
char *kvr_xstrdup(const char *s);
char *kvr_xstrndup(const char *s, size_t n);

#endif
