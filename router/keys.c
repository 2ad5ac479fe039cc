/* SPDX-License-Identifier: Apache-2.0 */
#include "router/keys.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/json_strict.h"
#include "common/prefix_hash.h"
#include "common/xmalloc.h"
#include "tokens/tokenizer.h"

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

/*
 * Every request body is parsed on the event loop, so the parser's speed is
 * the router's: cJSON parses a 1 KB chat body in ~5 us and 512 KB in ~1.6 ms
 * (bench/proxy, kvroute-bench-keys), where jansson took ~27 us and ~17 ms
 * (router/README.md). Strings are not copied twice: the text buffer is the
 * one copy.
 */

/*
 * cJSON allocates every node and string separately; a parse is freed as a
 * whole right after the keys are copied out, so its nodes come from a bump
 * arena that is reset per body (malloc beyond it). One per thread.
 *
 * cJSON's hooks are process-wide and the rest of the router builds and
 * parses documents with cJSON too (/engines, /v1/models, admin bodies), some
 * of which outlive the next body. So the arena serves only while a body is
 * being parsed here (active); every other allocation is plain malloc, and
 * arena_free tells the two apart by address.
 */
#define KEYS_ARENA_BYTES (256 * 1024)

static _Thread_local struct {
    char *base;
    size_t used;
    bool active;
} arena;

static void *arena_malloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (arena.active && n <= KEYS_ARENA_BYTES - arena.used) {
        void *p = arena.base + arena.used;
        arena.used += n;
        return p;
    }
    return malloc(n);
}

static void arena_free(void *p)
{
    if (arena.base && (char *)p >= arena.base && (char *)p < arena.base + KEYS_ARENA_BYTES)
        return;
    free(p);
}

static void set_hooks(void)
{
    cJSON_Hooks hooks = {arena_malloc, arena_free};
    cJSON_InitHooks(&hooks);
}

void kvr_keys_init(void)
{
    /* Large bodies are parsed on the libuv threadpool too: hooks once, arenas per thread. */
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, set_hooks);
}

static void arena_begin(void)
{
    kvr_keys_init();
    if (!arena.base)
        arena.base = kvr_xmalloc(KEYS_ARENA_BYTES);
    arena.used = 0;
    arena.active = true;
}

static bool is_string(const cJSON *v)
{
    return cJSON_IsString(v) && v->valuestring;
}

/* One body's parse, with what the error message needs. */
typedef struct body_s {
    kvr_json_strict_t strict;
    char *err;
    size_t err_len;
} body_t;

/*
 * A member the router routes on. The engine reads the body too, and a
 * member two readers could take differently (a duplicate, a key holding
 * \u0000) is a 400, never a guess at what the engine will read.
 */
static int member(body_t *b, const cJSON *obj, const char *name, const char *path,
                  const cJSON **out)
{
    const char *why = "";
    if (kvr_json_strict_member(&b->strict, obj, name, out, &why) < 0) {
        snprintf(b->err, b->err_len, "ambiguous body: '%s' %s", path, why);
        return -EINVAL;
    }
    return 0;
}

/* A string routed on: cJSON's C string stops at a \u0000 the engine would read past. */
static int clean_string(body_t *b, const cJSON *v, bool utf8, const char *path)
{
    const char *why = "";
    if (kvr_json_strict_string(&b->strict, v, utf8, &why) < 0) {
        snprintf(b->err, b->err_len, "ambiguous body: '%s' %s", path, why);
        return -EINVAL;
    }
    return 0;
}

static int append_string(body_t *b, kvr_buf_t *text, const cJSON *v, const char *path)
{
    if (clean_string(b, v, false, path) < 0)
        return -EINVAL;
    kvr_buf_append_str(text, v->valuestring);
    return 0;
}

