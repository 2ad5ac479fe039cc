/* SPDX-License-Identifier: Apache-2.0 */
/* router/models.c (the /v1/models parser, engine specs, safe names) and the decision core's pools. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "common/prefix_hash.h"
#include "router/decide.h"
#include "router/models.h"

/* ---- /v1/models answers ---- */

typedef struct {
    const char *body;
    int rc;
    const char *names; /* comma-joined on success */
} list_case_t;

static list_case_t parse_cases[] = {
    {"{\"object\":\"list\",\"data\":[{\"id\":\"a\",\"object\":\"model\"},{\"id\":\"b\"}]}", 0,
     "a,b"},
    /* vLLM lists a LoRA adapter beside its base model. */
    {"{\"data\":[{\"id\":\"base\",\"root\":\"base\"},{\"id\":\"sql-lora\",\"parent\":\"base\"}]}\n",
     0, "base,sql-lora"},
    {"{\"data\":[{\"id\":\"a\"},{\"id\":\"a\"},{\"id\":7},{\"name\":\"x\"},{\"id\":\"\"},\"s\",null]}",
     0, "a"},
    {"{\"data\":[]}", -ENODATA, NULL},
    {"{\"data\":[{\"id\":null}]}", -ENODATA, NULL},
    {"{\"data\":{}}", -EINVAL, NULL},
    {"{\"models\":[{\"id\":\"a\"}]}", -EINVAL, NULL},
    {"[{\"id\":\"a\"}]", -EINVAL, NULL},
    {"{\"data\":[{\"id\":\"a\"}]} x", -EINVAL, NULL},
    {"{\"data\":[{\"id\":\"a\"}", -EINVAL, NULL},
    {"<html>not found</html>", -EINVAL, NULL},
    {"", -EINVAL, NULL},
};

Test(models, parse, .timeout = 5.)
{
    for (size_t k = 0; k < sizeof parse_cases / sizeof parse_cases[0]; k++) {
        const list_case_t *c = &parse_cases[k];
        kvr_model_list_t l = {0};
        char err[160];
        int rc = kvr_models_parse(c->body, strlen(c->body), &l, err, sizeof err);
        cr_expect_eq(rc, c->rc, "%s: rc %d (%s)", c->body, rc, err);
        if (rc == 0) {
            char joined[256] = "";
            for (size_t i = 0; i < l.n; i++)
                snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s",
                         i ? "," : "", l.names[i]);
            cr_expect_str_eq(joined, c->names);
        } else {
            cr_expect_eq(l.n, 0);
            cr_expect_gt(strlen(err), 0, "a reason for the log");
        }
        kvr_model_list_close(&l);
    }
}

/*
 * An id two readers could take as different names (a duplicate "id",
 * U+0000 that cJSON stops at, bytes that are not UTF-8) is dropped, never
 * merged into the name it reads as; 1 tells the caller to count it.
 */
static list_case_t ambiguous_cases[] = {
    {"{\"data\":[{\"id\":\"m\\u0000evil\"}]}", -ENODATA, NULL},
    {"{\"data\":[{\"id\":\"a\"},{\"id\":\"m\\u0000evil\"}]}", 1, "a"},
    {"{\"data\":[{\"id\":\"a\",\"id\":\"b\"}]}", -ENODATA, NULL},
    {"{\"data\":[{\"id\\u0000x\":\"m\"},{\"id\":\"b\"}]}", 1, "b"},
    {"{\"data\":[{\"id\":\"a\xff\"},{\"id\":\"b\"}]}", 1, "b"},
    {"{\"data\":[{\"id\":\"x\"}],\"data\":[{\"id\":\"y\"}]}", -EINVAL, NULL},
    /* not ambiguous: an escaped backslash, U+0000 outside the ids */
    {"{\"data\":[{\"id\":\"m\\\\u0000\",\"root\":\"\\u0000\"}]}", 0, "m\\u0000"},
};

Test(models, parse_drops_ambiguous_ids, .timeout = 5.)
{
    for (size_t k = 0; k < sizeof ambiguous_cases / sizeof ambiguous_cases[0]; k++) {
        const list_case_t *c = &ambiguous_cases[k];
        kvr_model_list_t l = {0};
        char err[160] = "";
        int rc = kvr_models_parse(c->body, strlen(c->body), &l, err, sizeof err);
        cr_expect_eq(rc, c->rc, "%s: rc %d (%s)", c->body, rc, err);
        if (rc >= 0) {
            char joined[256] = "";
            for (size_t i = 0; i < l.n; i++)
                snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s",
                         i ? "," : "", l.names[i]);
            cr_expect_str_eq(joined, c->names, "%s", c->body);
        } else {
            cr_expect_eq(l.n, 0);
        }
        if (rc != 0)
            cr_expect_gt(strlen(err), 0, "%s: a reason for the log", c->body);
        kvr_model_list_close(&l);
    }
}

