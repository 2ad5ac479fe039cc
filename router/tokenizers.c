/* SPDX-License-Identifier: Apache-2.0 */
#include "router/tokenizers.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>

#include "common/error.h"
#include "common/xmalloc.h"
#include "router/models.h"
#include "tokens/turn_cache.h"

int kvr_tokenizer_spec_parse(const char *text, char *model, size_t cap, const char **dir, char *err,
                             size_t err_len)
{
    const char *eq = strchr(text, '=');
    size_t n = eq ? (size_t)(eq - text) : 0;
    if (!eq || n == 0 || n > KVR_MODEL_NAME_MAX || n >= cap || !eq[1]) {
        snprintf(err, err_len, "--tokenizer: expected MODEL=DIR, got '%.300s'", text);
        return -EINVAL;
    }
    memcpy(model, text, n);
    model[n] = '\0';
    *dir = eq + 1;
    return 0;
}

/* Changes to any of the files a model's entry is made of, as one number. */
static uint64_t files_id(const char *dir)
{
    static const char *const names[] = {"tokenizer.json", "tokenizer_config.json",
                                        "chat_template.jinja"};
    XXH3_state_t st;
    XXH3_64bits_reset(&st);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[4096];
        struct stat sb;
        uint64_t word[5] = {0};
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (stat(path, &sb) == 0) {
            word[0] = (uint64_t)sb.st_dev;
            word[1] = (uint64_t)sb.st_ino;
            word[2] = (uint64_t)sb.st_size;
            word[3] = (uint64_t)sb.st_mtim.tv_sec;
            word[4] = (uint64_t)sb.st_mtim.tv_nsec;
        }
        XXH3_64bits_update(&st, word, sizeof word);
    }
    return XXH3_64bits_digest(&st);
}

/* A whole small file (the template files are bounded by the template's own source limit). */
static int read_small(const char *path, size_t max, char **out, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct stat sb;
    int rc = 0;
    if (fstat(fd, &sb) < 0) {
        rc = -errno;
    } else if (!S_ISREG(sb.st_mode)) {
        rc = -EINVAL;
    } else if ((uint64_t)sb.st_size > max) {
        rc = -E2BIG;
    } else {
        size_t size = (size_t)sb.st_size, got = 0;
        char *buf = malloc(size + 1);
        if (!buf)
            rc = -ENOMEM;
        while (buf && got < size) {
            ssize_t r = read(fd, buf + got, size - got);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0) {
                rc = r < 0 ? -errno : -EIO;
                break;
            }
            got += (size_t)r;
        }
        if (rc < 0) {
            free(buf);
        } else if (buf) {
            buf[got] = '\0';
            *out = buf;
            *len = got;
        }
    }
    close(fd);
    return rc;
}

/* bos_token / eos_token as the template reads them: a string, or an AddedToken's content. */
static void add_token_var(cJSON *vars, const cJSON *config, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(config, name);
    if (cJSON_IsObject(v))
        v = cJSON_GetObjectItemCaseSensitive(v, "content");
    if (cJSON_IsString(v) && v->valuestring)
        cJSON_AddStringToObject(vars, name, v->valuestring);
}

/* The chat template text: tokenizer_config.json's chat_template (a string, or the "default"
 * of a list of {name, template}), else DIR/chat_template.jinja; NULL when there is none. */
static const char *template_source(const cJSON *config)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(config, "chat_template");
    if (cJSON_IsString(t))
        return t->valuestring;
    if (!cJSON_IsArray(t))
        return NULL;
    const cJSON *item;
    cJSON_ArrayForEach(item, t)
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(item, "name");
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(item, "template");
        if (cJSON_IsString(name) && strcmp(name->valuestring, "default") == 0 &&
            cJSON_IsString(text))
            return text->valuestring;
    }
    return NULL;
}

static void model_destroy(kvr_model_tokens_t *m)
{
    if (!m)
        return;
    kvr_tokenizer_destroy(m->tok);
    kvr_template_destroy(m->chat_template);
    cJSON_Delete(m->template_vars);
    free(m->model);
    free(m->dir);
    free(m);
}

