/* SPDX-License-Identifier: Apache-2.0 */
/* Routing keys in a model's tokens (router/keys.c with router/tokenizers.c), on a tiny tokenizer. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/prefix_hash.h"
#include "router/config.h"
#include "router/keys.h"
#include "router/policies/policy_util.h"
#include "router/tokenizers.h"
#include "template/template.h"
#include "tests/tokens/tiny_tokenizer.h"
#include "tokens/tokenizer.h"

/* A chat template in the style of ChatML, and one that refuses every conversation. */
#define CHAT_TEMPLATE                                                                              \
    "{% for m in messages %}<s>{{ m.role }} {{ m.content }}<e>{% endfor %}"                        \
    "{% if tools %}{% for t in tools %}b{% endfor %}{% endif %}"                                   \
    "{% if add_generation_prompt %}<s>ab{% endif %}{% if flag %} 1{% endif %}"
#define BROKEN_TEMPLATE "{{ raise_exception('no conversation is welcome') }}"

static char scratch[128];

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* DIR with the tiny tokenizer and a tokenizer_config.json holding template (NULL: none). */
static void make_model(const char *dir, const char *template)
{
    mkdir(dir, 0700);
    write_file(dir, "tokenizer.json", k_tiny_tokenizer_json);
    cJSON *config = cJSON_CreateObject();
    cJSON_AddStringToObject(config, "bos_token", "<s>");
    if (template)
        cJSON_AddStringToObject(config, "chat_template", template);
    char *text = cJSON_PrintUnformatted(config);
    write_file(dir, "tokenizer_config.json", text);
    free(text);
    cJSON_Delete(config);
}

static void rm_model(const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/tokenizer.json", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/tokenizer_config.json", dir);
    unlink(path);
    rmdir(dir);
}

static char dir_ok[160], dir_none[160], dir_broken[160];
static kvr_tokenizer_set_t *set;

static void setup(void)
{
    snprintf(scratch, sizeof scratch, "/tmp/kvr-keys-tokens-%d", (int)getpid());
    mkdir(scratch, 0700);
    snprintf(dir_ok, sizeof dir_ok, "%s/ok", scratch);
    snprintf(dir_none, sizeof dir_none, "%s/none", scratch);
    snprintf(dir_broken, sizeof dir_broken, "%s/broken", scratch);
    make_model(dir_ok, CHAT_TEMPLATE);
    make_model(dir_none, NULL);
    make_model(dir_broken, BROKEN_TEMPLATE);
    char specs[3][200];
    snprintf(specs[0], sizeof specs[0], "m=%s", dir_ok);
    snprintf(specs[1], sizeof specs[1], "plain=%s", dir_none);
    snprintf(specs[2], sizeof specs[2], "broken=%s", dir_broken);
    char *list[] = {specs[0], specs[1], specs[2]};
    char err[512] = "";
    cr_assert_eq(kvr_tokenizer_set_load(list, 3, NULL, &set, err, sizeof err), 0, "%s", err);
}

static void teardown(void)
{
    kvr_tokenizer_set_unref(set);
    set = NULL;
    rm_model(dir_ok);
    rm_model(dir_none);
    rm_model(dir_broken);
    rmdir(scratch);
}

TestSuite(keys_tokens, .init = setup, .fini = teardown, .timeout = 10.);

static void extract(const char *body, uint32_t block_tokens, kvr_route_keys_t *k)
{
    kvr_keys_config_t cfg;
    kvr_keys_config_defaults(&cfg);
    kvr_keys_tokens_t tokens = {.set = set, .block_tokens = block_tokens};
    char err[256] = "";
    cr_assert_eq(
        kvr_keys_extract_tokens(&cfg, &tokens, body, strlen(body), NULL, k, err, sizeof err), 0,
        "%s", err);
}