Test(models, parse_bounds_names_and_count, .timeout = 5.)
{
    static char body[64 * 1024];
    size_t n = (size_t)snprintf(body, sizeof body, "{\"data\":[{\"id\":\"");
    memset(body + n, 'x', KVR_MODEL_NAME_MAX + 1); /* one byte too long: skipped */
    n += KVR_MODEL_NAME_MAX + 1;
    n += (size_t)snprintf(body + n, sizeof body - n, "\"}");
    for (int i = 0; i < KVR_MODELS_MAX + 10; i++)
        n += (size_t)snprintf(body + n, sizeof body - n, ",{\"id\":\"m%d\"}", i);
    n += (size_t)snprintf(body + n, sizeof body - n, "]}");
    kvr_model_list_t l = {0};
    char err[160];
    cr_assert_eq(kvr_models_parse(body, n, &l, err, sizeof err), 0);
    cr_expect_eq(l.n, KVR_MODELS_MAX);
    cr_expect_str_eq(l.names[0], "m0");
    cr_expect(strstr(err, "11 entries skipped"), "%s", err);
    kvr_model_list_close(&l);
}

/* ---- engine specs ---- */

typedef struct {
    const char *spec;
    int rc;
    const char *url;
    const char *names;
} spec_case_t;

static spec_case_t spec_cases[] = {
    {"http://10.0.0.5:8000", 0, "http://10.0.0.5:8000", ""},
    {"http://10.0.0.5:8000,model=llama", 0, "http://10.0.0.5:8000", "llama"},
    {"http://h:1,model=a,model=b,model=a", 0, "http://h:1", "a,b"},
    {"http://h:1,model=org/name:v2=x", 0, "http://h:1", "org/name:v2=x"},
    {"http://h:1,model=", -EINVAL, NULL, NULL},
    {"http://h:1,", -EINVAL, NULL, NULL},
    {"http://h:1,,model=a", -EINVAL, NULL, NULL},
    {"http://h:1,kind=vllm", -EINVAL, NULL, NULL},
    {"http://h:1,Model=a", -EINVAL, NULL, NULL},
    {",model=a", -EINVAL, NULL, NULL},
};

Test(models, spec, .timeout = 5.)
{
    for (size_t k = 0; k < sizeof spec_cases / sizeof spec_cases[0]; k++) {
        const spec_case_t *c = &spec_cases[k];
        char err[160] = "";
        kvr_engine_spec_t spec;
        kvr_model_list_t l = {0};
        int rc = kvr_models_parse_spec(c->spec, &spec, &l, err, sizeof err);
        cr_expect_eq(rc, c->rc, "%s: %d (%s)", c->spec, rc, err);
        if (rc == 0) {
            cr_expect_str_eq(spec.url, c->url);
            char joined[256] = "";
            for (size_t i = 0; i < l.n; i++)
                snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s",
                         i ? "," : "", l.names[i]);
            cr_expect_str_eq(joined, c->names);
        } else {
            cr_expect_gt(strlen(err), 0);
            cr_expect_eq(l.n, 0, "nothing is left half-parsed");
        }
        kvr_model_list_close(&l);
    }
}

Test(models, spec_refuses_a_name_too_long_and_too_many, .timeout = 5.)
{
    char spec[32 * 1024], err[160];
    kvr_engine_spec_t parsed;
    int n = snprintf(spec, sizeof spec, "http://h:1,model=");
    memset(spec + n, 'y', KVR_MODEL_NAME_MAX + 1);
    spec[n + KVR_MODEL_NAME_MAX + 1] = '\0';
    kvr_model_list_t l = {0};
    cr_expect_eq(kvr_models_parse_spec(spec, &parsed, &l, err, sizeof err), -EINVAL);
    n = snprintf(spec, sizeof spec, "http://h:1");
    for (int i = 0; i <= KVR_MODELS_MAX; i++)
        n += snprintf(spec + n, sizeof spec - (size_t)n, ",model=m%d", i);
    cr_expect_eq(kvr_models_parse_spec(spec, &parsed, &l, err, sizeof err), -EINVAL);
    cr_expect(strstr(err, "more than"), "%s", err);
    cr_expect_eq(l.n, 0);
}

/* ---- names in logs, labels and errors ---- */

