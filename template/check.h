/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TEMPLATE_CHECK_H
#define KVR_TEMPLATE_CHECK_H

#include <stddef.h>
#include <stdio.h>

/* Compares the C renderer with reference renderings: JSONL cases of
 * {"template"?, "messages"?, "tools"?, "add_generation_prompt"?, "vars"?, and "text" (the
 * reference's rendering) or "error" (the reference refused)}. */

typedef struct kvr_template_check_s {
    size_t cases;
    size_t refused;    /* cases the C renderer refused */
    size_t mismatches; /* cases where it disagreed with the reference */
} kvr_template_check_t;

/** Checks every line of jsonl (template_text NULL: each case has its own "template"); the
 * first few mismatches are described on log (may be NULL). 0, or -EINVAL if the template
 * does not compile. */
int kvr_template_check(const char *template_text, size_t template_len, char *jsonl,
                       kvr_template_check_t *out, FILE *log);

#endif
