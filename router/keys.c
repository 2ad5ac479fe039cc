/* SPDX-License-Identifier: Apache-2.0 */
#include "router/keys.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/prefix_hash.h"
#include "common/xmalloc.h"

typedef struct text_buf_s {
    char *data;
    size_t len, cap;
} text_buf_t;

static void text_append(text_buf_t *b, const char *s, size_t n)
{
    if (n == 0)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->data = kvr_xrealloc(b->data, cap);
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void kvr_keys_config_defaults(kvr_keys_config_t *cfg)
{
    cfg->order[0] = KVR_SESSION_SRC_HEADER;
    cfg->order[1] = KVR_SESSION_SRC_SESSION_ID;
    cfg->order[2] = KVR_SESSION_SRC_USER;
    cfg->n_order = 3;
}

int kvr_keys_config_parse(kvr_keys_config_t *cfg, const char *list)
{
    kvr_keys_config_t out = {.n_order = 0};
    const char *p = list;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        kvr_session_src_t src;
        if (n == 6 && strncmp(p, "header", n) == 0)
            src = KVR_SESSION_SRC_HEADER;
        else if (n == 10 && strncmp(p, "session_id", n) == 0)
            src = KVR_SESSION_SRC_SESSION_ID;
        else if (n == 4 && strncmp(p, "user", n) == 0)
            src = KVR_SESSION_SRC_USER;
        else if (n == 0 && !end && out.n_order == 0)
            break; /* "" = no session ids at all */
        else
            return -EINVAL;
        if (out.n_order == KVR_SESSION_SRC_MAX)
            return -EINVAL;
        out.order[out.n_order++] = src;
        p += n;
        if (*p == ',')
            p++;
    }
    *cfg = out;
    return 0;
}

/* Content is a string, or an array of parts of which the text parts count. */
static int append_content(text_buf_t *b, json_t *content)
{
    if (json_is_string(content)) {
        text_append(b, json_string_value(content), json_string_length(content));
        return 0;
    }
    if (json_is_null(content))
        return 0; /* assistant messages that only carry tool calls */
    if (!json_is_array(content))
        return -EINVAL;
    size_t i;
    json_t *part;
    json_array_foreach(content, i, part) {
        if (!json_is_object(part))
            return -EINVAL;
        json_t *text = json_object_get(part, "text");
        if (json_is_string(text))
            text_append(b, json_string_value(text), json_string_length(text));
    }
    return 0;
}

static int append_messages(text_buf_t *b, json_t *messages, char *err, size_t err_len)
{
    if (!json_is_array(messages)) {
        snprintf(err, err_len, "'messages' must be an array");
        return -EINVAL;
    }
    size_t i;
    json_t *msg;
    json_array_foreach(messages, i, msg) {
        if (!json_is_object(msg)) {
            snprintf(err, err_len, "'messages[%zu]' must be an object", i);
            return -EINVAL;
        }
        if (append_content(b, json_object_get(msg, "content")) < 0) {
            snprintf(err, err_len, "'messages[%zu].content' must be a string or an array of parts", i);
            return -EINVAL;
        }
    }
    return 0;
}

/* prompt (completions) or text (SGLang /generate): a string or an array of strings;
 * token-id arrays carry no text to hash and are skipped. */
static int append_prompt(text_buf_t *b, json_t *prompt, const char *name, char *err, size_t err_len)
{
    if (json_is_string(prompt)) {
        text_append(b, json_string_value(prompt), json_string_length(prompt));
        return 0;
    }
    if (json_is_array(prompt)) {
        size_t i;
        json_t *item;
        json_array_foreach(prompt, i, item) {
            if (json_is_string(item))
                text_append(b, json_string_value(item), json_string_length(item));
            else if (!json_is_integer(item) && !json_is_array(item)) {
                snprintf(err, err_len, "'%s' must be a string or an array of strings or tokens", name);
                return -EINVAL;
            }
        }
        return 0;
    }
    snprintf(err, err_len, "'%s' must be a string or an array", name);
    return -EINVAL;
}

static int take_session(kvr_route_keys_t *out, const char *value, size_t len, char *err, size_t err_len)
{
    if (len == 0)
        return 1; /* empty means absent: try the next source */
    if (len >= KVR_SESSION_ID_MAX) {
        snprintf(err, err_len, "session id longer than %d bytes", KVR_SESSION_ID_MAX - 1);
        return -EINVAL;
    }
    out->session_id = kvr_xstrndup(value, len);
    return 0;
}

