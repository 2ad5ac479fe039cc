/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-tracegen: multi-turn agentic sessions as a JSONL trace in
 * Mooncake's fields (timestamp ms, input_length, output_length, hash_ids)
 * plus session_id and turn.
 *
 * A session belongs to a tenant whose system prompt all its sessions share.
 * Turn k+1's prompt is turn k's prompt + turn k's answer + a new user message,
 * so hash_ids of later turns start with the full blocks of earlier turns: the
 * prefix grows the way a coding agent's context does. The last, partial
 * block of a prompt gets a fresh id (its content changes when the prompt
 * grows), exactly as a content hash of it would.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/rng.h"
#include "common/error.h"
#include "common/options.h"

typedef struct {
    uint64_t seed;
    double window_s;
    double session_rate; /* sessions per second, Poisson arrivals */
    unsigned tenants;
    double system_tokens; /* median system prompt per tenant */
    double first_user_tokens;
    double user_tokens;   /* median new message per later turn (tool output, edits) */
    double output_tokens; /* median answer */
    double length_sigma;  /* lognormal shape of every length */
    double turns_mean;    /* mean turns per session (1 + geometric) */
    unsigned turns_max;
    unsigned turns_fixed; /* every session has exactly this many turns (0 = distribution) */
    unsigned sessions;    /* stop after this many sessions (0 = as many as the window holds) */
    double think_s;       /* mean think time between an answer and the next turn */
    double decode_ms_per_token; /* estimated answer time added to the gap between turns */
    unsigned input_max;         /* a session ends once its prompt would exceed this */
    unsigned output_max;
    unsigned block_size; /* tokens per hash block */
    bool
        no_session_ids; /* write neither session_id nor turn: requests linked only by shared hash ids */
    double burst_period_s; /* > 0: sessions start in a spike at the head of each period */
    double burst_width_s;  /* how long each spike lasts */
    double
        system_sigma;   /* lognormal shape of a tenant's system prompt (0: exactly system_tokens) */
    double first_sigma; /* lognormal shape of the first user message (< 0: length_sigma) */
    double shared_share; /* share of sessions that start with their tenant's system prompt */
    double group_mean;   /* > 1: sessions start in groups of this mean size at one timestamp */
    double ramp_to;      /* the session rate at the window's end, as a multiple of session_rate */
} tg_options_t;

typedef struct {
    uint64_t timestamp_ms;
    unsigned session;
    unsigned turn;
    unsigned input_length;
    unsigned output_length;
    size_t n_ids;
    uint64_t *hash_ids;
} tg_request_t;

typedef struct {
    tg_request_t *items;
    size_t len, cap;
} tg_trace_t;

static void preset_study(tg_options_t *o)
{
    /* The published study: 600 s, ~1,200 requests from ~270 sessions, 30 s
     * think time, coding-agent prompts (large shared context, tool output
     * appended every turn, prompts reaching tens of thousands of tokens). */
    *o = (tg_options_t){
        .seed = 1,
        .window_s = 600,
        .session_rate = 0.45,
        .tenants = 4,
        .system_tokens = 6000,
        .first_user_tokens = 2000,
        .user_tokens = 2500,
        .output_tokens = 350,
        .length_sigma = 0.8,
        .turns_mean = 6.0,
        .turns_max = 40,
        .think_s = 30,
        .decode_ms_per_token = 10,
        .input_max = 131072,
        .output_max = 4096,
        .block_size = 512,
        .burst_period_s = 0,
        .burst_width_s = 1,
        .system_sigma = 0.3,
        .first_sigma = -1,
        .shared_share = 1,
        .group_mean = 1,
        .ramp_to = 1,
    };
}

