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
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/tracegen/rng.h"
#include "common/error.h"

typedef struct {
    uint64_t seed;
    double window_s;
    double session_rate;   /* sessions per second, Poisson arrivals */
    unsigned tenants;
    double system_tokens;  /* median system prompt per tenant */
    double first_user_tokens;
    double user_tokens;    /* median new message per later turn (tool output, edits) */
    double output_tokens;  /* median answer */
    double length_sigma;   /* lognormal shape of every length */
    double turns_mean;     /* mean turns per session (1 + geometric) */
    unsigned turns_max;
    unsigned turns_fixed;  /* every session has exactly this many turns (0 = distribution) */
    unsigned sessions;     /* stop after this many sessions (0 = as many as the window holds) */
    double think_s;        /* mean think time between an answer and the next turn */
    double decode_ms_per_token; /* estimated answer time added to the gap between turns */
    unsigned input_max;    /* a session ends once its prompt would exceed this */
    unsigned output_max;
    unsigned block_size;   /* tokens per hash block */
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
        .seed = 1, .window_s = 600, .session_rate = 0.45, .tenants = 4,
        .system_tokens = 6000, .first_user_tokens = 2000, .user_tokens = 2500,
        .output_tokens = 350, .length_sigma = 0.8, .turns_mean = 6.0, .turns_max = 40,
        .think_s = 30, .decode_ms_per_token = 10, .input_max = 131072, .output_max = 4096,
        .block_size = 512,
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
        sys_tokens[t] = clamp_tokens(kvr_rng_lognormal(&rng, o->system_tokens, 0.3), o->input_max / 2);
        sys_first_id[t] = next_id;
        next_id += sys_tokens[t] / o->block_size;
    }

    /* The lognormal think time is scaled so its mean, not its median, is think_s. */
    double think_median = o->think_s * exp(-0.5 * 0.5 * 0.5);
    double arrival = kvr_rng_exponential(&rng, 1.0 / o->session_rate);
    for (unsigned s = 0; arrival < o->window_s && (!o->sessions || s < o->sessions); s++) {
        unsigned tenant = (unsigned)(kvr_rng_next(&rng) % o->tenants);
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
        unsigned sys_blocks = sys_tokens[tenant] / o->block_size;
        for (unsigned b = 0; b < sys_blocks && rc == 0; b++)
            rc = blocks_push(&blocks, sys_first_id[tenant] + b);
        uint64_t tokens = sys_tokens[tenant] +
                          clamp_tokens(kvr_rng_lognormal(&rng, o->first_user_tokens, o->length_sigma),
                                       o->input_max);
        double when = arrival;
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
                .output_length = clamp_tokens(kvr_rng_lognormal(&rng, o->output_tokens, o->length_sigma),
                                              o->output_max),
            };
            r.n_ids = blocks.n + (tokens % o->block_size ? 1 : 0);
            r.hash_ids = malloc(r.n_ids * sizeof(uint64_t));
            if (!r.hash_ids) {
                rc = -ENOMEM;
                break;
            }
            memcpy(r.hash_ids, blocks.ids, blocks.n * sizeof(uint64_t));
            if (r.n_ids > blocks.n)
                r.hash_ids[blocks.n] = next_id++; /* the partial tail: fresh content each turn */
            if ((rc = trace_push(out, &r)) != 0) {
                free(r.hash_ids);
                break;
            }
            tokens += r.output_length +
                      clamp_tokens(kvr_rng_lognormal(&rng, o->user_tokens, o->length_sigma), o->input_max);
            when += r.output_length * o->decode_ms_per_token / 1000.0 +
                    kvr_rng_lognormal(&rng, think_median, 0.5);
        }
        free(blocks.ids);
        if (rc)
            break;
        arrival += kvr_rng_exponential(&rng, 1.0 / o->session_rate);
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
static char *request_line(const tg_request_t *r)
{
    char session_id[32];
    snprintf(session_id, sizeof(session_id), "s%05u", r->session);
    cJSON *line = cJSON_CreateObject();
    bool ok = add_count(line, "timestamp", r->timestamp_ms) && add_count(line, "input_length", r->input_length) &&
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
    ok = ok && cJSON_AddStringToObject(line, "session_id", session_id) && add_count(line, "turn", r->turn);
    char *text = ok ? cJSON_PrintUnformatted(line) : NULL;
    cJSON_Delete(line);
    return text;
}

static int write_trace(FILE *f, const tg_trace_t *t)
{
    for (size_t i = 0; i < t->len; i++) {
        char *text = request_line(&t->items[i]);
        if (!text)
            return -ENOMEM;
        int rc = fputs(text, f);
        cJSON_free(text);
        if (rc == EOF || fputc('\n', f) == EOF)
            return -EIO;
    }
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f,
        "Usage: kvroute-tracegen [options] [-o FILE]\n"
        "Writes a multi-turn agentic trace as JSONL (Mooncake fields timestamp, input_length,\n"
        "output_length, hash_ids, plus session_id and turn), sorted by timestamp.\n"
        "Lengths are in tokens; a prompt's hash_ids cover ceil(input_length/block_size) blocks.\n\n"
        "  --preset NAME          study (default): 600 s, ~1,200 requests from ~270 sessions,\n"
        "                         30 s think time, coding-agent prompts; short: 60 s demo/CI scale.\n"
        "                         Options after --preset override its values.\n"
        "  --seed N               random seed; equal seeds and options give identical output (1)\n"
        "  --window S             seconds of session arrivals; turns past it are dropped\n"
        "  --session-rate R       new sessions per second (Poisson)\n"
        "  --tenants N            tenants, each with one shared system prompt\n"
        "  --system-tokens N      median system prompt length per tenant\n"
        "  --first-user-tokens N  median first user message\n"
        "  --user-tokens N        median new message appended per later turn\n"
        "  --output-tokens N      median answer length (output_length)\n"
        "  --length-sigma X       lognormal shape of message and answer lengths\n"
        "  --turns-mean X         mean turns per session (1 + geometric)\n"
        "  --turns-max N          cap on turns per session\n"
        "  --turns N              exactly N turns per session (overrides the two above)\n"
        "  --sessions N           stop after N sessions\n"
        "  --think S              mean think time between an answer and the next turn, seconds\n"
        "  --decode-ms X          estimated ms per output token, added to the gap between turns\n"
        "  --input-max N          a session ends before its prompt would exceed N tokens\n"
        "  --output-max N         cap on output_length\n"
        "  --block-size N         tokens per hash block (Mooncake uses 512)\n"
        "  -o, --output FILE      write here instead of stdout\n"
        "  --summary              print requests, sessions and token totals on stderr\n"
        "  -h, --help             this text\n");
}

