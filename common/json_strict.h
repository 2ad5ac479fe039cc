/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_JSON_STRICT_H
#define KVR_COMMON_JSON_STRICT_H

/*
 * What two JSON readers can read differently, for the keys a program acts
 * on. cJSON takes the first of duplicate members where Python's json takes
 * the last, and its strings are C strings, so "m\u0000x" (or a raw NUL byte
 * inside the quotes) reads as "m" here and as three characters in an engine.
 * A key both readers must agree on is looked up here: a duplicate, a key or
 * value holding U+0000, or bytes that are not UTF-8, is reported instead of
 * guessed at.
 */

#include <stdbool.h>
#include <stddef.h>

struct cJSON;

typedef struct kvr_json_strict_s {
    const struct cJSON **nul_keys; /* members whose key holds U+0000 */
    size_t n_nul_keys;
    const struct cJSON **nul_strings; /* string values that hold U+0000 */
    size_t n_nul_strings;
} kvr_json_strict_t;

/**
 * Notes which keys and strings of root hold U+0000; root is cJSON's parse
 * of exactly [body, body + len) (trailing data already refused). Nothing is
 * allocated unless the text has a \u0000 escape or a raw NUL byte; aborts on
 * out of memory.
 */
void kvr_json_strict_init(kvr_json_strict_t *s, const struct cJSON *root, const char *body,
                          size_t len);
/** Frees what kvr_json_strict_init noted. */
void kvr_json_strict_close(kvr_json_strict_t *s);

/**
 * The member name of obj in *out (NULL when absent or obj is no object).
 * Returns 0, or -EINVAL with a reason in *why when name appears twice or
 * under a key holding U+0000.
 */
int kvr_json_strict_member(const kvr_json_strict_t *s, const struct cJSON *obj, const char *name,
                           const struct cJSON **out, const char **why);

/** 0 when the string value v holds no U+0000 (utf8: and is UTF-8), else -EINVAL with a reason in *why. */
int kvr_json_strict_string(const kvr_json_strict_t *s, const struct cJSON *v, bool utf8,
                           const char **why);

/**
 * Makes root print its numbers as body wrote them. cJSON holds a number as
 * a double, so a body it prints again has 18446744073709551615 as
 * 18446744073709551616 and 1.0 as 1, where an engine reading the body as
 * sent (Python's json) has the exact integer. Each number node of root (the
 * parse of exactly [body, body + len)) becomes a raw node of its text.
 * Returns the numbers kept; -EINVAL when the text's numbers and the tree's
 * do not pair up (root is then unchanged); -ENOMEM when cJSON could not
 * allocate (the numbers not reached print as cJSON prints them).
 */
int kvr_json_strict_keep_numbers(struct cJSON *root, const char *body, size_t len);

#endif