static int preset_apply(tg_options_t *o, const char *name)
{
    preset_study(o);
    if (strcmp(name, "study") == 0)
        return 0;
    if (strcmp(name, "short") == 0) {
        /* A minute of the same shape at a smaller scale: the demo and CI. */
        o->window_s = 60;
        o->session_rate = 0.5;
        o->think_s = 8;
        o->system_tokens = 3000;
        o->first_user_tokens = 1000;
        o->user_tokens = 800;
        o->output_tokens = 120;
        o->output_max = 512;
        o->input_max = 32768;
        o->turns_mean = 4;
        return 0;
    }
    if (strcmp(name, "mooncake") == 0) {
        /* The shape of Mooncake's conversation trace: an hour, ~12k requests,
         * prompts of ~12k tokens, ~300-token answers, and no session ids: a
         * router sees requests that share long prefixes with requests minutes
         * earlier (a 90 s mean think time) and nothing that says so but the
         * hash ids. */
        o->window_s = 3600;
        o->session_rate = 0.62;
        o->system_tokens = 4500;
        o->first_user_tokens = 1500;
        o->user_tokens = 800;
        o->output_tokens = 300;
        o->input_max = 65536;
        o->think_s = 90;
        o->no_session_ids = true;
        return 0;
    }
    if (strcmp(name, "sessionless-shared") == 0 || strcmp(name, "grouped") == 0 ||
        strcmp(name, "ramp-burst") == 0 || strcmp(name, "long-tail") == 0) {
        /* A public one-hour production chat/API trace as published: ~12k requests,
         * prompts of ~12k tokens on average, ~350-token answers, no sessions at all;
         * one system-prompt block opens almost every prompt and little else is shared. */
        o->window_s = 3600;
        o->session_rate = 3.35;
        o->tenants = 1;
        o->system_tokens = 512;
        o->system_sigma = 0;
        o->shared_share = 0.95;
        o->first_user_tokens = 8650;
        o->output_tokens = 255;
        o->output_max = 4096;
        o->input_max = 65536;
        o->turns_fixed = 1;
        o->no_session_ids = true;
        if (strcmp(name, "grouped") == 0) {
            /* Its timestamps as published: whole groups of requests in one millisecond. */
            o->group_mean = 10;
        } else if (strcmp(name, "ramp-burst") == 0) {
            /* The rate climbs from half to 1.5 times the mean; every minute opens with a 10 s spike. */
            o->session_rate = 3.35 / 2;
            o->ramp_to = 3;
            o->burst_period_s = 60;
            o->burst_width_s = 10;
        } else if (strcmp(name, "long-tail") == 0) {
            /* Document and code-base prompts: the same mean, a p99 past 100k tokens. */
            o->first_user_tokens = 4200;
            o->first_sigma = 1.5;
            o->input_max = 200000;
        }
        return 0;
    }
    if (strcmp(name, "tenants") == 0) {
        /* The prefix-aware scheduling benchmark llm-d published: 150 tenants, each
         * with a 6k-token shared prefix, 1.2k-token questions, a rising rate; the
         * tenants' prefixes together exceed the fleet's KV. */
        o->window_s = 600;
        o->session_rate = 2;
        o->ramp_to = 8;
        o->tenants = 150;
        o->system_tokens = 6000;
        o->system_sigma = 0;
        o->first_user_tokens = 1200;
        o->first_sigma = 0.3;
        o->output_tokens = 250;
        o->length_sigma = 0.5;
        o->output_max = 2048;
        o->turns_fixed = 1;
        o->no_session_ids = true;
        return 0;
    }
    if (strcmp(name, "agentic") == 0) {
        /* Coding-agent trajectories: many quick turns, each the previous turn's
         * whole context plus tool output, so one session's prefix keeps growing
         * on the engine that holds it (bench/hot_owner's shape). */
        o->window_s = 600;
        o->session_rate = 0.3;
        o->turns_mean = 10;
        o->turns_max = 40;
        o->think_s = 4;
        o->first_user_tokens = 2000;
        o->user_tokens = 1500;
        o->input_max = 131072;
        return 0;
    }
    return -EINVAL;
}