/* What the engine sees: the template's text, tokenized without special tokens. */
static size_t reference_ids(const char *rendered, bool add_special, uint32_t *ids, size_t cap)
{
    kvr_tokenizer_t *tok;
    char err[256];
    cr_assert_eq(kvr_tokenizer_create(dir_ok, &tok, err, sizeof err), 0, "%s", err);
    kvr_token_ids_t out;
    kvr_token_ids_init(&out);
    cr_assert_eq(kvr_tokenizer_encode(tok, rendered, strlen(rendered), add_special, &out), 0);
    cr_assert_leq(out.len, cap);
    memcpy(ids, out.ids, out.len * sizeof *ids);
    size_t n = out.len;
    kvr_token_ids_close(&out);
    kvr_tokenizer_destroy(tok);
    return n;
}

Test(keys_tokens, chat_is_rendered_then_tokenized)
{
    const char *body = "{\"model\":\"m\",\"messages\":[{\"role\":\"a\",\"content\":\"ab ab\"},"
                       "{\"role\":\"b\",\"content\":\"aab\"}]}";
    kvr_route_keys_t k;
    extract(body, 2, &k);
    uint32_t ids[64];
    size_t n = reference_ids("<s>a ab ab<e><s>b aab<e><s>ab", false, ids, 64);
    cr_assert(k.tokenized);
    cr_assert_eq(k.tokenize_result, KVR_TOKENIZE_EXACT);
    cr_assert(k.prompt_tokens_exact);
    cr_assert(k.token_blocks);
    cr_assert_eq(k.prompt_tokens, n);
    uint64_t want[32];
    size_t blocks = kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, ids, n, 2, want, 32);
    cr_assert_eq(k.n_blocks, blocks);
    cr_assert_gt(blocks, 2);
    for (size_t i = 0; i < blocks; i++)
        cr_assert_eq(k.block_hashes[i], want[i], "block %zu", i);
    cr_assert_str_eq(k.text, "ab abaab"); /* the routing text is still the contents */
    kvr_keys_free(&k);
}

Test(keys_tokens, tools_kwargs_and_generation_prompt_reach_the_template)
{
    const char *body = "{\"model\":\"m\",\"messages\":[{\"role\":\"a\",\"content\":\"b\"}],"
                       "\"tools\":[{\"type\":\"function\"},{\"type\":\"function\"}],"
                       "\"add_generation_prompt\":false,\"chat_template_kwargs\":{\"flag\":true}}";
    kvr_route_keys_t k;
    extract(body, 16, &k);
    uint32_t ids[64];
    size_t n = reference_ids("<s>a b<e>bb 1", false, ids, 64);
    cr_assert_eq(k.tokenize_result, KVR_TOKENIZE_EXACT);
    cr_assert_eq(k.prompt_tokens, n);
    cr_assert_eq(k.n_blocks, 0); /* fewer than 16 tokens: no full block */
    kvr_keys_free(&k);
}

Test(keys_tokens, completions_prompt_gets_special_tokens_and_ids_are_taken_as_given)
{
    kvr_route_keys_t k;
    extract("{\"model\":\"m\",\"prompt\":\"ab ab\"}", 1, &k);
    uint32_t ids[16];
    size_t n = reference_ids("ab ab", true, ids, 16);
    cr_assert_eq(ids[0], 7); /* the post-processor's <s> */
    cr_assert_eq(k.prompt_tokens, n);
    cr_assert_eq(k.n_blocks, n);
    kvr_keys_free(&k);

    extract("{\"model\":\"m\",\"prompt\":[5,6,7,8]}", 2, &k);
    uint32_t given[] = {5, 6, 7, 8};
    uint64_t want[2];
    cr_assert_eq(kvr_token_hash_blocks(KVR_TOKEN_CHAIN_ROOT, given, 4, 2, want, 2), 2);
    cr_assert(k.prompt_tokens_exact);
    cr_assert_eq(k.prompt_tokens, 4);
    cr_assert_eq(k.n_blocks, 2);
    cr_assert_eq(k.block_hashes[1], want[1]);
    kvr_keys_free(&k);

    extract("{\"model\":\"m\",\"prompt\":[[5,6,7,8]]}", 2, &k);
    cr_assert_eq(k.prompt_tokens, 4);
    cr_assert_eq(k.block_hashes[1], want[1]);
    kvr_keys_free(&k);
}