/* Content is a string, or an array of parts of which the text parts count. */
static int append_content(body_t *b, kvr_buf_t *text, const cJSON *content, size_t i)
{
    char path[80];
    snprintf(path, sizeof path, "messages[%zu].content", i);
    if (is_string(content))
        return append_string(b, text, content, path);
    if (!content || cJSON_IsNull(content))
        return 0; /* assistant messages that only carry tool calls */
    if (!cJSON_IsArray(content))
        goto fail_type;
    size_t k = 0;
    const cJSON *part;
    cJSON_ArrayForEach(part, content)
    {
        if (!cJSON_IsObject(part))
            goto fail_type;
        snprintf(path, sizeof path, "messages[%zu].content[%zu].text", i, k);
        const cJSON *part_text;
        if (member(b, part, "text", path, &part_text) < 0)
            return -EINVAL;
        if (is_string(part_text) && append_string(b, text, part_text, path) < 0)
            return -EINVAL;
        k++;
    }
    return 0;
fail_type:
    snprintf(b->err, b->err_len, "'messages[%zu].content' must be a string or an array of parts",
             i);
    return -EINVAL;
}

static int append_messages(body_t *b, kvr_buf_t *text, const cJSON *messages)
{
    if (!cJSON_IsArray(messages)) {
        snprintf(b->err, b->err_len, "'messages' must be an array");
        return -EINVAL;
    }
    size_t i = 0;
    const cJSON *msg;
    cJSON_ArrayForEach(msg, messages)
    {
        if (!cJSON_IsObject(msg)) {
            snprintf(b->err, b->err_len, "'messages[%zu]' must be an object", i);
            return -EINVAL;
        }
        char path[48];
        snprintf(path, sizeof path, "messages[%zu].content", i);
        const cJSON *content;
        if (member(b, msg, "content", path, &content) < 0 ||
            append_content(b, text, content, i) < 0)
            return -EINVAL;
        i++;
    }
    return 0;
}

/* prompt (completions) or text (SGLang /generate): a string or an array of strings;
 * token-id arrays carry no text to hash and are skipped. */
static int append_prompt(body_t *b, kvr_buf_t *text, const cJSON *prompt, const char *name)
{
    if (is_string(prompt))
        return append_string(b, text, prompt, name);
    if (cJSON_IsArray(prompt)) {
        size_t i = 0;
        const cJSON *item;
        cJSON_ArrayForEach(item, prompt)
        {
            char path[48];
            snprintf(path, sizeof path, "%s[%zu]", name, i++);
            if (is_string(item)) {
                if (append_string(b, text, item, path) < 0)
                    return -EINVAL;
            } else if (!cJSON_IsNumber(item) && !cJSON_IsArray(item)) {
                snprintf(b->err, b->err_len,
                         "'%s' must be a string or an array of strings or tokens", name);
                return -EINVAL;
            }
        }
        return 0;
    }
    snprintf(b->err, b->err_len, "'%s' must be a string or an array", name);
    return -EINVAL;
}

static int take_session(kvr_route_keys_t *out, const char *value, size_t len, char *err,
                        size_t err_len)
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

/*
 * A numeric session id is routed on as its decimal text. Only whole numbers
 * below 2^53 in magnitude qualify, where every integer is a double: from
 * there on, different ids in the body parse to one double (2^53 + 1 reads
 * as 2^53) and would share a pin, and a cast of 1e19 to an integer is
 * undefined. NaN and infinities fail the range test.
 */
static bool whole_number_id(double d, long long *out)
{
    const double exact = 9007199254740992.0; /* 2^53 */
    if (!(d > -exact && d < exact) || d != floor(d))
        return false;
    *out = (long long)d;
    return true;
}