static int trace_push(tg_trace_t *t, const tg_request_t *r)
{
    if (t->len == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        tg_request_t *items = realloc(t->items, cap * sizeof(*items));
        if (!items)
            return -ENOMEM;
        t->items = items;
        t->cap = cap;
    }
    t->items[t->len++] = *r;
    return 0;
}

static void trace_free(tg_trace_t *t)
{
    for (size_t i = 0; i < t->len; i++)
        free(t->items[i].hash_ids);
    free(t->items);
}

static unsigned clamp_tokens(double v, unsigned max)
{
    if (v < 1)
        return 1;
    if (v > max)
        return max;
    return (unsigned)lround(v);
}

/* The session's full-block ids grow turn by turn; ids[] holds them. */
typedef struct {
    uint64_t *ids;
    size_t n, cap;
} tg_blocks_t;

static int blocks_push(tg_blocks_t *b, uint64_t id)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        uint64_t *ids = realloc(b->ids, cap * sizeof(*ids));
        if (!ids)
            return -ENOMEM;
        b->ids = ids;
        b->cap = cap;
    }
    b->ids[b->n++] = id;
    return 0;
}

/*
 * Bursts keep the sessions' count and order: the arrivals of each period are
 * squeezed into its first burst_width_s seconds, so the mean rate is the
 * same and the instant rate is period / width times higher in a spike.
 */
static double burst_time(const tg_options_t *o, double arrival)
{
    if (o->burst_period_s <= 0 || o->burst_width_s >= o->burst_period_s)
        return arrival;
    double start = floor(arrival / o->burst_period_s) * o->burst_period_s;
    return start + (arrival - start) * o->burst_width_s / o->burst_period_s;
}

/*
 * The wait before the next session (or group of sessions) starts: Poisson at
 * the rate of the moment, which --ramp-to moves linearly from session_rate at
 * 0 to ramp_to times it at the window's end. Groups of group_mean sessions
 * on average arrive group_mean times less often, so the request rate holds.
 */
static double next_gap(const tg_options_t *o, kvr_rng_t *rng, double now)
{
    if (o->ramp_to == 1 && o->group_mean <= 1)
        return kvr_rng_exponential(rng, 1.0 / o->session_rate);
    double t = now < o->window_s ? now : o->window_s;
    double rate = o->session_rate * (1.0 + (o->ramp_to - 1.0) * t / o->window_s);
    double group = o->group_mean > 1 ? o->group_mean : 1;
    return kvr_rng_exponential(rng, group / rate);
}

/* How many more sessions share the next arrival's timestamp: uniform in [0, 2 group_mean - 2]. */
static unsigned group_extra(const tg_options_t *o, kvr_rng_t *rng)
{
    if (o->group_mean <= 1)
        return 0;
    uint64_t span = (uint64_t)lround(2 * o->group_mean - 1);
    return (unsigned)(kvr_rng_next(rng) % span);
}