static int find_session(const kvr_keys_config_t *cfg, json_t *root, const char *header_session,
                        kvr_route_keys_t *out, char *err, size_t err_len)
{
    for (size_t i = 0; i < cfg->n_order; i++) {
        int rc = 1;
        if (cfg->order[i] == KVR_SESSION_SRC_HEADER) {
            if (header_session)
                rc = take_session(out, header_session, strlen(header_session), err, err_len);
        } else {
            const char *field = cfg->order[i] == KVR_SESSION_SRC_USER ? "user" : "session_id";
            json_t *v = json_object_get(root, field);
            if (json_is_string(v))
                rc = take_session(out, json_string_value(v), json_string_length(v), err, err_len);
            else if (json_is_integer(v)) {
                char num[32];
                int n = snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
                rc = take_session(out, num, (size_t)n, err, err_len);
            }
        }
        if (rc <= 0)
            return rc;
    }
    return 0;
}

static uint32_t get_max_tokens(json_t *root)
{
    static const char *const fields[] = {"max_completion_tokens", "max_tokens"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        json_t *v = json_object_get(root, fields[i]);
        if (json_is_integer(v) && json_integer_value(v) > 0)
            return json_integer_value(v) > UINT32_MAX ? UINT32_MAX : (uint32_t)json_integer_value(v);
    }
    json_t *sp = json_object_get(root, "sampling_params");
    json_t *v = json_is_object(sp) ? json_object_get(sp, "max_new_tokens") : NULL;
    if (json_is_integer(v) && json_integer_value(v) > 0)
        return json_integer_value(v) > UINT32_MAX ? UINT32_MAX : (uint32_t)json_integer_value(v);
    return 0;
}

int kvr_keys_extract(const kvr_keys_config_t *cfg, const char *body, size_t len,
                     const char *header_session, kvr_route_keys_t *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    json_error_t jerr;
    /* Strings are not copied twice: jansson keeps them, the text buffer is the one copy. */
    json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        snprintf(err, err_len, "malformed JSON body: %s (line %d column %d)", jerr.text, jerr.line,
                 jerr.column);
        return -EINVAL;
    }
    int rc = -EINVAL;
    text_buf_t text = {0};
    if (!json_is_object(root)) {
        snprintf(err, err_len, "the request body must be a JSON object");
        goto fail_root;
    }
    json_t *messages = json_object_get(root, "messages");
    json_t *prompt = json_object_get(root, "prompt");
    json_t *native_text = json_object_get(root, "text");
    if (messages)
        rc = append_messages(&text, messages, err, err_len);
    else if (prompt)
        rc = append_prompt(&text, prompt, "prompt", err, err_len);
    else if (native_text)
        rc = append_prompt(&text, native_text, "text", err, err_len);
    else
        rc = 0; /* nothing to hash: the engine will judge the request */
    if (rc < 0)
        goto fail_text;
    rc = find_session(cfg, root, header_session, out, err, err_len);
    if (rc < 0)
        goto fail_text;
    json_t *stream = json_object_get(root, "stream");
    out->stream = json_is_true(stream);
    out->max_tokens = get_max_tokens(root);
    json_decref(root);

    out->text = text.data ? text.data : kvr_xstrdup("");
    out->text_len = text.len;
    size_t max_blocks = text.len / KVR_PREFIX_BLOCK_BYTES;
    out->block_hashes = kvr_xmalloc((max_blocks ? max_blocks : 1) * sizeof(uint64_t));
    out->n_blocks = kvr_prefix_hash_blocks(out->text, out->text_len, out->block_hashes, max_blocks);
    size_t tokens = text.len / KVR_BYTES_PER_TOKEN;
    out->prompt_tokens = tokens == 0 ? 1 : tokens > UINT32_MAX ? UINT32_MAX : (uint32_t)tokens;
    return 0;

fail_text:
    free(text.data);
    free(out->session_id);
    out->session_id = NULL;
fail_root:
    json_decref(root);
    return rc;
}

void kvr_keys_free(kvr_route_keys_t *keys)
{
    free(keys->session_id);
    free(keys->text);
    free(keys->block_hashes);
    keys->session_id = NULL;
    keys->text = NULL;
    keys->block_hashes = NULL;
    keys->text_len = keys->n_blocks = 0;
}