static int find_session(const kvr_keys_config_t *cfg, body_t *b, const cJSON *root,
                        const char *header_session, kvr_route_keys_t *out)
{
    char *err = b->err;
    size_t err_len = b->err_len;
    for (size_t i = 0; i < cfg->n_order; i++) {
        int rc = 1;
        if (cfg->order[i] == KVR_SESSION_SRC_HEADER) {
            if (header_session)
                rc = take_session(out, header_session, strlen(header_session), err, err_len);
        } else {
            const char *field = cfg->order[i] == KVR_SESSION_SRC_USER ? "user" : "session_id";
            const cJSON *v;
            if (member(b, root, field, field, &v) < 0)
                return -EINVAL;
            if (is_string(v)) {
                if (clean_string(b, v, true, field) < 0)
                    return -EINVAL;
                rc = take_session(out, v->valuestring, strlen(v->valuestring), err, err_len);
            } else if (cJSON_IsNumber(v)) {
                long long id;
                if (!whole_number_id(v->valuedouble, &id)) {
                    snprintf(err, err_len,
                             "'%s' must be a string or a whole number below 2^53 in magnitude "
                             "(send larger ids as strings)",
                             field);
                    return -EINVAL;
                }
                char num[32];
                int n = snprintf(num, sizeof num, "%lld", id);
                rc = take_session(out, num, (size_t)n, err, err_len);
            }
        }
        if (rc <= 0)
            return rc;
    }
    return 0;
}

static uint32_t positive_u32(const cJSON *v)
{
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 1))
        return 0;
    return v->valuedouble >= (double)UINT32_MAX ? UINT32_MAX : (uint32_t)v->valuedouble;
}

static int get_max_tokens(body_t *b, const cJSON *root, uint32_t *out)
{
    const cJSON *v, *sp;
    if (member(b, root, "max_completion_tokens", "max_completion_tokens", &v) < 0)
        return -EINVAL;
    uint32_t n = positive_u32(v);
    if (!n) {
        if (member(b, root, "max_tokens", "max_tokens", &v) < 0)
            return -EINVAL;
        n = positive_u32(v);
    }
    if (!n) {
        if (member(b, root, "sampling_params", "sampling_params", &sp) < 0 ||
            member(b, sp, "max_new_tokens", "sampling_params.max_new_tokens", &v) < 0)
            return -EINVAL;
        n = positive_u32(v);
    }
    *out = n;
    return 0;
}

