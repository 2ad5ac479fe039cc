/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_MODELS_H
#define KVR_ROUTER_MODELS_H

/*
 * Model pools: the models an engine serves, learnt from its /v1/models
 * (vLLM lists its LoRA adapters there too) or pinned in its engine spec
 * "URL,model=NAME[,model=NAME2]". An engine with an empty list has not
 * told yet and serves any model, so a fleet that never answers
 * /v1/models routes as one pool.
 */

#include <stdbool.h>
#include <stddef.h>

#include "common/engine_spec.h"

#define KVR_MODELS_MAX 64      /* models one engine is known to serve; more are ignored */
#define KVR_MODEL_NAME_MAX 256 /* bytes of a model name; a longer one is never served */
#define KVR_MODEL_SAFE_MAX (4 * KVR_MODEL_NAME_MAX + 1) /* kvr_model_name_safe's worst case */

typedef struct kvr_model_list_s {
    char **names; /* distinct, in the order first given */
    size_t n;
} kvr_model_list_t;

/** Frees the names; the list is empty afterwards. */
void kvr_model_list_close(kvr_model_list_t *l);
/** True when name is in l. */
bool kvr_model_list_has(const kvr_model_list_t *l, const char *name);
/** Appends name: 0, 1 when it is there already, -EINVAL (empty or too long), -ENOSPC, -ENOMEM. */
int kvr_model_list_add(kvr_model_list_t *l, const char *name);
/** True when both hold the same names in the same order. */
bool kvr_model_list_equal(const kvr_model_list_t *a, const kvr_model_list_t *b);
/** Frees dst's names and moves src's into it (src is left empty). */
void kvr_model_list_move(kvr_model_list_t *dst, kvr_model_list_t *src);

/**
 * Parses an OpenAI /v1/models answer ({"object":"list","data":[{"id":...}]})
 * into out (which must be empty). Entries without a usable string id are
 * skipped, names past KVR_MODELS_MAX ignored. An id readers could take
 * differently (a duplicate "id", U+0000, bytes that are not UTF-8) is
 * dropped. Returns 0, 1 (listed, but ambiguous ids were dropped), -EINVAL
 * (not such a document, or two "data") or -ENODATA (it lists no model), with
 * a one-line reason in err.
 */
int kvr_models_parse(const char *body, size_t len, kvr_model_list_t *out, char *err,
                     size_t err_len);

/**
 * Parses an engine spec "URL[,model=NAME]..." (common/engine_spec.h) into
 * spec and its pinned models (appended to pinned, which must be empty).
 * Returns 0 or -EINVAL / -ENAMETOOLONG with a one-line reason in err.
 */
int kvr_models_parse_spec(const char *text, kvr_engine_spec_t *spec, kvr_model_list_t *pinned,
                          char *err, size_t err_len);

/**
 * A model name as logs, labels and error messages may carry it: valid UTF-8
 * at or above U+0020 is kept, any other byte and '"', '\\' become \xNN;
 * cut to cap bytes (KVR_MODEL_SAFE_MAX holds any served name). Returns out.
 */
const char *kvr_model_name_safe(const char *name, char *out, size_t cap);
/** True when name is printable ASCII without '"' or '\\': it may be a metric label as it is. */
bool kvr_model_name_plain(const char *name);

#endif