/* A fallback keys exactly as a pool without a tokenizer does, and says why. */
static void expect_fallback(const char *body, kvr_tokenize_result_t reason)
{
    kvr_route_keys_t k, plain;
    extract(body, 16, &k);
    kvr_keys_config_t cfg;
    kvr_keys_config_defaults(&cfg);
    char err[256];
    cr_assert_eq(kvr_keys_extract(&cfg, body, strlen(body), NULL, &plain, err, sizeof err), 0);
    cr_assert(k.tokenized);
    cr_assert_eq(k.tokenize_result, reason, "%s: %s", body, k.tokenize_error);
    cr_assert_neq(k.tokenize_error[0], '\0');
    cr_assert_not(k.prompt_tokens_exact);
    cr_assert_not(k.token_blocks);
    cr_assert_eq(k.prompt_tokens, plain.prompt_tokens);
    cr_assert_eq(k.n_blocks, plain.n_blocks);
    for (size_t i = 0; i < k.n_blocks; i++)
        cr_assert_eq(k.block_hashes[i], plain.block_hashes[i]);
    kvr_keys_free(&k);
    kvr_keys_free(&plain);
}

#define LONG_TEXT                                                                                  \
    "abababababababababababababababababababababababababababababababababababababababababababab"     \
    "abababababababababababababababababababababababab"

Test(keys_tokens, failures_fall_back_to_text_keys)
{
    expect_fallback("{\"model\":\"broken\",\"messages\":[{\"role\":\"a\",\"content\":\"" LONG_TEXT
                    "\"}]}",
                    KVR_TOKENIZE_TEMPLATE);
    expect_fallback("{\"model\":\"plain\",\"messages\":[{\"role\":\"a\",\"content\":\"" LONG_TEXT
                    "\"}]}",
                    KVR_TOKENIZE_NO_TEMPLATE);
    expect_fallback("{\"model\":\"m\",\"prompt\":[\"" LONG_TEXT "\",\"b\"]}",
                    KVR_TOKENIZE_PROMPT_BATCH);
    expect_fallback("{\"model\":\"m\",\"prompt\":[1,-2]}", KVR_TOKENIZE_PROMPT_BATCH);
}

Test(keys_tokens, other_models_keep_text_keys_without_a_fallback)
{
    kvr_route_keys_t k;
    extract("{\"model\":\"other\",\"prompt\":\"" LONG_TEXT "\"}", 16, &k);
    cr_assert_not(k.tokenized);
    cr_assert_not(k.prompt_tokens_exact);
    cr_assert_eq(k.prompt_tokens, strlen(LONG_TEXT) / KVR_BYTES_PER_TOKEN);
    cr_assert_eq(k.n_blocks, strlen(LONG_TEXT) / KVR_PREFIX_BLOCK_BYTES);
    kvr_keys_free(&k);
    extract("{\"prompt\":\"" LONG_TEXT "\"}", 16, &k); /* no model named */
    cr_assert_not(k.tokenized);
    kvr_keys_free(&k);
    extract("{\"model\":\"m\"}", 16, &k); /* nothing to tokenize */
    cr_assert_not(k.tokenized);
    cr_assert_eq(k.prompt_tokens, 1);
    kvr_keys_free(&k);
}

Test(keys_tokens, a_later_turn_shares_the_earlier_turns_blocks)
{
    kvr_route_keys_t a, b;
    extract("{\"model\":\"m\",\"messages\":[{\"role\":\"a\",\"content\":\"" LONG_TEXT "\"}]}", 4,
            &a);
    extract("{\"model\":\"m\",\"messages\":[{\"role\":\"a\",\"content\":\"" LONG_TEXT "\"},"
            "{\"role\":\"a\",\"content\":\"b a\"},{\"role\":\"a\",\"content\":\"ab\"}]}",
            4, &b);
    cr_assert_gt(a.n_blocks, 4);
    cr_assert_gt(b.n_blocks, a.n_blocks);
    /* Every full block before the generation prompt is the same. */
    for (size_t i = 0; i + 1 < a.n_blocks; i++)
        cr_assert_eq(a.block_hashes[i], b.block_hashes[i], "block %zu", i);
    kvr_keys_free(&a);
    kvr_keys_free(&b);
}