static int generate(const tg_options_t *o, tg_trace_t *out)
{
    kvr_rng_t rng;
    kvr_rng_seed(&rng, o->seed);
    uint64_t next_id = 0;
    int rc = 0;

    /* Tenant system prompts: their full blocks are shared by every session of the tenant. */
    unsigned *sys_tokens = calloc(o->tenants, sizeof(*sys_tokens));
    uint64_t *sys_first_id = calloc(o->tenants, sizeof(*sys_first_id));
    if (!sys_tokens || !sys_first_id) {
        rc = -ENOMEM;
        goto fail_tenants;
    }
    for (unsigned t = 0; t < o->tenants; t++) {
        sys_tokens[t] = clamp_tokens(kvr_rng_lognormal(&rng, o->system_tokens, o->system_sigma),
                                     o->input_max / 2);
        sys_first_id[t] = next_id;
        next_id += sys_tokens[t] / o->block_size;
    }

    /* The lognormal think time is scaled so its mean, not its median, is think_s. */
    double think_median = o->think_s * exp(-0.5 * 0.5 * 0.5);
    double first_sigma = o->first_sigma >= 0 ? o->first_sigma : o->length_sigma;
    double arrival = next_gap(o, &rng, 0);
    unsigned group_left = group_extra(o, &rng);
    for (unsigned s = 0; arrival < o->window_s && (!o->sessions || s < o->sessions); s++) {
        unsigned tenant = (unsigned)(kvr_rng_next(&rng) % o->tenants);
        bool shared = o->shared_share >= 1 || kvr_rng_uniform(&rng) < o->shared_share;
        unsigned turns = 1;
        if (o->turns_fixed) {
            turns = o->turns_fixed;
        } else if (o->turns_mean > 1) {
            /* geometric number of extra turns with mean turns_mean - 1 */
            double p = 1.0 / o->turns_mean;
            while (turns < o->turns_max && kvr_rng_uniform(&rng) > p)
                turns++;
        }
        tg_blocks_t blocks = {0};
        unsigned sys_len = shared ? sys_tokens[tenant] : 0;
        unsigned sys_blocks = sys_len / o->block_size;
        for (unsigned b = 0; b < sys_blocks && rc == 0; b++)
            rc = blocks_push(&blocks, sys_first_id[tenant] + b);
        uint64_t tokens = sys_len +
                          clamp_tokens(kvr_rng_lognormal(&rng, o->first_user_tokens, first_sigma),
                                       o->input_max);
        double when = burst_time(o, arrival);
        for (unsigned turn = 0; turn < turns && rc == 0; turn++) {
            if (when >= o->window_s || tokens > o->input_max)
                break;
            while (blocks.n < tokens / o->block_size && rc == 0)
                rc = blocks_push(&blocks, next_id++);
            if (rc)
                break;
            tg_request_t r = {
                .timestamp_ms = (uint64_t)(when * 1000.0),
                .session = s,
                .turn = turn,
                .input_length = (unsigned)tokens,
                .output_length = clamp_tokens(
                    kvr_rng_lognormal(&rng, o->output_tokens, o->length_sigma), o->output_max),
            };
            r.n_ids = blocks.n + (tokens % o->block_size ? 1 : 0);
            r.hash_ids = malloc(r.n_ids * sizeof(uint64_t));
            if (!r.hash_ids) {
                rc = -ENOMEM;
                break;
            }
            if (blocks.n) /* a prompt shorter than a block has none (and ids may still be NULL) */
                memcpy(r.hash_ids, blocks.ids, blocks.n * sizeof(uint64_t));
            if (r.n_ids > blocks.n)
                r.hash_ids[blocks.n] = next_id++; /* the partial tail: fresh content each turn */
            if ((rc = trace_push(out, &r)) != 0) {
                free(r.hash_ids);
                break;
            }
            tokens += r.output_length +
                      clamp_tokens(kvr_rng_lognormal(&rng, o->user_tokens, o->length_sigma),
                                   o->input_max);
            when += r.output_length * o->decode_ms_per_token / 1000.0 +
                    kvr_rng_lognormal(&rng, think_median, 0.5);
        }
        free(blocks.ids);
        if (rc)
            break;
        if (group_left > 0) {
            group_left--;
        } else {
            arrival += next_gap(o, &rng, arrival);
            group_left = group_extra(o, &rng);
        }
    }
fail_tenants:
    free(sys_first_id);
    free(sys_tokens);
    return rc;
}

static int request_cmp(const void *a, const void *b)
{
    const tg_request_t *x = a, *y = b;
    if (x->timestamp_ms != y->timestamp_ms)
        return x->timestamp_ms < y->timestamp_ms ? -1 : 1;
    if (x->session != y->session)
        return x->session < y->session ? -1 : 1;
    return x->turn < y->turn ? -1 : x->turn > y->turn;
}