Test(models, names_are_made_safe, .timeout = 5.)
{
    char out[KVR_MODEL_SAFE_MAX];
    cr_expect_str_eq(kvr_model_name_safe("llama-3.1-8b", out, sizeof out), "llama-3.1-8b");
    cr_expect_str_eq(kvr_model_name_safe("a\nb\"c\\d\x7f", out, sizeof out),
                     "a\\x0ab\\x22c\\x5cd\\x7f");
    cr_expect_str_eq(kvr_model_name_safe("mod\xc3\xa8le", out, sizeof out), "mod\xc3\xa8le",
                     "UTF-8 is kept");
    cr_expect_str_eq(kvr_model_name_safe("\xff\xc3", out, sizeof out), "\\xff\\xc3",
                     "broken UTF-8 is not");
    cr_expect_str_eq(kvr_model_name_safe("abcdef", out, 4), "abc", "cut to the buffer");
    cr_expect_str_eq(kvr_model_name_safe("\x01\x02", out, 6), "\\x01",
                     "an escape is never cut in half");
    cr_expect(kvr_model_name_plain("org/model:v1 q4"));
    cr_expect_not(kvr_model_name_plain("a\"b"));
    cr_expect_not(kvr_model_name_plain("mod\xc3\xa8le"));
    cr_expect_not(kvr_model_name_plain(""));
}

/* ---- the decision core's pools ---- */

static kvr_decider_t d;

static void pin(kvr_engine_t *e, const char *a, const char *b)
{
    kvr_model_list_close(&e->models);
    if (a)
        cr_assert_eq(kvr_model_list_add(&e->models, a), 0);
    if (b)
        cr_assert_eq(kvr_model_list_add(&e->models, b), 0);
}

static kvr_engine_t *engines[4];

static void start(const char *policy, kvr_placement_t placement)
{
    kvr_decide_config_t cfg = {.policy = policy,
                               .placement = placement,
                               .session_ttl_ns = 10 * KVR_NS_PER_SEC,
                               .max_sessions = 100,
                               .fail_threshold = 1,
                               .shm_owner_uid = -1};
    kvr_policy_config_defaults(&cfg.policy_config);
    cr_assert_eq(kvr_decide_init(&d, &cfg), 0);
    for (int i = 0; i < 4; i++) {
        char id[32];
        snprintf(id, sizeof id, "http://e%d:1", i);
        cr_assert_eq(kvr_decide_add_engine(&d, id, &engines[i]), 0);
    }
}

static void stop(void)
{
    kvr_decide_close(&d);
}

Test(decide_pools, resolve_model, .fini = stop, .timeout = 5.)
{
    start("round_robin", KVR_PLACEMENT_PER_REQUEST);
    char one[KVR_MODEL_NAME_MAX + 1];
    cr_expect_eq(kvr_decide_resolve_model(&d, NULL, one, sizeof one), KVR_POOL_ANY,
                 "nothing known: one pool");
    cr_expect_eq(kvr_decide_resolve_model(&d, "x", one, sizeof one), KVR_POOL_UNLISTED);
    for (int i = 0; i < 4; i++)
        pin(engines[i], "a", NULL);
    cr_expect_eq(kvr_decide_resolve_model(&d, NULL, one, sizeof one), KVR_POOL_LISTED);
    cr_expect_str_eq(one, "a", "the one model served is the default pool");
    cr_expect_eq(kvr_decide_resolve_model(&d, "x", one, sizeof one), KVR_POOL_UNKNOWN);
    pin(engines[3], "b", "a");
    cr_expect_eq(kvr_decide_resolve_model(&d, NULL, one, sizeof one), KVR_POOL_AMBIGUOUS);
    cr_expect_eq(kvr_decide_resolve_model(&d, "b", one, sizeof one), KVR_POOL_LISTED);
    /* A removed engine's models are not served any more. */
    kvr_decide_remove_engine(&d, engines[3]);
    cr_expect_eq(kvr_decide_resolve_model(&d, "b", one, sizeof one), KVR_POOL_UNKNOWN);
    cr_expect_eq(kvr_decide_resolve_model(&d, NULL, one, sizeof one), KVR_POOL_LISTED);
    /* An engine not known yet serves any model. */
    pin(engines[2], NULL, NULL);
    cr_expect_eq(kvr_decide_resolve_model(&d, "b", one, sizeof one), KVR_POOL_UNLISTED);
}

Test(decide_pools, served_models_are_sorted_and_distinct, .fini = stop, .timeout = 5.)
{
    start("round_robin", KVR_PLACEMENT_PER_REQUEST);
    pin(engines[0], "zeta", "alpha");
    pin(engines[1], "alpha", NULL);
    pin(engines[2], "mu", "zeta");
    const char *out[2];
    cr_assert_eq(kvr_decide_served_models(&d, out, 2), 3, "the count is of all, beyond cap");
    cr_expect_str_eq(out[0], "alpha");
    cr_expect_str_eq(out[1], "mu");
}