static void extract_cached(const char *body, kvr_turn_cache_t *cache, kvr_route_keys_t *k)
{
    kvr_keys_config_t cfg;
    kvr_keys_config_defaults(&cfg);
    kvr_keys_tokens_t tokens = {.set = set, .block_tokens = 4, .turn_cache = cache};
    char err[256] = "";
    cr_assert_eq(
        kvr_keys_extract_tokens(&cfg, &tokens, body, strlen(body), NULL, k, err, sizeof err), 0,
        "%s", err);
}

Test(keys_tokens, the_turn_cache_gives_the_same_keys_and_serves_the_earlier_turns)
{
    kvr_turn_cache_t *cache;
    cr_assert_eq(kvr_turn_cache_create(1 << 20, &cache), 0);
    char body[4096] = "{\"model\":\"m\",\"messages\":[";
    static const char *const turns[] = {LONG_TEXT, "b a", "ab ab", " a b", LONG_TEXT " b"};
    uint64_t hits = 0;
    for (size_t t = 0; t < sizeof turns / sizeof turns[0]; t++) {
        size_t at = strlen(body);
        snprintf(body + at, sizeof body - at, "%s{\"role\":\"a\",\"content\":\"%s\"}]}",
                 t ? "," : "", turns[t]);
        kvr_route_keys_t plain, cached;
        extract(body, 4, &plain);
        extract_cached(body, cache, &cached);
        cr_assert(plain.prompt_tokens_exact && cached.prompt_tokens_exact);
        cr_assert_eq(cached.prompt_tokens, plain.prompt_tokens, "turn %zu", t);
        cr_assert_eq(cached.n_blocks, plain.n_blocks, "turn %zu", t);
        for (size_t i = 0; i < plain.n_blocks; i++)
            cr_assert_eq(cached.block_hashes[i], plain.block_hashes[i], "turn %zu block %zu", t, i);
        kvr_turn_cache_stats_t st;
        kvr_turn_cache_stats(cache, &st);
        if (t > 0)
            cr_assert_gt(st.hits, hits, "turn %zu took nothing from the cache", t);
        hits = st.hits;
        kvr_keys_free(&plain);
        kvr_keys_free(&cached);
        body[strlen(body) - 2] = '\0'; /* reopen the messages array */
    }
    kvr_turn_cache_destroy(cache);
}

/* A client that renders its own chat markup sends /v1/completions prompts that grow by a turn. */
Test(keys_tokens, the_turn_cache_serves_a_completions_prompt_that_extends_an_earlier_one)
{
    kvr_turn_cache_t *cache;
    cr_assert_eq(kvr_turn_cache_create(1 << 20, &cache), 0);
    static const char *const prompts[] = {
        "<s>a " LONG_TEXT "<e>",
        "<s>a " LONG_TEXT "<e><s>b ab ab<e>",
        "<s>a " LONG_TEXT "<e><s>b ab ab<e><s>a b a<e>",
    };
    uint64_t hits = 0;
    for (size_t t = 0; t < sizeof prompts / sizeof prompts[0]; t++) {
        char body[2048];
        snprintf(body, sizeof body, "{\"model\":\"m\",\"prompt\":\"%s\"}", prompts[t]);
        kvr_route_keys_t plain, cached;
        extract(body, 4, &plain);
        extract_cached(body, cache, &cached);
        uint32_t ids[1024];
        size_t n = reference_ids(prompts[t], true, ids, 1024);
        cr_assert_eq(ids[0], 7); /* the post-processor's <s> */
        cr_assert(cached.prompt_tokens_exact);
        cr_assert_eq(plain.prompt_tokens, n, "prompt %zu", t);
        cr_assert_eq(cached.prompt_tokens, n, "prompt %zu", t);
        cr_assert_eq(cached.n_blocks, plain.n_blocks, "prompt %zu", t);
        for (size_t i = 0; i < plain.n_blocks; i++)
            cr_assert_eq(cached.block_hashes[i], plain.block_hashes[i], "prompt %zu block %zu", t,
                         i);
        kvr_turn_cache_stats_t st;
        kvr_turn_cache_stats(cache, &st);
        if (t > 0)
            cr_assert_gt(st.hits, hits, "prompt %zu took nothing from the cache", t);
        else
            cr_assert_eq(st.hits, 0);
        hits = st.hits;
        kvr_keys_free(&plain);
        kvr_keys_free(&cached);
    }
    kvr_turn_cache_destroy(cache);
}