/* A count as an integer at full 64-bit width: cJSON's doubles would round past 2^53
 * and print 1e15 and up in exponent form. NULL when out of memory. */
static cJSON *count_json(uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof(buf), "%" PRIu64, v);
    return cJSON_CreateRaw(buf);
}

static bool add_count(cJSON *o, const char *key, uint64_t v)
{
    cJSON *item = count_json(v);
    if (!cJSON_AddItemToObject(o, key, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

/* {"timestamp":..,"input_length":..,"output_length":..,"hash_ids":[..],"session_id":"s00000","turn":..} */
static char *request_line(const tg_request_t *r, bool session_ids)
{
    char session_id[32];
    snprintf(session_id, sizeof(session_id), "s%05u", r->session);
    cJSON *line = cJSON_CreateObject();
    bool ok = add_count(line, "timestamp", r->timestamp_ms) &&
              add_count(line, "input_length", r->input_length) &&
              add_count(line, "output_length", r->output_length);
    cJSON *ids = ok ? cJSON_AddArrayToObject(line, "hash_ids") : NULL;
    ok = ids != NULL;
    for (size_t k = 0; ok && k < r->n_ids; k++) {
        cJSON *id = count_json(r->hash_ids[k]);
        if (!cJSON_AddItemToArray(ids, id)) {
            cJSON_Delete(id);
            ok = false;
        }
    }
    if (session_ids)
        ok = ok && cJSON_AddStringToObject(line, "session_id", session_id) &&
             add_count(line, "turn", r->turn);
    char *text = ok ? cJSON_PrintUnformatted(line) : NULL;
    cJSON_Delete(line);
    return text;
}

static int write_trace(FILE *f, const tg_trace_t *t, bool session_ids)
{
    for (size_t i = 0; i < t->len; i++) {
        char *text = request_line(&t->items[i], session_ids);
        if (!text)
            return -ENOMEM;
        int rc = fputs(text, f);
        cJSON_free(text);
        if (rc == EOF || fputc('\n', f) == EOF)
            return -EIO;
    }
    return 0;
}

static const char usage_text[] =
    "Usage: kvroute-tracegen [options] [-o FILE]\n"
    "Writes a multi-turn agentic trace as JSONL (Mooncake fields timestamp, input_length,\n"
    "output_length, hash_ids, plus session_id and turn unless --no-session-ids), sorted by\n"
    "timestamp.\n"
    "Lengths are in tokens; a prompt's hash_ids cover ceil(input_length/block_size) blocks.\n"
    "Every value not given comes from --preset.\n\n";

/* What the command line fills: the generator's options and where the trace goes. */
typedef struct {
    tg_options_t gen;
    const char *out_path;
    bool summary;
} tg_args_t;

static int parse_preset(const kvr_opt_t *opt, void *obj, const char *value, char *err,
                        size_t err_len)
{
    (void)opt;
    (void)err;
    (void)err_len;
    tg_args_t *args = obj;
    return preset_apply(&args->gen, value);
}

#define T tg_args_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_CUSTOM(
        "preset", "NAME", "study", parse_preset,
        "one of study, short, mooncake, sessionless-shared, grouped, ramp-burst, long-tail, "
        "tenants, agentic",
        0,
        "study: 600 s, ~1,200 requests from ~270 sessions, 30 s think time, coding-agent prompts; "
        "short: 60 s demo/CI scale; mooncake: the shape of Mooncake's conversation trace, an hour, "
        "~12k requests of ~12k tokens, 90 s think time, no session ids; "
        "sessionless-shared: a public hour of chat/API traffic, 12k single requests of ~12k tokens "
        "opening with one shared system block; grouped: the same in same-millisecond groups of ~10; "
        "ramp-burst: the same with a rising rate and a 10 s spike every minute; long-tail: the same "
        "with prompts past 100k tokens at p99; tenants: 150 tenants x 6k shared tokens + 1.2k-token "
        "questions at a rate rising 8x over 600 s; agentic: sessions of ~10 quick turns, each "
        "extending the whole previous context (bench/tracegen/README.md says what each stands "
        "for). Options after --preset override its values."),
    KVR_OPT_ROW_U64(T, gen.seed, "seed", "N", NULL, 0, UINT64_MAX,
                    "random seed; equal seeds and options give identical output (study: 1)"),
    KVR_OPT_ROW_DOUBLE(T, gen.window_s, "window", "S", NULL, 0.001, 1e9,
                       "seconds of session arrivals; turns past it are dropped"),
    KVR_OPT_ROW_DOUBLE(T, gen.session_rate, "session-rate", "R", NULL, 1e-6, 1e9,
                       "new sessions per second (Poisson)"),
    KVR_OPT_ROW_U64(T, gen.tenants, "tenants", "N", NULL, 1, 1000000000,
                    "tenants, each with one shared system prompt"),
    KVR_OPT_ROW_DOUBLE(T, gen.system_tokens, "system-tokens", "N", NULL, 0, 1e9,
                       "median system prompt length per tenant"),
    KVR_OPT_ROW_DOUBLE(T, gen.first_user_tokens, "first-user-tokens", "N", NULL, 1, 1e9,
                       "median first user message"),
    KVR_OPT_ROW_DOUBLE(T, gen.user_tokens, "user-tokens", "N", NULL, 1, 1e9,
                       "median new message appended per later turn"),
    KVR_OPT_ROW_DOUBLE(T, gen.output_tokens, "output-tokens", "N", NULL, 1, 1e9,
                       "median answer length (output_length)"),
    KVR_OPT_ROW_DOUBLE(T, gen.length_sigma, "length-sigma", "X", NULL, 0, 1e3,
                       "lognormal shape of message and answer lengths"),
    KVR_OPT_ROW_DOUBLE(T, gen.turns_mean, "turns-mean", "X", NULL, 1, 1e9,
                       "mean turns per session (1 + geometric)"),
    KVR_OPT_ROW_U64(T, gen.turns_max, "turns-max", "N", NULL, 1, 1000000000,
                    "cap on turns per session"),
    KVR_OPT_ROW_U64(T, gen.turns_fixed, "turns", "N", NULL, 1, 1000000000,
                    "exactly N turns per session (overrides the two above)"),
    KVR_OPT_ROW_U64(T, gen.sessions, "sessions", "N", NULL, 1, 1000000000, "stop after N sessions"),
    KVR_OPT_ROW_DOUBLE(T, gen.think_s, "think", "S", NULL, 0, 1e9,
                       "mean think time between an answer and the next turn, seconds"),
    KVR_OPT_ROW_DOUBLE(T, gen.decode_ms_per_token, "decode-ms", "X", NULL, 0, 1e9,
                       "estimated ms per output token, added to the gap between turns"),
    KVR_OPT_ROW_U64(T, gen.input_max, "input-max", "N", NULL, 1, 1000000000,
                    "a session ends before its prompt would exceed N tokens"),
    KVR_OPT_ROW_U64(T, gen.output_max, "output-max", "N", NULL, 1, 1000000000,
                    "cap on output_length"),
    KVR_OPT_ROW_U64(T, gen.block_size, "block-size", "N", NULL, 1, 1000000000,
                    "tokens per hash block (Mooncake uses 512)"),
    KVR_OPT_ROW_DOUBLE(
        T, gen.burst_period_s, "burst-period", "S", "0", 0, 1e9,
        "arrivals in spikes: the sessions starting in each S seconds start in its first "
        "--burst-width seconds instead (0 = Poisson, no spikes)"),
    KVR_OPT_ROW_DOUBLE(
        T, gen.burst_width_s, "burst-width", "S", "1", 0.001, 1e9,
        "length of each spike of --burst-period (same mean rate; the spike's rate is "
        "period / width times it)"),
    KVR_OPT_ROW_DOUBLE(
        T, gen.system_sigma, "system-sigma", "X", NULL, 0, 1e3,
        "lognormal shape of each tenant's system prompt length (0: exactly --system-tokens; "
        "study: 0.3)"),
    KVR_OPT_ROW_DOUBLE(T, gen.first_sigma, "first-sigma", "X", NULL, 0, 1e3,
                       "lognormal shape of the first user message (study: --length-sigma's)"),
    KVR_OPT_ROW_DOUBLE(
        T, gen.shared_share, "shared-share", "P", NULL, 0, 1,
        "share of sessions whose prompt starts with their tenant's system prompt; the others "
        "have none (study: 1)"),
    KVR_OPT_ROW_DOUBLE(
        T, gen.group_mean, "group", "N", NULL, 1, 1e6,
        "sessions start in groups at one timestamp, N per group on average (uniform 1 to 2N-1), "
        "the groups N times less often (study: 1, no groups)"),
    KVR_OPT_ROW_DOUBLE(
        T, gen.ramp_to, "ramp-to", "X", NULL, 1e-3, 1e6,
        "the session rate grows linearly from --session-rate at 0 to X times it at the window's "
        "end (study: 1, a flat rate)"),
    {.name = "output",
     .short_name = 'o',
     .type = KVR_OPT_STRING,
     .offset = offsetof(T, out_path),
     .arg = "FILE",
     .help = "write here instead of stdout"},
    KVR_OPT_ROW_BOOL(
        T, gen.no_session_ids, "no-session-ids", NULL,
        "write neither session_id nor turn (requests share prefixes by hash ids only; mooncake: on)"),
    KVR_OPT_ROW_BOOL(T, summary, "summary", NULL,
                     "print requests, sessions and token totals on stderr"),
    KVR_OPT_ROW_HELP,
};
#undef T

int main(int argc, char **argv)
{
    static tg_args_t args;
    kvr_opt_set_t set = {
        .opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &args};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {.name = "kvroute-tracegen", .head = usage_text};
    int rc = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (rc != 0)
        return rc > 0 ? 0 : 2;
    tg_options_t o = args.gen;
    const char *out_path = args.out_path;
    bool summary = args.summary;

    tg_trace_t trace = {0};
    rc = generate(&o, &trace);
    if (rc) {
        fprintf(stderr, "kvroute-tracegen: %s\n", kvr_strerror(rc));
        trace_free(&trace);
        return 1;
    }
    qsort(trace.items, trace.len, sizeof(*trace.items), request_cmp);

    FILE *f = stdout;
    if (out_path && !(f = fopen(out_path, "w"))) {
        fprintf(stderr, "kvroute-tracegen: cannot write %s: %s\n", out_path, strerror(errno));
        trace_free(&trace);
        return 1;
    }
    rc = write_trace(f, &trace, !o.no_session_ids);
    if (f != stdout && fclose(f) != 0 && rc == 0)
        rc = -EIO;
    if (rc) {
        fprintf(stderr, "kvroute-tracegen: writing the trace failed: %s\n", kvr_strerror(rc));
        trace_free(&trace);
        return 1;
    }
    if (summary) {
        unsigned sessions = 0;
        uint64_t in = 0, out = 0, max_in = 0;
        for (size_t i = 0; i < trace.len; i++) {
            const tg_request_t *r = &trace.items[i];
            sessions = r->session + 1 > sessions ? r->session + 1 : sessions;
            in += r->input_length;
            out += r->output_length;
            max_in = r->input_length > max_in ? r->input_length : max_in;
        }
        fprintf(stderr,
                "kvroute-tracegen: %zu requests, %u sessions, input tokens mean %.0f max %" PRIu64
                ", output tokens mean %.0f\n",
                trace.len, sessions, trace.len ? (double)in / trace.len : 0.0, max_in,
                trace.len ? (double)out / trace.len : 0.0);
    }
    trace_free(&trace);
    return 0;
}
