/* SPDX-License-Identifier: Apache-2.0 */
#include "router/models.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_strict.h"
#include "common/json_text.h"

void kvr_model_list_close(kvr_model_list_t *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->names[i]);
    free(l->names);
    l->names = NULL;
    l->n = 0;
}

bool kvr_model_list_has(const kvr_model_list_t *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->names[i], name) == 0)
            return true;
    return false;
}

int kvr_model_list_add(kvr_model_list_t *l, const char *name)
{
    size_t len = strlen(name);
    if (len == 0 || len > KVR_MODEL_NAME_MAX)
        return -EINVAL;
    if (kvr_model_list_has(l, name))
        return 1;
    if (l->n >= KVR_MODELS_MAX)
        return -ENOSPC;
    char *copy = strdup(name);
    char **names = copy ? realloc(l->names, (l->n + 1) * sizeof *names) : NULL;
    if (!names) {
        free(copy);
        return -ENOMEM;
    }
    names[l->n++] = copy;
    l->names = names;
    return 0;
}

bool kvr_model_list_equal(const kvr_model_list_t *a, const kvr_model_list_t *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->names[i], b->names[i]) != 0)
            return false;
    return true;
}

void kvr_model_list_move(kvr_model_list_t *dst, kvr_model_list_t *src)
{
    kvr_model_list_close(dst);
    *dst = *src;
    src->names = NULL;
    src->n = 0;
}

int kvr_models_parse(const char *body, size_t len, kvr_model_list_t *out, char *err, size_t err_len)
{
    const char *end = NULL;
    cJSON *doc = body && len ? cJSON_ParseWithLengthOpts(body, len, &end, false) : NULL;
    if (!doc) {
        snprintf(err, err_len, "not JSON");
        return -EINVAL;
    }
    while (end && end < body + len && (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n'))
        end++;
    int rc = -EINVAL;
    kvr_json_strict_t strict = {0};
    const cJSON *data = NULL;
    const char *why = "";
    if (end != body + len) {
        snprintf(err, err_len, "data after the JSON value");
        goto done;
    }
    kvr_json_strict_init(&strict, doc, body, len);
    if (kvr_json_strict_member(&strict, doc, "data", &data, &why) < 0) {
        snprintf(err, err_len, "\"data\" %s", why);
        goto done;
    }
    if (!cJSON_IsObject(doc) || !cJSON_IsArray(data)) {
        snprintf(err, err_len, "not a model list (expected {\"data\": [...]})");
        goto done;
    }
    size_t skipped = 0, ambiguous = 0;
    const cJSON *model;
    cJSON_ArrayForEach(model, data)
    {
        /* An id the router and a client could read as two names is never served under either. */
        const cJSON *id;
        if (kvr_json_strict_member(&strict, model, "id", &id, &why) < 0 ||
            (cJSON_IsString(id) && kvr_json_strict_string(&strict, id, true, &why) < 0)) {
            ambiguous++;
            continue;
        }
        int added = cJSON_IsString(id) ? kvr_model_list_add(out, id->valuestring) : -EINVAL;
        if (added == -ENOMEM) {
            rc = -ENOMEM;
            snprintf(err, err_len, "out of memory");
            kvr_model_list_close(out);
            goto done;
        }
        if (added < 0)
            skipped++;
    }
    if (out->n == 0) {
        rc = -ENODATA;
        if (ambiguous)
            snprintf(err, err_len,
                     "the list names no model (%zu ambiguous ids, \"id\" %s; %zu "
                     "entries without a usable id)",
                     ambiguous, why, skipped);
        else
            snprintf(err, err_len, "the list names no model (%zu entries without a usable id)",
                     skipped);
        goto done;
    }
    rc = ambiguous ? 1 : 0;
    if (ambiguous)
        snprintf(err, err_len, "%zu ambiguous ids dropped (\"id\" %s)", ambiguous, why);
    else if (skipped)
        snprintf(err, err_len, "%zu entries skipped (no usable id, or past %d models)", skipped,
                 KVR_MODELS_MAX);
    else if (err_len)
        err[0] = '\0';
done:
    kvr_json_strict_close(&strict);
    cJSON_Delete(doc);
    return rc;
}

int kvr_models_parse_spec(const char *text, kvr_engine_spec_t *spec, kvr_model_list_t *pinned,
                          char *err, size_t err_len)
{
    int rc = kvr_engine_spec_parse(text, strlen(text), spec, err, err_len);
    if (rc < 0)
        return rc;
    const char *cursor = spec->options;
    kvr_engine_option_t opt;
    while ((rc = kvr_engine_spec_next_option(&cursor, &opt, err, err_len)) > 0) {
        char name[KVR_MODEL_NAME_MAX + 1];
        if (kvr_engine_option_is(&opt, "role") || kvr_engine_option_is(&opt, "bootstrap_port"))
            continue; /* read by kvr_engine_spec_parse */
        if (!kvr_engine_option_is(&opt, "model")) {
            snprintf(
                err, err_len,
                "unknown engine option '%.*s' (expected model=NAME, role=ROLE or bootstrap_port=N)",
                (int)(opt.key_len > 64 ? 64 : opt.key_len), opt.key);
            goto fail;
        }
        if (opt.value_len == 0 || opt.value_len > KVR_MODEL_NAME_MAX) {
            snprintf(err, err_len, "model= needs a name of 1 to %d bytes", KVR_MODEL_NAME_MAX);
            goto fail;
        }
        memcpy(name, opt.value, opt.value_len);
        name[opt.value_len] = '\0';
        rc = kvr_model_list_add(pinned, name);
        if (rc == -ENOSPC) {
            snprintf(err, err_len, "more than %d models for one engine", KVR_MODELS_MAX);
            goto fail;
        }
        if (rc < 0) {
            snprintf(err, err_len, "cannot add model: out of memory");
            kvr_model_list_close(pinned);
            return rc;
        }
    }
    if (rc == 0)
        return 0;
fail:
    kvr_model_list_close(pinned);
    return -EINVAL;
}

const char *kvr_model_name_safe(const char *name, char *out, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    size_t j = 0;
    if (cap == 0)
        return out;
    for (const unsigned char *p = (const unsigned char *)name; *p;) {
        size_t seq = *p >= 0x80 ? kvr_json_utf8_len(p, NULL)
                                : (*p >= 0x20 && *p != 0x7f && *p != '"' && *p != '\\');
        if (seq > 0) {
            if (j + seq >= cap)
                break;
            memcpy(out + j, p, seq);
            j += seq;
            p += seq;
        } else {
            if (j + 4 >= cap)
                break;
            out[j++] = '\\';
            out[j++] = 'x';
            out[j++] = hex[*p >> 4];
            out[j++] = hex[*p & 15];
            p++;
        }
    }
    out[j] = '\0';
    return out;
}

bool kvr_model_name_plain(const char *name)
{
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p < 0x20 || *p > 0x7e || *p == '"' || *p == '\\')
            return false;
    return name[0] != '\0';
}