/* cJSON reports only where it stopped; line and column are what a client can act on. */
static void parse_error(const char *body, size_t len, const char *at, char *err, size_t err_len)
{
    if (!at || at < body || at > body + len) {
        snprintf(err, err_len, "malformed JSON body");
        return;
    }
    int line = 1, column = 1;
    for (const char *p = body; p < at; p++) {
        if (*p == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
    }
    snprintf(err, err_len, "malformed JSON body (line %d column %d)", line, column);
}

/* The request's tokens, while its document is still parsed. */
static void tokenize_request(const kvr_keys_tokens_t *tokens, const cJSON *root,
                             const cJSON *messages, const cJSON *prompt, const cJSON *native_text,
                             kvr_route_keys_t *out, kvr_token_ids_t *ids)
{
    const kvr_model_tokens_t *m = tokens ? kvr_tokenizer_set_find(tokens->set, out->model) : NULL;
    if (!m || (!messages && !prompt && !native_text))
        return; /* no tokenizer, or nothing the engine would tokenize */
    out->tokenized = true;
    out->tokenize_result = kvr_model_tokens_encode_request_cached(
        m, root,
        messages ? KVR_PROMPT_CHAT
        : prompt ? KVR_PROMPT_COMPLETION
                 : KVR_PROMPT_NATIVE,
        tokens->turn_cache, ids, out->tokenize_error, sizeof out->tokenize_error);
}

int kvr_keys_extract(const kvr_keys_config_t *cfg, const char *body, size_t len,
                     const char *header_session, kvr_route_keys_t *out, char *err, size_t err_len)
{
    return kvr_keys_extract_tokens(cfg, NULL, body, len, header_session, out, err, err_len);
}

int kvr_keys_extract_tokens(const kvr_keys_config_t *cfg, const kvr_keys_tokens_t *tokens,
                            const char *body, size_t len, const char *header_session,
                            kvr_route_keys_t *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    const char *end = NULL;
    arena_begin();
    cJSON *root = cJSON_ParseWithLengthOpts(body, len, &end, false);
    arena.active = false; /* the parse is the only allocation; nodes still free by address */
    if (!root) {
        parse_error(body, len, end, err, err_len); /* end, not cJSON_GetErrorPtr(): a global */
        return -EINVAL;
    }
    while (end && end < body + len && (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n'))
        end++;
    if (end != body + len) {
        cJSON_Delete(root);
        snprintf(err, err_len, "malformed JSON body: data after the JSON value");
        return -EINVAL;
    }
    int rc = -EINVAL;
    kvr_buf_t text = KVR_BUF_INIT;
    body_t b = {.err = err, .err_len = err_len};
    if (!cJSON_IsObject(root)) {
        snprintf(err, err_len, "the request body must be a JSON object");
        goto fail_root;
    }
    kvr_json_strict_init(&b.strict, root, body, len);
    const cJSON *messages, *prompt, *native_text, *model, *stream;
    if (member(&b, root, "messages", "messages", &messages) < 0 ||
        member(&b, root, "prompt", "prompt", &prompt) < 0 ||
        member(&b, root, "text", "text", &native_text) < 0)
        goto fail_text;
    if (messages)
        rc = append_messages(&b, &text, messages);
    else if (prompt)
        rc = append_prompt(&b, &text, prompt, "prompt");
    else if (native_text)
        rc = append_prompt(&b, &text, native_text, "text");
    else
        rc = 0; /* nothing to hash: the engine will judge the request */
    if (rc < 0)
        goto fail_text;
    rc = find_session(cfg, &b, root, header_session, out);
    if (rc < 0)
        goto fail_text;
    rc = -EINVAL;
    if (member(&b, root, "model", "model", &model) < 0)
        goto fail_text;
    if (model && !cJSON_IsNull(model)) {
        if (!cJSON_IsString(model) || !model->valuestring[0]) {
            snprintf(err, err_len, "\"model\" must be a non-empty string");
            goto fail_text;
        }
        if (clean_string(&b, model, true, "model") < 0)
            goto fail_text;
        out->model = kvr_xstrdup(model->valuestring);
    }
    if (member(&b, root, "stream", "stream", &stream) < 0 ||
        get_max_tokens(&b, root, &out->max_tokens) < 0)
        goto fail_text;
    out->stream = cJSON_IsTrue(stream);
    kvr_token_ids_t ids;
    kvr_token_ids_init(&ids);
    tokenize_request(tokens, root, messages, prompt, native_text, out, &ids);
    kvr_json_strict_close(&b.strict);
    cJSON_Delete(root);

    out->text = kvr_buf_release(&text, &out->text_len);
    size_t count;
    if (out->tokenized && out->tokenize_result == KVR_TOKENIZE_EXACT) {
        size_t bt = tokens->block_tokens;
        size_t max_blocks = bt ? ids.len / bt : 0;
        out->block_hashes = kvr_xmalloc((max_blocks ? max_blocks : 1) * sizeof(uint64_t));
        out->n_blocks = kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, ids.ids, ids.len, bt,
                                              out->block_hashes, max_blocks);
        out->token_blocks = true;
        out->prompt_tokens_exact = true;
        count = ids.len;
    } else {
        size_t max_blocks = out->text_len / KVR_PREFIX_BLOCK_BYTES;
        out->block_hashes = kvr_xmalloc((max_blocks ? max_blocks : 1) * sizeof(uint64_t));
        out->n_blocks = kvr_prefix_hash_blocks(out->text, out->text_len, out->block_hashes,
                                               max_blocks);
        count = out->text_len / KVR_BYTES_PER_TOKEN;
    }
    kvr_token_ids_close(&ids);
    out->prompt_tokens = count == 0 ? 1 : count > UINT32_MAX ? UINT32_MAX : (uint32_t)count;
    return 0;

fail_text:
    kvr_json_strict_close(&b.strict);
    kvr_buf_close(&text);
    free(out->session_id);
    out->session_id = NULL;
    free(out->model);
    out->model = NULL;
fail_root:
    cJSON_Delete(root);
    return rc;
}

void kvr_keys_free(kvr_route_keys_t *keys)
{
    free(keys->session_id);
    free(keys->model);
    free(keys->text);
    free(keys->block_hashes);
    keys->session_id = NULL;
    keys->model = NULL;
    keys->text = NULL;
    keys->block_hashes = NULL;
    keys->text_len = keys->n_blocks = 0;
}