Test(keys_tokens, load_errors_name_the_model)
{
    char err[512] = "";
    kvr_tokenizer_set_t *s = NULL;
    char missing[256], dup1[256], dup2[256], bad_tpl_dir[200], bad_tpl[256];
    snprintf(missing, sizeof missing, "gone=%s/nowhere", scratch);
    char *l1[] = {missing};
    cr_assert_lt(kvr_tokenizer_set_load(l1, 1, NULL, &s, err, sizeof err), 0);
    cr_assert_null(s);
    cr_assert(strstr(err, "--tokenizer gone="), "%s", err);

    snprintf(dup1, sizeof dup1, "m=%s", dir_ok);
    snprintf(dup2, sizeof dup2, "m=%s", dir_none);
    char *l2[] = {dup1, dup2};
    cr_assert_eq(kvr_tokenizer_set_load(l2, 2, NULL, &s, err, sizeof err), -EINVAL);
    cr_assert(strstr(err, "given twice"), "%s", err);

    snprintf(bad_tpl_dir, sizeof bad_tpl_dir, "%s/badtpl", scratch);
    make_model(bad_tpl_dir, "{% for %}");
    snprintf(bad_tpl, sizeof bad_tpl, "x=%s", bad_tpl_dir);
    char *l3[] = {bad_tpl};
    cr_assert_eq(kvr_tokenizer_set_load(l3, 1, NULL, &s, err, sizeof err), -EINVAL);
    cr_assert(strstr(err, "chat_template"), "%s", err);
    rm_model(bad_tpl_dir);

    char model[300];
    const char *dir;
    cr_assert_eq(kvr_tokenizer_spec_parse("=dir", model, sizeof model, &dir, err, sizeof err),
                 -EINVAL);
    cr_assert_eq(kvr_tokenizer_spec_parse("m=", model, sizeof model, &dir, err, sizeof err),
                 -EINVAL);
    cr_assert_eq(kvr_tokenizer_spec_parse("nodir", model, sizeof model, &dir, err, sizeof err),
                 -EINVAL);
    cr_assert_eq(kvr_tokenizer_spec_parse("a=b=c", model, sizeof model, &dir, err, sizeof err), 0);
    cr_assert_str_eq(model, "a");
    cr_assert_str_eq(dir, "b=c");
}