int kvr_model_tokens_create(const char *model, const char *dir, kvr_model_tokens_t **out, char *err,
                            size_t err_len)
{
    char why[256] = "";
    char path[4096];
    char *config_text = NULL, *jinja = NULL;
    size_t config_len = 0, jinja_len = 0;
    cJSON *config = NULL;
    kvr_model_tokens_t *m = calloc(1, sizeof *m);
    int rc = -ENOMEM;
    if (!m)
        goto fail;
    m->files_id = files_id(dir);
    m->model = strdup(model);
    m->dir = strdup(dir);
    m->template_vars = cJSON_CreateObject();
    if (!m->model || !m->dir || !m->template_vars)
        goto fail;
    rc = kvr_tokenizer_create(dir, &m->tok, why, sizeof why);
    if (rc < 0)
        goto fail;
    snprintf(path, sizeof path, "%s/tokenizer_config.json", dir);
    rc = read_small(path, 64u << 20, &config_text, &config_len);
    if (rc < 0 && rc != -ENOENT) {
        snprintf(why, sizeof why, "tokenizer_config.json: %s", kvr_strerror(rc));
        goto fail;
    }
    if (config_text) {
        config = cJSON_ParseWithLength(config_text, config_len);
        if (!cJSON_IsObject(config)) {
            rc = -EINVAL;
            snprintf(why, sizeof why, "tokenizer_config.json: not a JSON object");
            goto fail;
        }
        add_token_var(m->template_vars, config, "bos_token");
        add_token_var(m->template_vars, config, "eos_token");
    }
    const char *source = config ? template_source(config) : NULL;
    size_t source_len = source ? strlen(source) : 0;
    if (!source) {
        snprintf(path, sizeof path, "%s/chat_template.jinja", dir);
        rc = read_small(path, KVR_TEMPLATE_MAX_SOURCE_BYTES, &jinja, &jinja_len);
        if (rc < 0 && rc != -ENOENT) {
            snprintf(why, sizeof why, "chat_template.jinja: %s", kvr_strerror(rc));
            goto fail;
        }
        source = jinja;
        source_len = jinja_len;
    }
    if (source) {
        kvr_template_error_t terr;
        rc = kvr_template_compile(source, source_len, &m->chat_template, &terr);
        if (rc < 0) {
            snprintf(why, sizeof why, "chat_template: %.200s", terr.message);
            goto fail;
        }
    }
    atomic_init(&m->refs, 1);
    cJSON_Delete(config);
    free(config_text);
    free(jinja);
    *out = m;
    return 0;
fail:
    snprintf(err, err_len, "--tokenizer %.200s=%.300s: %s", model, dir,
             why[0] ? why : kvr_strerror(rc));
    cJSON_Delete(config);
    free(config_text);
    free(jinja);
    model_destroy(m);
    return rc < 0 ? rc : -EINVAL;
}

void kvr_model_tokens_unref(kvr_model_tokens_t *m)
{
    if (m && atomic_fetch_sub(&m->refs, 1) == 1)
        model_destroy(m);
}

int kvr_tokenizer_set_load(char *const *specs, size_t n, const kvr_tokenizer_set_t *reuse,
                           kvr_tokenizer_set_t **out, char *err, size_t err_len)
{
    *out = NULL;
    if (n == 0)
        return 0;
    if (n > KVR_TOKENIZERS_MAX) {
        snprintf(err, err_len, "--tokenizer: more than %d models", KVR_TOKENIZERS_MAX);
        return -E2BIG;
    }
    kvr_tokenizer_set_t *set = calloc(1, sizeof *set);
    if (!set) {
        snprintf(err, err_len, "--tokenizer: out of memory");
        return -ENOMEM;
    }
    atomic_init(&set->refs, 1);
    for (size_t i = 0; i < n; i++) {
        char model[KVR_MODEL_NAME_MAX + 1];
        const char *dir;
        int rc = kvr_tokenizer_spec_parse(specs[i], model, sizeof model, &dir, err, err_len);
        if (rc == 0 && kvr_tokenizer_set_find(set, model)) {
            snprintf(err, err_len, "--tokenizer: model '%.300s' given twice", model);
            rc = -EINVAL;
        }
        if (rc < 0) {
            kvr_tokenizer_set_unref(set);
            return rc;
        }
        const kvr_model_tokens_t *old = kvr_tokenizer_set_find(reuse, model);
        if (old && strcmp(old->dir, dir) == 0 && old->files_id == files_id(dir)) {
            kvr_model_tokens_t *shared = (kvr_model_tokens_t *)old;
            atomic_fetch_add(&shared->refs, 1);
            set->models[set->n++] = shared;
            continue;
        }
        rc = kvr_model_tokens_create(model, dir, &set->models[set->n], err, err_len);
        if (rc < 0) {
            kvr_tokenizer_set_unref(set);
            return rc;
        }
        set->n++;
    }
    *out = set;
    return 0;
}

const kvr_model_tokens_t *kvr_tokenizer_set_find(const kvr_tokenizer_set_t *set, const char *model)
{
    for (size_t i = 0; set && model && i < set->n; i++)
        if (strcmp(set->models[i]->model, model) == 0)
            return set->models[i];
    return NULL;
}

