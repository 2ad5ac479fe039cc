/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TEMPLATE_H
#define KVR_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* Renders a model's Jinja chat_template the way @huggingface/jinja does (the engine's
 * reference renderer): trim_blocks and lstrip_blocks on, JavaScript value semantics. */

typedef struct kvr_template_s kvr_template_t;
/** Memory a thread keeps between its renders (a render faults fresh pages otherwise). */
typedef struct kvr_template_scratch_s kvr_template_scratch_t;

/** Error of compile or render: a negative errno and a one-line message. */
typedef struct kvr_template_error_s {
    int code;
    char message[256];
} kvr_template_error_t;

/** Bounds for one render, zeros take the defaults (KVR_TEMPLATE_DEFAULT_*); the time
 * strftime_now reads (0: the clock). */
typedef struct kvr_template_options_s {
    size_t max_output_bytes;
    size_t max_memory_bytes;
    size_t max_loop_iterations;
    unsigned max_depth;
    uint64_t max_work; /* roughly bytes touched: bounds the render's time */
    int64_t now_unix_s;
    kvr_template_scratch_t *scratch; /* NULL: the render's memory goes back to malloc */
} kvr_template_options_t;

#define KVR_TEMPLATE_DEFAULT_MAX_OUTPUT_BYTES (16u << 20)
#define KVR_TEMPLATE_DEFAULT_MAX_MEMORY_BYTES (256u << 20)
#define KVR_TEMPLATE_DEFAULT_MAX_LOOP_ITERATIONS 1000000u
#define KVR_TEMPLATE_DEFAULT_MAX_DEPTH 64u
#define KVR_TEMPLATE_DEFAULT_MAX_WORK (1ull << 30)
#define KVR_TEMPLATE_MAX_SOURCE_BYTES (1u << 20)

/** Compiles template text; 0 and *out, or -EINVAL (syntax) / -E2BIG / -ELOOP with *err. */
int kvr_template_compile(const char *text, size_t len, kvr_template_t **out,
                         kvr_template_error_t *err);

/** Renders: messages and tools (NULL: undefined) are JSON arrays, extra_vars a JSON object
 * (bos_token, eos_token, enable_thinking, ...) or NULL. *out is malloc'ed, NUL-terminated.
 * Errors: -ECANCELED raise_exception, -EINVAL runtime error, -E2BIG a limit, -ELOOP depth,
 * -EILSEQ invalid UTF-8 in the JSON. */
int kvr_template_render(const kvr_template_t *tpl, const cJSON *messages, const cJSON *tools,
                        bool add_generation_prompt, const cJSON *extra_vars,
                        const kvr_template_options_t *opts, char **out, size_t *out_len,
                        kvr_template_error_t *err);

/** Scratch memory for one thread's renders, keeping up to keep_bytes between them. */
kvr_template_scratch_t *kvr_template_scratch_create(size_t keep_bytes);

/** Frees scratch memory (NULL is fine). */
void kvr_template_scratch_destroy(kvr_template_scratch_t *scratch);

/** Frees a compiled template (NULL is fine). */
void kvr_template_destroy(kvr_template_t *tpl);

#endif