Test(keys_tokens, a_reload_shares_unchanged_models_and_loads_changed_ones)
{
    char a[256], b[256];
    snprintf(a, sizeof a, "m=%s", dir_ok);
    snprintf(b, sizeof b, "plain=%s", dir_none);
    char *list[] = {a, b};
    char err[512];
    kvr_tokenizer_set_t *fresh;
    cr_assert_eq(kvr_tokenizer_set_load(list, 2, set, &fresh, err, sizeof err), 0, "%s", err);
    cr_assert_eq(kvr_tokenizer_set_find(fresh, "m"), kvr_tokenizer_set_find(set, "m"));
    cr_assert_eq(kvr_tokenizer_set_find(fresh, "plain"), kvr_tokenizer_set_find(set, "plain"));
    cr_assert_null(kvr_tokenizer_set_find(fresh, "broken"));
    /* A file rewritten (new size, new time) is loaded again: now with a template. */
    make_model(dir_none, CHAT_TEMPLATE);
    /* Its time too, set one second on rather than waited for. */
    char path[512];
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct timespec times[2] = {{.tv_sec = now.tv_sec + 1}, {.tv_sec = now.tv_sec + 1}};
    snprintf(path, sizeof path, "%s/tokenizer_config.json", dir_none);
    cr_assert_eq(utimensat(AT_FDCWD, path, times, 0), 0);
    kvr_tokenizer_set_t *third;
    cr_assert_eq(kvr_tokenizer_set_load(list, 2, fresh, &third, err, sizeof err), 0, "%s", err);
    cr_assert_eq(kvr_tokenizer_set_find(third, "m"), kvr_tokenizer_set_find(set, "m"));
    cr_assert_neq(kvr_tokenizer_set_find(third, "plain"), kvr_tokenizer_set_find(fresh, "plain"));
    cr_assert_not_null(kvr_tokenizer_set_find(third, "plain")->chat_template);
    cr_assert_null(kvr_tokenizer_set_find(fresh, "plain")->chat_template);
    kvr_tokenizer_set_unref(fresh);
    kvr_tokenizer_set_unref(third); /* set still holds "m": freed by the teardown, once */
}

Test(keys_tokens, matched_blocks_count_block_tokens_each)
{
    kvr_route_request_t req = {.prompt_tokens = 100, .block_tokens = 32, .token_blocks = true};
    cr_assert_eq(kvr__policy_uncached_tokens(&req, 2), 36);
    cr_assert_eq(kvr__policy_uncached_tokens(&req, 4), 0);
    req = (kvr_route_request_t){.prompt_tokens = 100}; /* text blocks: 64 bytes, 16 tokens */
    cr_assert_eq(kvr__policy_uncached_tokens(&req, 2), 68);
}

Test(keys_tokens, flags_and_config_rows)
{
    kvr_router_config_t cfg;
    kvr_router_config_defaults(&cfg);
    cr_assert_eq(cfg.block_tokens, 16);
    char *ok[] = {"kvroute",     "--tokenizer", "a=/models/a",    "--tokenizer=b=/models/b=2",
                  "--tokenizer", "a=/models/a", "--block-tokens", "32",
                  NULL};
    char err[512] = "";
    cr_assert_eq(kvr_router_config_parse_args(&cfg, 8, ok, err, sizeof err), 0, "%s", err);
    cr_assert_eq(cfg.n_tokenizers, 2); /* the same line twice is one */
    cr_assert_str_eq(cfg.tokenizers[1], "b=/models/b=2");
    cr_assert_not(cfg.tokenizer_from_file[0]);
    cr_assert_eq(cfg.block_tokens, 32);
    kvr_router_config_free(&cfg);

    kvr_router_config_defaults(&cfg);
    char *bad[] = {"kvroute", "--tokenizer", "nodir", NULL};
    cr_assert_eq(kvr_router_config_parse_args(&cfg, 3, bad, err, sizeof err), -EINVAL);
    cr_assert(strstr(err, "MODEL=DIR"), "%s", err);
    char *zero[] = {"kvroute", "--block-tokens", "0", NULL};
    cr_assert_eq(kvr_router_config_parse_args(&cfg, 3, zero, err, sizeof err), -EINVAL);
    kvr_router_config_free(&cfg);

    char path[200];
    snprintf(path, sizeof path, "%s/kvroute.conf", scratch);
    write_file(scratch, "kvroute.conf", "tokenizer m=/models/m\nblock-tokens 64\n");
    kvr_router_config_defaults(&cfg);
    cr_assert_eq(kvr_router_config_load_file(&cfg, path, err, sizeof err), 0, "%s", err);
    cr_assert_eq(cfg.n_tokenizers, 1);
    cr_assert(cfg.tokenizer_from_file[0]);
    cr_assert_eq(cfg.block_tokens, 64);
    kvr_router_config_free(&cfg);
    unlink(path);
}
