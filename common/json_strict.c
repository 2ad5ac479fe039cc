/* SPDX-License-Identifier: Apache-2.0 */
#include "common/json_strict.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"
#include "common/xmalloc.h"

static void push(const cJSON ***list, size_t *n, const cJSON *node)
{
    /* Powers of two: the list grows by doubling. */
    if ((*n & (*n - 1)) == 0)
        *list = kvr_xrealloc((void *)*list, (*n ? *n * 2 : 1) * sizeof **list);
    (*list)[(*n)++] = node;
}

/*
 * The common case, a body with neither, costs one memmem and one memchr:
 * about an eighth of cJSON's parse of the same body (kvroute-bench-keys,
 * strict_us); a memchr for every backslash took twice that on chat text
 * full of \n and \".
 */
static bool may_hold_nul(const char *body, size_t len)
{
    return memmem(body, len, "\\u0000", 6) != NULL || memchr(body, '\0', len) != NULL;
}

/*
 * The numbers, in text order, of the strings (keys included) that decode
 * to a U+0000. cJSON builds its tree in text order, key before value, so
 * counting strings along the tree finds the same ones.
 */
static size_t nul_string_numbers(const char *p, const char *end, size_t **out)
{
    size_t n = 0, number = 0;
    *out = NULL;
    while ((p = memchr(p, '"', (size_t)(end - p))) != NULL) {
        bool nul = false;
        for (p++; p < end && *p != '"';) {
            if (*p != '\\') {
                nul |= *p == '\0'; /* a raw NUL: cJSON copies it and its string ends there */
                p++;
                continue;
            }
            if (end - p >= 6 && p[1] == 'u' && memcmp(p + 2, "0000", 4) == 0)
                nul = true;
            p += end - p >= 2 && p[1] == 'u' ? 6 : 2;
        }
        if (p >= end)
            break;
        p++;
        if (nul) {
            if ((n & (n - 1)) == 0)
                *out = kvr_xrealloc(*out, (n ? n * 2 : 1) * sizeof **out);
            (*out)[n++] = number;
        }
        number++;
    }
    return n;
}

typedef struct walk_s {
    kvr_json_strict_t *s;
    const size_t *numbers;
    size_t n, next, count;
} walk_t;

static void count_string(walk_t *w, const cJSON *node, bool key)
{
    if (w->next < w->n && w->numbers[w->next] == w->count) {
        if (key)
            push(&w->s->nul_keys, &w->s->n_nul_keys, node);
        else
            push(&w->s->nul_strings, &w->s->n_nul_strings, node);
        w->next++;
    }
    w->count++;
}

static void walk(walk_t *w, const cJSON *node)
{
    if (cJSON_IsString(node)) {
        count_string(w, node, false);
        return;
    }
    if (!cJSON_IsArray(node) && !cJSON_IsObject(node))
        return;
    bool object = cJSON_IsObject(node);
    /* Depth is bounded by cJSON's nesting limit. */
    for (const cJSON *c = node->child; c && w->next < w->n; c = c->next) {
        if (object)
            count_string(w, c, true);
        walk(w, c);
    }
}

static int compare_nodes(const void *a, const void *b)
{
    const cJSON *const *x = a, *const *y = b;
    return (uintptr_t)*x < (uintptr_t)*y ? -1 : (uintptr_t)*x > (uintptr_t)*y;
}

void kvr_json_strict_init(kvr_json_strict_t *s, const cJSON *root, const char *body, size_t len)
{
    memset(s, 0, sizeof *s);
    if (!root || !body || !may_hold_nul(body, len))
        return;
    size_t *numbers;
    size_t n = nul_string_numbers(body, body + len, &numbers);
    walk_t w = {.s = s, .numbers = numbers, .n = n};
    walk(&w, root);
    free(numbers);
    /* Sorted, so that a body with many such strings costs a search per key read, not a scan. */
    if (s->n_nul_keys > 1)
        qsort((void *)s->nul_keys, s->n_nul_keys, sizeof *s->nul_keys, compare_nodes);
    if (s->n_nul_strings > 1)
        qsort((void *)s->nul_strings, s->n_nul_strings, sizeof *s->nul_strings, compare_nodes);
}

void kvr_json_strict_close(kvr_json_strict_t *s)
{
    free((void *)s->nul_keys);
    free((void *)s->nul_strings);
    memset(s, 0, sizeof *s);
}