kvr_tokenizer_set_t *kvr_tokenizer_set_ref(kvr_tokenizer_set_t *set)
{
    if (set)
        atomic_fetch_add(&set->refs, 1);
    return set;
}

void kvr_tokenizer_set_unref(kvr_tokenizer_set_t *set)
{
    if (!set || atomic_fetch_sub(&set->refs, 1) != 1)
        return;
    for (size_t i = 0; i < set->n; i++)
        kvr_model_tokens_unref(set->models[i]);
    free(set);
}

/* One thread's chat-template render memory, kept from one render to the next. */
#define TEMPLATE_KEEP_BYTES (4u << 20)
static _Thread_local kvr_template_scratch_t *template_scratch;

static bool is_text(const cJSON *v)
{
    return cJSON_IsString(v) && v->valuestring;
}

const char *kvr_tokenize_reason_name(kvr_tokenize_result_t reason)
{
    switch (reason) {
    case KVR_TOKENIZE_EXACT: return "exact";
    case KVR_TOKENIZE_NO_TEMPLATE: return "no_template";
    case KVR_TOKENIZE_TEMPLATE: return "template";
    case KVR_TOKENIZE_TOKENIZER: return "tokenizer";
    case KVR_TOKENIZE_PROMPT_BATCH: return "prompt_batch";
    default: return "other";
    }
}

/* A token id as a client may send it in "prompt": a whole number in [0, 2^32). */
static bool token_id(const cJSON *v, uint32_t *out)
{
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble < 4294967296.0) ||
        v->valuedouble != floor(v->valuedouble))
        return false;
    *out = (uint32_t)v->valuedouble;
    return true;
}

/* [1, 2, 3]: ids as given; false when an element is not an id. */
static bool given_ids(const cJSON *arr, kvr_token_ids_t *ids)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, arr)
    {
        uint32_t id;
        if (!token_id(item, &id))
            return false;
        if (ids->len == ids->cap) {
            ids->cap = ids->cap ? 2 * ids->cap : 256;
            ids->ids = kvr_xrealloc(ids->ids, ids->cap * sizeof *ids->ids);
        }
        ids->ids[ids->len++] = id;
    }
    return true;
}

static kvr_tokenize_result_t encode(const kvr_model_tokens_t *m, const char *text, size_t len,
                                    bool add_special, kvr_token_ids_t *ids, char *err,
                                    size_t err_len)
{
    int rc = kvr_tokenizer_encode(m->tok, text, len, add_special, ids);
    if (rc < 0) {
        snprintf(err, err_len, "tokenizer: %s",
                 rc == -ERANGE ? "regex match limit" : strerror(-rc));
        return KVR_TOKENIZE_TOKENIZER;
    }
    return KVR_TOKENIZE_EXACT;
}

/* One text prompt with the model's special tokens (a BOS), as engines add them; through the
 * turn cache when there is one, so a prompt that extends an earlier one (a client rendering its
 * own chat markup) tokenizes only its new text. */
static kvr_tokenize_result_t encode_text_prompt(const kvr_model_tokens_t *m, const char *text,
                                                kvr_turn_cache_t *cache, kvr_token_ids_t *ids,
                                                char *err, size_t err_len)
{
    size_t len = strlen(text);
    if (!cache)
        return encode(m, text, len, true, ids, err, err_len);
    size_t base = ids->len;
    int rc = kvr_turn_cache_encode(cache, m->tok, text, len, ids);
    if (rc < 0) {
        snprintf(err, err_len, "tokenizer: %s",
                 rc == -ERANGE ? "regex match limit" : strerror(-rc));
        return KVR_TOKENIZE_TOKENIZER;
    }
    kvr_tokenizer_add_special_tokens(m->tok, ids, base);
    return KVR_TOKENIZE_EXACT;
}

/* The prompt of /v1/completions (or SGLang's "text"): one text, or one prompt of token ids. */
static kvr_tokenize_result_t tokenize_prompt(const kvr_model_tokens_t *m, const cJSON *prompt,
                                             kvr_turn_cache_t *cache, kvr_token_ids_t *ids,
                                             char *err, size_t err_len)
{
    if (is_text(prompt))
        return encode_text_prompt(m, prompt->valuestring, cache, ids, err, err_len);
    const cJSON *only = cJSON_IsArray(prompt) && cJSON_GetArraySize(prompt) == 1
                            ? cJSON_GetArrayItem(prompt, 0)
                            : NULL;
    if (is_text(only))
        return encode_text_prompt(m, only->valuestring, cache, ids, err, err_len);
    if (cJSON_IsArray(only) && given_ids(only, ids))
        return KVR_TOKENIZE_EXACT;
    ids->len = 0;
    if (cJSON_IsArray(prompt) && cJSON_GetArraySize(prompt) > 0 && given_ids(prompt, ids))
        return KVR_TOKENIZE_EXACT;
    ids->len = 0;
    snprintf(err, err_len, "a prompt that is not one text or one list of token ids");
    return KVR_TOKENIZE_PROMPT_BATCH;
}

