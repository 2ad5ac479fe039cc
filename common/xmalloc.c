/* SPDX-License-Identifier: Apache-2.0 */
#include "common/xmalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t size)
{
    fprintf(stderr, "kvroute: out of memory allocating %zu bytes\n", size);
    abort();
}

void *kvr_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

void *kvr_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(count * size);
    return p;
}

void *kvr_xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

char *kvr_xstrndup(const char *s, size_t n)
{
    char *p = kvr_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *kvr_xstrdup(const char *s)
{
    return kvr_xstrndup(s, strlen(s));
}
