/* SPDX-License-Identifier: Apache-2.0 */
#include "router/server.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/engine_spec.h"
#include "common/error.h"
#include "common/hex.h"
#include "common/json_strict.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "router/fetch.h"
#include "router/health.h"
#include "router/proxy.h"

#define MODELS_TIMEOUT_MS 5000
#define MODELS_MAX_BODY (1u << 20)

/* Small documents print into the stack; larger ones (a long /v1/models list) on the heap. */
static void respond_doc(kvr_http_req_t *req, int status, cJSON *doc)
{
    char buf[1024];
    char *text = NULL;
    if (doc && cJSON_PrintPreallocated(doc, buf, (int)sizeof buf, false))
        text = buf;
    else if (doc)
        text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    if (!text) {
        kvr_http_respond_error(req, 500, NULL, "could not encode the response", NULL, 0);
        return;
    }
    kvr_http_respond(req, status, "application/json", NULL, 0, text, strlen(text));
    if (text != buf)
        cJSON_free(text);
}

/* A strict JSON body: one object, nothing but whitespace after it (cJSON alone would stop early). */
static cJSON *parse_object(const char *body, size_t len)
{
    const char *end = NULL;
    cJSON *doc = body && len ? cJSON_ParseWithLengthOpts(body, len, &end, false) : NULL;
    if (!doc)
        return NULL;
    while (end && end < body + len && (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n'))
        end++;
    if (end != body + len || !cJSON_IsObject(doc)) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

static const char *string_field(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static cJSON *doc_status(const char *status, int engines)
{
    cJSON *doc = cJSON_CreateObject();
    if (!cJSON_AddStringToObject(doc, "status", status) ||
        !cJSON_AddNumberToObject(doc, "engines", engines)) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

/* {"status", "engines", "healthy", "pools": [{"model", "healthy", "engines"}]}. */
static cJSON *doc_readiness(const char *status, const kvr_readiness_t *rd)
{
    cJSON *doc = doc_status(status, (int)rd->engines);
    cJSON *pools = cJSON_CreateArray();
    bool ok = doc && pools && cJSON_AddNumberToObject(doc, "healthy", rd->healthy) &&
              cJSON_AddItemToObject(doc, "pools", pools);
    if (!ok) {
        cJSON_Delete(pools);
        cJSON_Delete(doc);
        return NULL;
    }
    for (size_t k = 0; k < rd->n_pools; k++) {
        cJSON *o = cJSON_CreateObject();
        if (!cJSON_AddStringToObject(o, "model", rd->pools[k].model) ||
            !cJSON_AddNumberToObject(o, "healthy", rd->pools[k].healthy) ||
            !cJSON_AddNumberToObject(o, "engines", rd->pools[k].engines) ||
            !cJSON_AddItemToArray(pools, o)) {
            cJSON_Delete(o);
            cJSON_Delete(doc);
            return NULL;
        }
    }
    return doc;
}

/* ---- GET /v1/models: the union of the engines' lists ---- */

typedef struct models_s models_t;

typedef struct models_part_s {
    models_t *m;
    size_t i;
    char *engine_id; /* whose last good list stands in for an answer that fails */
} models_part_t;

struct models_s {
    kvr_server_env_t *r;
    kvr_http_req_t *req;
    kvr_fetch_t *fetches[KVR_MAX_ENGINES];
    models_part_t parts[KVR_MAX_ENGINES];
    size_t n, pending, answered;
    cJSON *data;   /* the union so far: model objects moved out of the engines' answers */
    char *want_id; /* GET /v1/models/{id}: answer only this model (NULL: the whole list) */
};

static void models_free(models_t *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->parts[i].engine_id);
    free(m->want_id);
    cJSON_Delete(m->data);
    free(m);
}

static int compare_model_ids(const void *a, const void *b)
{
    return strcmp(string_field(*(cJSON *const *)a, "id"), string_field(*(cJSON *const *)b, "id"));
}

/* An engine's known list (pinned, or learnt and kept) joins the answers, as bare model objects. */
static void add_known_models(models_t *m, const kvr_engine_t *e)
{
    for (size_t k = 0; k < e->models.n; k++) {
        cJSON *o = cJSON_CreateObject();
        if (!cJSON_AddStringToObject(o, "id", e->models.names[k]) ||
            !cJSON_AddStringToObject(o, "object", "model") ||
            !cJSON_AddNumberToObject(o, "created", 0) ||
            !cJSON_AddStringToObject(o, "owned_by", "kvroute") || !cJSON_AddItemToArray(m->data, o))
            cJSON_Delete(o);
    }
}

/* Pinned models of candidate engines join the answers. */
static void add_pinned_models(models_t *m)
{
    for (uint32_t i = 0; i < kvr_door_engines(m->r->door)->n_slots; i++) {
        const kvr_engine_t *e = kvr_door_engines(m->r->door)->engines[i];
        if (kvr_engine_is_candidate(e) && e->models_pinned)
            add_known_models(m, e);
    }
}

/* One object per id, sorted by id: a sort, not a scan of the union per model (engines x models can be large). */
static cJSON *unique_models(cJSON *data)
{
    size_t n = (size_t)cJSON_GetArraySize(data);
    cJSON *out = cJSON_CreateArray();
    if (!out || n == 0)
        return out;
    cJSON **items = kvr_xmalloc(n * sizeof *items);
    size_t k = 0;
    for (cJSON *it = data->child; it && k < n; it = it->next)
        items[k++] = it;
    qsort(items, k, sizeof *items, compare_model_ids);
    for (size_t i = 0; i < k; i++) {
        if (i > 0 && strcmp(string_field(items[i], "id"), string_field(items[i - 1], "id")) == 0)
            continue;
        cJSON_AddItemToArray(out, cJSON_DetachItemViaPointer(data, items[i]));
    }
    free(items);
    return out;
}

/* OpenAI's 404 for a model id no engine lists. */
static void respond_unknown_model(kvr_http_req_t *req, const char *id)
{
    char safe[KVR_MODEL_SAFE_MAX];
    char msg[KVR_MODEL_SAFE_MAX + 64];
    snprintf(msg, sizeof msg, "The model `%s` does not exist.",
             kvr_model_name_safe(id, safe, sizeof safe));
    cJSON *doc = cJSON_CreateObject();
    cJSON *err = cJSON_AddObjectToObject(doc, "error");
    if (!err || !cJSON_AddStringToObject(err, "message", msg) ||
        !cJSON_AddStringToObject(err, "type", "invalid_request_error") ||
        !cJSON_AddStringToObject(err, "param", "model") ||
        !cJSON_AddStringToObject(err, "code", "model_not_found")) {
        cJSON_Delete(doc);
        doc = NULL;
    }
    respond_doc(req, 404, doc);
}

/* GET /v1/models/{id}: the one object of the union whose id it is. */
static void models_reply_one(models_t *m)
{
    cJSON *found = NULL;
    for (cJSON *it = m->data ? m->data->child : NULL; it && !found; it = it->next) {
        const char *id = string_field(it, "id");
        if (id && strcmp(id, m->want_id) == 0)
            found = cJSON_DetachItemViaPointer(m->data, it);
    }
    if (found)
        respond_doc(m->req, 200, found);
    else if (m->answered == 0 && cJSON_GetArraySize(m->data) == 0)
        kvr_http_respond_error(m->req, 502, NULL,
                               "no engine answered /v1/models with a model list, and none "
                               "listed any before",
                               NULL, 0);
    else
        respond_unknown_model(m->req, m->want_id);
    models_free(m);
}

static void models_reply(models_t *m)
{
    if (m->data)
        add_pinned_models(m);
    if (m->want_id) {
        models_reply_one(m);
        return;
    }
    if (m->answered == 0 && cJSON_GetArraySize(m->data) == 0) {
        kvr_http_respond_error(m->req, 502, NULL,
                               "no engine answered /v1/models with a model list, and none "
                               "listed any before",
                               NULL, 0);
    } else {
        cJSON *doc = cJSON_CreateObject();
        cJSON *data = unique_models(m->data);
        if (data && cJSON_AddStringToObject(doc, "object", "list") &&
            cJSON_AddItemToObject(doc, "data", data)) {
            data = NULL; /* the document owns it now */
        } else {
            cJSON_Delete(doc);
            doc = NULL;
        }
        cJSON_Delete(data);
        respond_doc(m->req, 200, doc);
    }
    models_free(m);
}

static void on_models_part(void *arg, int status, const char *body, size_t len)
{
    models_part_t *part = arg;
    models_t *m = part->m;
    m->fetches[part->i] = NULL;
    size_t listed = 0;
    if (status >= 200 && status < 300 && m->data) {
        cJSON *doc = parse_object(body, len);
        kvr_json_strict_t strict;
        kvr_json_strict_init(&strict, doc, body, len);
        const char *why;
        const cJSON *data = NULL;
        if (kvr_json_strict_member(&strict, doc, "data", &data, &why) < 0 || !cJSON_IsArray(data))
            data = NULL;
        cJSON *next;
        for (cJSON *model = data ? data->child : NULL; model; model = next) {
            next = model->next;
            /* The same rule as the engine's list (models.c): an id read two ways is left out. */
            const cJSON *id;
            if (kvr_json_strict_member(&strict, model, "id", &id, &why) < 0 ||
                !cJSON_IsString(id) || !id->valuestring[0] ||
                kvr_json_strict_string(&strict, id, true, &why) < 0)
                continue;
            cJSON_AddItemToArray(m->data, cJSON_DetachItemViaPointer((cJSON *)data, model));
            listed++;
        }
        kvr_json_strict_close(&strict);
        cJSON_Delete(doc);
    }
    if (listed > 0) {
        m->answered++;
    } else if (m->data) {
        /*
         * An engine that answered with no usable list keeps its last good
         * one, as routing does; one that did not answer is a failed attempt
         * (a dead engine's models are not offered while health checks have
         * yet to notice), and one that left the candidates meanwhile is out.
         */
        kvr_engine_t *e = kvr_door_find_engine(m->r->door, part->engine_id);
        bool answered = status > 0 || status == -EFBIG;
        if (e && !e->removed && !answered && status != -ECANCELED)
            kvr_door_engine_failed(m->r->door, e, "models");
        else if (answered && kvr_engine_is_candidate(e) && !e->models_pinned)
            add_known_models(m, e);
    }
    if (--m->pending == 0)
        models_reply(m);
}

static void on_models_abort(kvr_http_req_t *req, void *arg)
{
    models_t *m = arg;
    for (size_t i = 0; i < m->n; i++) {
        if (m->fetches[i]) {
            kvr_fetch_cancel(m->fetches[i]);
            m->fetches[i] = NULL;
        }
    }
    kvr_http_req_abandon(req);
    models_free(m);
}

static void handle_models(kvr_server_env_t *r, kvr_http_req_t *req, const char *want_id)
{
    models_t *m = kvr_xcalloc(1, sizeof *m);
    m->r = r;
    m->req = req;
    m->want_id = want_id ? kvr_xstrdup(want_id) : NULL;
    m->data = cJSON_CreateArray();
    m->pending = 1; /* held until every fetch started, so a synchronous end cannot reply early */
    for (uint32_t i = 0; i < kvr_door_engines(r->door)->n_slots; i++) {
        kvr_engine_t *e = kvr_door_engines(r->door)->engines[i];
        if (!kvr_engine_is_candidate(e))
            continue;
        models_part_t *part = &m->parts[m->n];
        part->m = m;
        part->i = m->n;
        part->engine_id = kvr_xstrdup(e->id);
        if (kvr_fetch(kvr_door_pool(r->door, e->index), "/v1/models", MODELS_TIMEOUT_MS,
                      MODELS_MAX_BODY, on_models_part, part, &m->fetches[m->n]) < 0) {
            free(part->engine_id);
            part->engine_id = NULL;
            if (!e->models_pinned)
                add_known_models(m, e); /* no answer to wait for: the last good list stands in */
            continue;
        }
        m->n++;
        m->pending++;
    }
    kvr_http_req_on_abort(req, on_models_abort, m);
    if (--m->pending == 0)
        models_reply(m);
}

/* ---- admin ---- */

/*
 * Whether the Authorization value is "Bearer <token>", in time that depends
 * only on the sizes of the buffers, never on where the first difference is:
 * every byte of the expected value is compared (a shorter value reads as
 * NULs), and the length difference is folded in without a branch.
 */
static bool bearer_matches(const char *auth, const char *token)
{
    char want[8 + sizeof(((kvr_router_config_t *)0)->admin_token)];
    memset(want, 0, sizeof want);
    int want_len = snprintf(want, sizeof want, "Bearer %s", token);
    size_t auth_len = strlen(auth);
    volatile unsigned diff = (unsigned)((size_t)want_len ^ auth_len);
    for (size_t i = 0; i < sizeof want; i++) {
        unsigned char a = i < auth_len ? (unsigned char)auth[i] : 0;
        diff |= a ^ (unsigned char)want[i];
    }
    return diff == 0;
}

static bool admin_allowed(kvr_server_env_t *r, kvr_http_req_t *req)
{
    if (!r->cfg->admin_token[0]) {
        kvr_http_respond_error(req, 403, NULL,
                               "admin endpoints are disabled (start kvroute with --admin-token)",
                               NULL, 0);
        return false;
    }
    const char *auth = kvr_http_req_header(req, "Authorization");
    if (!auth || !bearer_matches(auth, r->cfg->admin_token)) {
        kvr_http_header_t h = {"WWW-Authenticate", "Bearer"};
        kvr_http_respond_error(req, 401, "authentication_error", "missing or wrong bearer token",
                               &h, 1);
        return false;
    }
    return true;
}

static void on_add_aborted(kvr_http_req_t *req, void *arg)
{
    kvr_http_req_t **waiting = arg;
    *waiting = NULL;
    kvr_http_req_abandon(req);
}

static void on_engine_added(int status, const char *url, kvr_engine_t *e, const char *why,
                            void *arg)
{
    kvr_http_req_t **waiting = arg;
    kvr_http_req_t *req = *waiting;
    free(waiting);
    if (!req)
        return; /* the client went away; the engine was added or not all the same */
    if (status < 0) {
        char msg[400];
        snprintf(msg, sizeof msg, "cannot add engine %s: %s", url, why);
        int code = status == -EEXIST ? 409 : status == -EAGAIN || status == -ECANCELED ? 503 : 400;
        kvr_http_respond_error(req, code, NULL, msg, NULL, 0);
        return;
    }
    cJSON *out = cJSON_CreateObject();
    if (!cJSON_AddStringToObject(out, "id", e->id) ||
        !cJSON_AddNumberToObject(out, "index", (double)e->index)) {
        cJSON_Delete(out);
        out = NULL;
    }
    respond_doc(req, 201, out);
}

static void handle_add_engine(kvr_server_env_t *r, kvr_http_req_t *req)
{
    if (!admin_allowed(r, req))
        return;
    size_t len;
    const char *body = kvr_http_req_body(req, &len);
    cJSON *doc = parse_object(body, len);
    kvr_json_strict_t strict;
    kvr_json_strict_init(&strict, doc, body, len);
    /* The engine's id is this URL: one that reads as another ("h:1\u0000x" as "h:1") is refused. */
    char ambiguous[160] = "";
    const char *why = "";
    const cJSON *url_item = NULL, *models = NULL, *role = NULL, *bootstrap = NULL;
    if (kvr_json_strict_member(&strict, doc, "url", &url_item, &why) < 0 ||
        (cJSON_IsString(url_item) && kvr_json_strict_string(&strict, url_item, true, &why) < 0))
        snprintf(ambiguous, sizeof ambiguous, "ambiguous body: \"url\" %s", why);
    else if (kvr_json_strict_member(&strict, doc, "models", &models, &why) < 0)
        snprintf(ambiguous, sizeof ambiguous, "ambiguous body: \"models\" %s", why);
    else if (kvr_json_strict_member(&strict, doc, "role", &role, &why) < 0)
        snprintf(ambiguous, sizeof ambiguous, "ambiguous body: \"role\" %s", why);
    else if (kvr_json_strict_member(&strict, doc, "bootstrap_port", &bootstrap, &why) < 0)
        snprintf(ambiguous, sizeof ambiguous, "ambiguous body: \"bootstrap_port\" %s", why);
    kvr_engine_role_t role_value = KVR_ENGINE_ROLE_BOTH;
    const char *url = cJSON_IsString(url_item) ? url_item->valuestring : NULL;
    kvr_model_list_t pinned = {0};
    const char *bad = ambiguous[0] ? ambiguous : NULL;
    if (!bad && !url)
        bad = "expected a JSON body {\"url\": \"http://host:port\"[, \"models\": [\"NAME\", "
              "...]][, \"role\": ROLE][, \"bootstrap_port\": N]}";
    if (!bad && models && !cJSON_IsArray(models))
        bad = "\"models\" must be an array of model names";
    if (!bad && role &&
        (!cJSON_IsString(role) ||
         kvr_engine_role_parse(role->valuestring, strlen(role->valuestring), &role_value) < 0))
        bad = "\"role\" must be \"prefill\", \"decode\" or \"both\"";
    /* As --engine's bootstrap_port=N: a port, 1-65535; null or left out, the engines' default. */
    uint16_t bootstrap_port = 0;
    if (!bad && bootstrap && !cJSON_IsNull(bootstrap)) {
        double v = cJSON_IsNumber(bootstrap) ? bootstrap->valuedouble : 0;
        if (!(v >= 1 && v <= 65535) || v != (double)(uint16_t)v)
            bad = "\"bootstrap_port\" must be a port, 1-65535, or null";
        else
            bootstrap_port = (uint16_t)v;
    }
    const cJSON *m;
    const cJSON *list = bad ? NULL : models;
    cJSON_ArrayForEach(m, list)
    {
        if (cJSON_IsString(m) && kvr_json_strict_string(&strict, m, true, &why) < 0) {
            snprintf(ambiguous, sizeof ambiguous, "ambiguous body: a model name %s", why);
            bad = ambiguous;
            break;
        }
        int added = cJSON_IsString(m) ? kvr_model_list_add(&pinned, m->valuestring) : -EINVAL;
        if (added < 0) {
            bad = added == -ENOSPC ? "too many models for one engine"
                                   : "each model must be a string of 1 to 256 bytes";
            break;
        }
    }
    kvr_json_strict_close(&strict);
    if (bad) {
        kvr_model_list_close(&pinned);
        cJSON_Delete(doc);
        kvr_http_respond_error(req, 400, NULL, bad, NULL, 0);
        return;
    }
    kvr_engine_spec_t spec;
    char spec_error[200];
    if (kvr_engine_spec_parse_url(url, &spec, spec_error, sizeof spec_error) < 0) {
        char msg[300];
        snprintf(msg, sizeof msg, "cannot add engine %.60s: %s", url, spec_error);
        kvr_model_list_close(&pinned);
        cJSON_Delete(doc);
        kvr_http_respond_error(req, 400, NULL, msg, NULL, 0);
        return;
    }
    spec.role = role_value;
    spec.bootstrap_port = bootstrap_port;
    cJSON_Delete(doc);
    /* The answer waits for the name's address; a client gone meanwhile is not answered. */
    kvr_http_req_t **waiting = kvr_xmalloc(sizeof *waiting);
    *waiting = req;
    kvr_http_req_on_abort(req, on_add_aborted, waiting);
    r->add_engine(r->ctx, &spec, &pinned, on_engine_added, waiting);
}

/*
 * Percent-decodes the id of DELETE /engines/{id} into out (cap bytes).
 * Refused rather than guessed at: a '%' without two hex digits, %00 (it
 * would cut the id short, "0%00x" naming engine 0) and an id that does not
 * fit (a truncated id could name another engine).
 */
static const char *decode_engine_id(const char *raw, char *out, size_t cap)
{
    size_t j = 0;
    for (size_t i = 0; raw[i]; i++) {
        char c = raw[i];
        if (c == '%') {
            int hi = kvr_hex_digit(raw[i + 1]), lo = hi >= 0 ? kvr_hex_digit(raw[i + 2]) : -1;
            if (hi < 0 || lo < 0)
                return "malformed percent-encoding in the engine id";
            c = (char)(hi * 16 + lo);
            if (c == '\0')
                return "the engine id contains %00";
            i += 2;
        }
        if (j + 1 >= cap)
            return "the engine id is too long";
        out[j++] = c;
    }
    out[j] = '\0';
    return NULL;
}

/*
 * An engine index: base-10 digits only (no sign, blank or suffix), within
 * 32 bits. 1 when id is such an index, 0 when it is not a number at all (it
 * can only be a URL), -ERANGE when it is digits but too large: strtoul's
 * wrap and a cast to 32 bits made "4294967296" name engine 0.
 */
static int parse_engine_index(const char *id, uint32_t *out)
{
    if (!id[0])
        return 0;
    for (const char *p = id; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(id, &end, 10);
    if (errno == ERANGE || *end != '\0' || v > UINT32_MAX)
        return -ERANGE;
    *out = (uint32_t)v;
    return 1;
}

static void handle_remove_engine(kvr_server_env_t *r, kvr_http_req_t *req, const char *raw_id)
{
    if (!admin_allowed(r, req))
        return;
    char id[512];
    const char *bad = decode_engine_id(raw_id, id, sizeof id);
    if (bad) {
        kvr_http_respond_error(req, 400, NULL, bad, NULL, 0);
        return;
    }
    kvr_engine_t *e = kvr_door_find_engine(r->door, id);
    kvr_engine_spec_t spec;
    char why[160];
    if (!e && kvr_engine_spec_parse_url(id, &spec, why, sizeof why) == 0)
        e = kvr_door_find_engine(r->door, spec.url); /* the URL as it was given */
    if (!e) {
        uint32_t index;
        int rc = parse_engine_index(id, &index);
        if (rc < 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "engine index %.40s is out of range (indexes are 0..%u)", id,
                     kvr_door_engines(r->door)->n_slots ? kvr_door_engines(r->door)->n_slots - 1
                                                        : 0);
            kvr_http_respond_error(req, 400, NULL, msg, NULL, 0);
            return;
        }
        if (rc == 1) {
            e = kvr_door_engine(r->door, index);
            if (e && e->removed)
                e = NULL;
        }
    }
    if (!e) {
        kvr_http_respond_error(req, 404, NULL,
                               "no such engine (give its URL, percent-encoded, or its index)", NULL,
                               0);
        return;
    }
    r->remove_engine(r->ctx, e);
    cJSON *out = cJSON_CreateObject();
    if (!cJSON_AddStringToObject(out, "removed", e->id) ||
        !cJSON_AddNumberToObject(out, "index", (double)e->index) ||
        !cJSON_AddNumberToObject(out, "in_flight", (double)e->shadow_requests)) {
        cJSON_Delete(out);
        out = NULL;
    }
    respond_doc(req, 200, out);
}

/* ---- dispatch ---- */

/* The engines' POST routes kvroute forwards: the body's model picks the pool. */
static bool is_proxy_path(const char *path)
{
    static const char *const routes[] = {
        "/v1/chat/completions", "/v1/completions", "/v1/responses",
        "/v1/embeddings",       "/generate",       "/tokenize",
        "/detokenize",
    };
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
        if (strcmp(path, routes[i]) == 0)
            return true;
    return false;
}

static void method_not_allowed(kvr_http_req_t *req, const char *allow)
{
    kvr_http_header_t h = {"Allow", allow};
    char msg[128];
    snprintf(msg, sizeof msg, "method %s not allowed here (allowed: %s)", kvr_http_req_method(req),
             allow);
    kvr_http_respond_error(req, 405, NULL, msg, &h, 1);
}

/* True when the request may go on; otherwise it was answered 401 in OpenAI's shape. */
static bool client_allowed(kvr_server_env_t *r, kvr_http_req_t *req)
{
    kvr_apikeys_t *keys = r->apikeys ? *r->apikeys : NULL;
    if (!keys)
        return true;
    int i = kvr_apikeys_check(keys, kvr_http_req_header(req, "Authorization"));
    if (i >= 0) {
        kvr_apikeys_count_request(keys, (size_t)i);
        return true;
    }
    static const char body[] = "{\"error\":{\"message\":\"Incorrect API key provided: pass it as "
                               "'Authorization: Bearer KEY'\",\"type\":\"invalid_request_error\","
                               "\"param\":null,\"code\":\"invalid_api_key\"}}";
    kvr_http_header_t h = {"WWW-Authenticate", "Bearer"};
    kvr_http_respond(req, 401, "application/json", &h, 1, body, sizeof body - 1);
    kvr_router_metrics_status(r->proxy->metrics, 401);
    return false;
}

/* /health and /readiness, on both listeners; false when path is neither. */
static bool serve_health(kvr_server_env_t *r, kvr_http_req_t *req, const char *path, bool get)
{
    if (strcmp(path, "/health") == 0) {
        if (!get) {
            method_not_allowed(req, "GET");
            return true;
        }
        static const char ok[] = "{\"status\":\"ok\"}";
        kvr_http_respond(req, 200, "application/json", NULL, 0, ok, sizeof ok - 1);
        return true;
    }
    if (strcmp(path, "/readiness") == 0) {
        if (!get) {
            method_not_allowed(req, "GET");
            return true;
        }
        kvr_readiness_t rd;
        kvr_health_readiness(r->door, r->cfg->readiness, &rd);
        bool ready = !r->proxy->drain.draining && rd.ready;
        const char *status = ready                      ? "ready"
                             : r->proxy->drain.draining ? "draining"
                             : rd.healthy == 0          ? "no_healthy_engine"
                                                        : "pool_down";
        respond_doc(req, ready ? 200 : 503, doc_readiness(status, &rd));
        kvr_health_readiness_close(&rd);
        return true;
    }
    return false;
}

/* /metrics and /engines; false when path is neither. */
static bool serve_admin(kvr_server_env_t *r, kvr_http_req_t *req, const char *path,
                        const char *method, bool get, bool post)
{
    if (strcmp(path, "/metrics") == 0) {
        if (!get) {
            method_not_allowed(req, "GET");
            return true;
        }
        size_t len;
        char *text = kvr_router_render_metrics(r->view, &len);
        kvr_http_respond(req, 200, "text/plain; version=0.0.4; charset=utf-8", NULL, 0, text, len);
        free(text);
        return true;
    }
    if (strcmp(path, "/engines") == 0) {
        if (get) {
            size_t len;
            char *text = kvr_router_render_engines(r->view, &len);
            kvr_http_respond(req, 200, "application/json", NULL, 0, text, len);
            free(text);
        } else if (post) {
            handle_add_engine(r, req);
        } else {
            method_not_allowed(req, "GET, POST");
        }
        return true;
    }
    if (strncmp(path, "/engines/", 9) == 0 && path[9]) {
        if (strcmp(method, "DELETE") != 0) {
            method_not_allowed(req, "DELETE");
            return true;
        }
        handle_remove_engine(r, req, path + 9);
        return true;
    }
    return false;
}

static void no_route(kvr_http_req_t *req, const char *path)
{
    char msg[300];
    snprintf(msg, sizeof msg, "no route for %.200s", path);
    kvr_http_respond_error(req, 404, NULL, msg, NULL, 0);
}

void kvr_router_on_request(kvr_http_req_t *req, void *user)
{
    kvr_server_env_t *r = user;
    const char *method = kvr_http_req_method(req);
    const char *path = kvr_http_req_path(req);
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    bool post = strcmp(method, "POST") == 0;

    if (serve_health(r, req, path, get))
        return;
    if (r->cfg->admin_on_client_port && serve_admin(r, req, path, method, get, post))
        return;
    /* The key is asked for before anything of the API answers, a 404 included. */
    bool api = strncmp(path, "/v1/", 4) == 0 || is_proxy_path(path);
    if (!api) {
        no_route(req, path);
        return;
    }
    if (!client_allowed(r, req))
        return;
    if (is_proxy_path(path)) {
        if (!post) {
            method_not_allowed(req, "POST");
        } else if (r->proxy->drain.draining) {
            kvr_http_header_t h = {"Connection", "close"};
            kvr_http_respond_error(req, 503, NULL, "kvroute is shutting down", &h, 1);
            kvr_router_metrics_status(r->proxy->metrics, 503);
        } else {
            kvr_proxy_handle(r->proxy, req);
        }
        return;
    }
    if (strcmp(path, "/v1/models") == 0) {
        if (!get) {
            method_not_allowed(req, "GET");
            return;
        }
        handle_models(r, req, NULL);
        return;
    }
    if (strncmp(path, "/v1/models/", 11) == 0 && path[11]) {
        if (!get) {
            method_not_allowed(req, "GET");
            return;
        }
        /* An id may hold '/' ("org/name") and arrive percent-encoded; %00 or a bad escape is no model. */
        char id[KVR_MODEL_NAME_MAX + 1];
        if (decode_engine_id(path + 11, id, sizeof id))
            respond_unknown_model(req, path + 11);
        else
            handle_models(r, req, id);
        return;
    }
    no_route(req, path);
}

void kvr_router_on_admin_request(kvr_http_req_t *req, void *user)
{
    kvr_server_env_t *r = user;
    const char *method = kvr_http_req_method(req);
    const char *path = kvr_http_req_path(req);
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    bool post = strcmp(method, "POST") == 0;
    if (!serve_health(r, req, path, get) && !serve_admin(r, req, path, method, get, post))
        no_route(req, path);
}