/* The template's variables: the tokenizer's bos/eos, then the request's chat_template_kwargs. */
static cJSON *template_vars(const kvr_model_tokens_t *m, const cJSON *root)
{
    cJSON *vars = cJSON_Duplicate(m->template_vars, true);
    const cJSON *kwargs = cJSON_GetObjectItemCaseSensitive(root, "chat_template_kwargs");
    if (!vars || !cJSON_IsObject(kwargs))
        return vars;
    const cJSON *item;
    cJSON_ArrayForEach(item, kwargs)
    {
        if (!item->string)
            continue;
        cJSON_DeleteItemFromObjectCaseSensitive(vars, item->string);
        cJSON_AddItemToObject(vars, item->string, cJSON_Duplicate(item, true));
    }
    return vars;
}

/* A chat request as the engine builds its prompt: the chat template, then the tokenizer
 * without special tokens (the template writes them). */
static kvr_tokenize_result_t tokenize_chat(const kvr_model_tokens_t *m, const cJSON *root,
                                           const cJSON *messages, kvr_turn_cache_t *cache,
                                           kvr_token_ids_t *ids, char *err, size_t err_len)
{
    if (!m->chat_template) {
        snprintf(err, err_len, "the model's tokenizer_config.json has no chat_template");
        return KVR_TOKENIZE_NO_TEMPLATE;
    }
    const cJSON *tools = cJSON_GetObjectItemCaseSensitive(root, "tools");
    const cJSON *agp = cJSON_GetObjectItemCaseSensitive(root, "add_generation_prompt");
    bool add_generation_prompt = cJSON_IsBool(agp) ? cJSON_IsTrue(agp) : true;
    cJSON *vars = template_vars(m, root);
    if (!template_scratch)
        template_scratch = kvr_template_scratch_create(TEMPLATE_KEEP_BYTES);
    kvr_template_options_t opts = {.scratch = template_scratch};
    kvr_template_error_t terr = {0};
    char *prompt = NULL;
    size_t prompt_len = 0;
    int rc = kvr_template_render(m->chat_template, messages, cJSON_IsArray(tools) ? tools : NULL,
                                 add_generation_prompt, vars, &opts, &prompt, &prompt_len, &terr);
    cJSON_Delete(vars);
    if (rc < 0) {
        snprintf(err, err_len, "chat_template: %.140s",
                 terr.message[0] ? terr.message : strerror(-rc));
        return KVR_TOKENIZE_TEMPLATE;
    }
    kvr_tokenize_result_t res = KVR_TOKENIZE_EXACT;
    if (cache) {
        rc = kvr_turn_cache_encode(cache, m->tok, prompt, prompt_len, ids);
        if (rc < 0) {
            snprintf(err, err_len, "tokenizer: %s",
                     rc == -ERANGE ? "regex match limit" : strerror(-rc));
            res = KVR_TOKENIZE_TOKENIZER;
        }
    } else {
        res = encode(m, prompt, prompt_len, false, ids, err, err_len);
    }
    free(prompt);
    return res;
}

kvr_tokenize_result_t kvr_model_tokens_encode_request(const kvr_model_tokens_t *m,
                                                      const cJSON *root, kvr_prompt_kind_t kind,
                                                      kvr_token_ids_t *ids, char *err,
                                                      size_t err_len)
{
    return kvr_model_tokens_encode_request_cached(m, root, kind, NULL, ids, err, err_len);
}

kvr_tokenize_result_t kvr_model_tokens_encode_request_cached(
    const kvr_model_tokens_t *m, const cJSON *root, kvr_prompt_kind_t kind, kvr_turn_cache_t *cache,
    kvr_token_ids_t *ids, char *err, size_t err_len)
{
    kvr_tokenize_result_t res;
    if (kind == KVR_PROMPT_CHAT)
        res = tokenize_chat(m, root, cJSON_GetObjectItemCaseSensitive(root, "messages"), cache, ids,
                            err, err_len);
    else
        res = tokenize_prompt(
            m,
            cJSON_GetObjectItemCaseSensitive(root, kind == KVR_PROMPT_NATIVE ? "text" : "prompt"),
            cache, ids, err, err_len);
    if (res != KVR_TOKENIZE_EXACT)
        ids->len = 0;
    return res;
}