Test(decide_pools, routes_and_retries_only_inside_the_pool, .fini = stop, .timeout = 5.)
{
    start("round_robin", KVR_PLACEMENT_PER_REQUEST);
    pin(engines[0], "a", NULL);
    pin(engines[1], "a", NULL);
    pin(engines[2], "b", NULL);
    pin(engines[3], "b", NULL);
    for (int i = 0; i < 8; i++) {
        const char *model = i % 2 ? "b" : "a";
        kvr_route_request_t req = {.model = model, .prompt_tokens = 1, .now_ns = KVR_NS_PER_SEC};
        kvr_charge_t c = {0};
        kvr_decide_result_t res;
        kvr_decide_route(&d, &req, NULL, 0, &c, &res);
        cr_assert_not_null(res.engine);
        cr_expect(kvr_model_list_has(&res.engine->models, model), "request %d for %s went to %s", i,
                  model, res.engine->id);
        kvr_decide_release(&d, &c);
    }
    uint32_t tried[] = {0, 1};
    cr_expect_not(kvr_decide_has_candidate_for(&d, "a", tried, 2), "no retry into pool b");
    cr_expect(kvr_decide_has_candidate_for(&d, "b", tried, 2));
    cr_expect(kvr_decide_has_candidate(&d, tried, 2));
    kvr_route_request_t req = {.model = "a", .prompt_tokens = 1, .now_ns = KVR_NS_PER_SEC};
    kvr_charge_t c = {0};
    kvr_decide_result_t res;
    kvr_decide_route(&d, &req, tried, 2, &c, &res);
    cr_expect_null(res.engine);
    cr_expect_eq(res.status, 503);
}

Test(decide_pools, a_prefix_owner_in_one_pool_is_none_in_another, .fini = stop, .timeout = 5.)
{
    start("affinity", KVR_PLACEMENT_PER_REQUEST);
    for (int i = 0; i < 4; i++)
        pin(engines[i], "a", "b");
    char text[640];
    memset(text, 'p', sizeof text);
    uint64_t hashes[10];
    size_t n = kvr_prefix_hash_blocks(text, sizeof text, hashes, 10);
    kvr_decide_result_t res;
    uint32_t owner = UINT32_MAX;
    const char *models[] = {"a", "a", "b", NULL};
    uint32_t want_match[] = {0, 10, 0, 0};
    for (int i = 0; i < 4; i++) {
        kvr_route_request_t req = {.model = models[i],
                                   .block_hashes = hashes,
                                   .n_blocks = n,
                                   .prompt_tokens = 160,
                                   .now_ns = (uint64_t)(i + 1) * KVR_NS_PER_SEC};
        kvr_charge_t c = {0};
        kvr_decide_route(&d, &req, NULL, 0, &c, &res);
        cr_assert_not_null(res.engine);
        cr_expect_eq(res.prefix_match_blocks, want_match[i], "request %d (%s)", i,
                     models[i] ? models[i] : "none");
        if (i == 0)
            owner = res.engine->index;
        if (i == 1)
            cr_expect_eq(res.engine->index, owner);
        kvr_decide_release(&d, &c);
    }
}

Test(decide_pools, a_session_pins_once_per_pool, .fini = stop, .timeout = 5.)
{
    start("round_robin", KVR_PLACEMENT_ONESHOT);
    for (int i = 0; i < 4; i++)
        pin(engines[i], "a", "b");
    const char *models[] = {"a", "b", "a", "b"};
    uint32_t home[2] = {0};
    for (int i = 0; i < 4; i++) {
        kvr_route_request_t req = {.model = models[i],
                                   .session_id = "s",
                                   .prompt_tokens = 1,
                                   .now_ns = (uint64_t)(i + 1) * KVR_NS_PER_SEC};
        kvr_charge_t c = {0};
        kvr_decide_result_t res;
        kvr_decide_route(&d, &req, NULL, 0, &c, &res);
        cr_assert_not_null(res.engine);
        if (i < 2) {
            cr_expect_eq(res.pin, KVR_DECIDE_PIN_NEW, "request %d: a new pin in pool %s", i,
                         models[i]);
            home[i] = res.engine->index;
        } else {
            cr_expect(res.pinned, "request %d: the pool's own pin", i);
            cr_expect_eq(res.engine->index, home[i - 2]);
        }
        kvr_decide_release(&d, &c);
    }
    cr_expect_neq(home[0], home[1], "round robin placed the two pins apart");
    cr_expect_eq(d.sessions.count, 2);
}