static bool listed(const cJSON *const *list, size_t n, const cJSON *node)
{
    return n > 0 && bsearch(&node, list, n, sizeof *list, compare_nodes) != NULL;
}

int kvr_json_strict_member(const kvr_json_strict_t *s, const cJSON *obj, const char *name,
                           const cJSON **out, const char **why)
{
    *out = NULL;
    if (!cJSON_IsObject(obj))
        return 0;
    const cJSON *found = NULL;
    for (const cJSON *c = obj->child; c; c = c->next) {
        if (!c->string || strcmp(c->string, name) != 0)
            continue;
        if (listed(s->nul_keys, s->n_nul_keys, c)) {
            *why = "is a key holding \\u0000";
            return -EINVAL;
        }
        if (found) {
            *why = "appears twice (JSON readers differ on which one counts)";
            return -EINVAL;
        }
        found = c;
    }
    *out = found;
    return 0;
}

int kvr_json_strict_string(const kvr_json_strict_t *s, const cJSON *v, bool utf8, const char **why)
{
    if (listed(s->nul_strings, s->n_nul_strings, v)) {
        *why = "holds \\u0000";
        return -EINVAL;
    }
    if (utf8 && cJSON_IsString(v) && v->valuestring) {
        size_t len = strlen(v->valuestring);
        if (kvr_json_utf8_valid_prefix(v->valuestring, len) != len) {
            *why = "is not valid UTF-8";
            return -EINVAL;
        }
    }
    return 0;
}

/*
 * The spans of the number tokens outside strings, in text order. cJSON
 * starts a number at any of "-+.0123456789" where a value begins (a digit
 * appears nowhere else outside strings: true, false and null hold none) and
 * reads the run of number characters after it.
 */
typedef struct span_s {
    const char *start;
    size_t len;
} span_t;

static size_t number_spans(const char *p, const char *end, span_t **out)
{
    size_t n = 0;
    *out = NULL;
    while (p < end) {
        char c = *p;
        if (c == '"') {
            for (p++; p < end && *p != '"'; p += *p == '\\' ? 2 : 1)
                ;
            p++;
            continue;
        }
        if (!memchr("-+.0123456789", c, 13)) {
            p++;
            continue;
        }
        const char *start = p;
        while (p < end && memchr("-+.0123456789eE", *p, 15))
            p++;
        if ((n & (n - 1)) == 0)
            *out = kvr_xrealloc(*out, (n ? n * 2 : 1) * sizeof **out);
        (*out)[n++] = (span_t){start, (size_t)(p - start)};
    }
    return n;
}

static size_t count_numbers(const cJSON *node)
{
    if (cJSON_IsNumber(node))
        return 1;
    size_t n = 0;
    for (const cJSON *c = node->child; c; c = c->next) /* depth: cJSON's nesting limit */
        n += count_numbers(c);
    return n;
}

/* False when cJSON is out of memory: the nodes done print as written, the rest as cJSON does. */
static bool keep_numbers(cJSON *node, const span_t *spans, size_t *next)
{
    for (cJSON *c = node->child, *after; c; c = after) {
        after = c->next;
        if (!cJSON_IsNumber(c)) {
            if (!keep_numbers(c, spans, next))
                return false;
            continue;
        }
        const span_t *sp = &spans[(*next)++];
        char *text = kvr_xstrndup(sp->start, sp->len);
        cJSON *raw = cJSON_CreateRaw(text);
        free(text);
        if (!raw)
            return false;
        raw->string = c->string; /* the key moves to the raw node, which takes c's place */
        raw->type |= c->type & cJSON_StringIsConst;
        c->string = NULL;
        cJSON_ReplaceItemViaPointer(node, c, raw);
    }
    return true;
}

int kvr_json_strict_keep_numbers(cJSON *root, const char *body, size_t len)
{
    if (!root || !body || !(cJSON_IsObject(root) || cJSON_IsArray(root)))
        return root && cJSON_IsNumber(root) ? -EINVAL : 0;
    span_t *spans;
    size_t n = number_spans(body, body + len, &spans);
    int rc;
    if (n != count_numbers(root)) {
        rc = -EINVAL;
    } else {
        size_t next = 0;
        rc = keep_numbers(root, spans, &next) ? (int)n : -ENOMEM;
    }
    free(spans);
    return rc;
}