static int parse_double(const char *s, double min, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= min) || !isfinite(v))
        return -EINVAL;
    *out = v;
    return 0;
}

static int parse_uint(const char *s, unsigned min, unsigned *out)
{
    double v;
    if (parse_double(s, min, &v) || v > 1e9 || v != floor(v))
        return -EINVAL;
    *out = (unsigned)v;
    return 0;
}

int main(int argc, char **argv)
{
    enum { O_PRESET = 256, O_SEED, O_WINDOW, O_RATE, O_TENANTS, O_SYS, O_FIRST, O_USER, O_OUT_TOK,
           O_SIGMA, O_TURNS, O_TURNS_MAX, O_THINK, O_DECODE, O_IN_MAX, O_OUT_MAX, O_BLOCK, O_TURNS_FIXED, O_SESSIONS, O_SUMMARY };
    static const struct option longopts[] = {
        {"preset", required_argument, 0, O_PRESET}, {"seed", required_argument, 0, O_SEED},
        {"window", required_argument, 0, O_WINDOW}, {"session-rate", required_argument, 0, O_RATE},
        {"tenants", required_argument, 0, O_TENANTS}, {"system-tokens", required_argument, 0, O_SYS},
        {"first-user-tokens", required_argument, 0, O_FIRST},
        {"user-tokens", required_argument, 0, O_USER}, {"output-tokens", required_argument, 0, O_OUT_TOK},
        {"length-sigma", required_argument, 0, O_SIGMA}, {"turns-mean", required_argument, 0, O_TURNS},
        {"turns-max", required_argument, 0, O_TURNS_MAX}, {"think", required_argument, 0, O_THINK},
        {"decode-ms", required_argument, 0, O_DECODE}, {"input-max", required_argument, 0, O_IN_MAX},
        {"output-max", required_argument, 0, O_OUT_MAX}, {"block-size", required_argument, 0, O_BLOCK},
        {"turns", required_argument, 0, O_TURNS_FIXED}, {"sessions", required_argument, 0, O_SESSIONS},
        {"output", required_argument, 0, 'o'}, {"summary", no_argument, 0, O_SUMMARY},
        {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
    };
    tg_options_t o;
    preset_study(&o);
    const char *out_path = NULL;
    int summary = 0, c, bad = 0;
    double seed_d;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case O_PRESET:
            if (preset_apply(&o, optarg)) {
                fprintf(stderr, "kvroute-tracegen: unknown preset '%s' (study, short)\n", optarg);
                return 2;
            }
            break;
        case O_SEED: bad = parse_double(optarg, 0, &seed_d); o.seed = (uint64_t)seed_d; break;
        case O_WINDOW: bad = parse_double(optarg, 0.001, &o.window_s); break;
        case O_RATE: bad = parse_double(optarg, 1e-6, &o.session_rate); break;
        case O_TENANTS: bad = parse_uint(optarg, 1, &o.tenants); break;
        case O_SYS: bad = parse_double(optarg, 0, &o.system_tokens); break;
        case O_FIRST: bad = parse_double(optarg, 1, &o.first_user_tokens); break;
        case O_USER: bad = parse_double(optarg, 1, &o.user_tokens); break;
        case O_OUT_TOK: bad = parse_double(optarg, 1, &o.output_tokens); break;
        case O_SIGMA: bad = parse_double(optarg, 0, &o.length_sigma); break;
        case O_TURNS: bad = parse_double(optarg, 1, &o.turns_mean); break;
        case O_TURNS_MAX: bad = parse_uint(optarg, 1, &o.turns_max); break;
        case O_THINK: bad = parse_double(optarg, 0, &o.think_s); break;
        case O_DECODE: bad = parse_double(optarg, 0, &o.decode_ms_per_token); break;
        case O_IN_MAX: bad = parse_uint(optarg, 1, &o.input_max); break;
        case O_OUT_MAX: bad = parse_uint(optarg, 1, &o.output_max); break;
        case O_BLOCK: bad = parse_uint(optarg, 1, &o.block_size); break;
        case O_TURNS_FIXED: bad = parse_uint(optarg, 1, &o.turns_fixed); break;
        case O_SESSIONS: bad = parse_uint(optarg, 1, &o.sessions); break;
        case 'o': out_path = optarg; break;
        case O_SUMMARY: summary = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
        if (bad) {
            fprintf(stderr, "kvroute-tracegen: invalid value '%s' for --%s\n", optarg,
                    longopts[c - O_PRESET].name);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "kvroute-tracegen: unexpected argument '%s' (see --help)\n", argv[optind]);
        return 2;
    }

    tg_trace_t trace = {0};
    int rc = generate(&o, &trace);
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
    rc = write_trace(f, &trace);
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
