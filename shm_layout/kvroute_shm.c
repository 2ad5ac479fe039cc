/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-shm: the operator's view of a state segment. create, dump (table
 * or JSON), watch. Every failure is one line on stderr and a non-zero exit.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shm_layout/shm_layout.h"

/* The build defines both (shm_layout/CMakeLists.txt); a copy of this folder built on its own has
 * neither. */
#ifndef KVR_VERSION
#define KVR_VERSION "unknown"
#endif
#ifndef KVR_COMMIT
#define KVR_COMMIT "unknown"
#endif

/* CLOCK_MONOTONIC, the segment's clock. */
static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * KVR_SHM_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Milliseconds for display; a time from the future shows as -1. */
static double age_ms(uint64_t age_ns)
{
    return age_ns == UINT64_MAX ? -1.0 : (double)age_ns / 1e6;
}

/* An engine id from the segment, fit for a terminal: control bytes become '?'. */
static void printable(char *out, size_t size, const char *in)
{
    size_t n = 0;
    for (; in[n] != '\0' && n + 1 < size; n++)
        out[n] = (unsigned char)in[n] < 0x20 || in[n] == 0x7f ? '?' : in[n];
    out[n] = '\0';
}

static const char usage[] =
    "usage: kvroute-shm COMMAND NAME [options]\n"
    "\n"
    "Inspect or create a kvroute state segment (the POSIX shared-memory object\n"
    "kvroute-statefeed writes and kvroute routers read). NAME is the shm name,\n"
    "e.g. /kvroute-state (the leading '/' may be omitted).\n"
    "\n"
    "commands:\n"
    "  create NAME --capacity N   create an empty segment with N engine slots\n"
    "                             (refused while a live writer owns NAME)\n"
    "  dump NAME [--json]         print the header and one row per engine:\n"
    "                             engine, healthy, age, running, waiting, cap,\n"
    "                             KV, pending prefill, source\n"
    "  watch NAME [--interval-ms MS]  redraw the dump every MS\n"
    "                             until interrupted\n"
    "\n"
    "options:\n"
    "  --capacity N      slots for create (1..65536)\n"
    "  --json            dump as one JSON object\n"
    "  --interval-ms MS  refresh period for watch, 10..3600000 (default 500)\n"
    "  -h, --help        this text\n"
    "  --version         print the version and exit\n"
    "\n"
    "exit status: 0 ok, 1 the segment is missing, foreign, corrupt or of another\n"
    "ABI major version, 2 usage error\n";

/*
 * This folder compiles alone (a reader needs only shm_layout/), so the tool
 * cannot take common/options; its integers follow the same rules and error
 * line as every other program's: base 10, digits only, in range.
 */
static long flag_integer(const char *flag, const char *text, long min, long max)
{
    char *end;
    errno = 0;
    long v = text[0] >= '0' && text[0] <= '9' ? strtol(text, &end, 10) : -1;
    if (v < 0 || errno != 0 || *end != '\0' || v < min || v > max) {
        fprintf(stderr, "kvroute-shm: --%s: expected an integer in [%ld, %ld], got '%s'\n", flag,
                min, max, text);
        exit(2);
    }
    return v;
}

static void die_usage(const char *msg)
{
    fprintf(stderr, "kvroute-shm: %s (see kvroute-shm --help)\n", msg);
    exit(2);
}

static int open_or_explain(kvr_shm_t *shm, const char *name)
{
    int rc = kvr_shm_open(shm, name);
    char text[512];
    if (rc == -ENOENT)
        fprintf(stderr, "kvroute-shm: %s: no such segment (is kvroute-statefeed running?)\n", name);
    else if (rc < 0)
        fprintf(stderr, "kvroute-shm: %s: %s\n", name, kvr_shm_explain(shm, rc, text, sizeof text));
    return rc;
}

/* Before every look at the mapping: a segment changed under us is reopened, not read. */
static int still_readable(kvr_shm_t *shm, const char *name)
{
    int rc = kvr_shm_check_size(shm);
    if (rc == 0)
        return 0;
    char text[512];
    fprintf(stderr, "kvroute-shm: %s: %s; reopening\n", name,
            kvr_shm_explain(shm, rc, text, sizeof text));
    kvr_shm_close(shm);
    return open_or_explain(shm, name);
}

static const char *writer_text(const kvr_shm_t *shm, uint64_t now)
{
    switch (kvr_shm_check_heartbeat(shm, now, 2 * KVR_SHM_NS_PER_SEC)) {
    case 0: return "live";
    case KVR_ESHM_STALE: return "stale";
    default:
        return atomic_load(&shm->header->writer_state) == KVR_SHM_WRITER_STOPPED ? "stopped"
                                                                                 : "none";
    }
}

static void dump_table(const kvr_shm_t *shm, FILE *out)
{
    const kvr_shm_header_t *h = shm->header;
    uint64_t now = now_ns();
    uint64_t beat = atomic_load(&h->heartbeat_ns);
    fprintf(out,
            "segment %s  abi %u.%u  capacity %u  engines %u  generation %llu\n"
            "writer pid %lld  %s  heartbeat %.1f ms ago\n\n",
            shm->name, h->abi_major, h->abi_minor, shm->capacity, atomic_load(&h->engines_in_use),
            (unsigned long long)kvr_shm_generation(shm), (long long)atomic_load(&h->writer_pid),
            writer_text(shm, now), age_ms(kvr_shm_age_ns(now, beat)));
    fprintf(out, "%-4s %-34s %-7s %9s %7s %7s %5s %6s %12s %8s\n", "slot", "engine", "healthy",
            "age_ms", "running", "waiting", "cap", "kv%", "pending_pf", "source");
    for (uint32_t i = 0; i < shm->capacity; i++) {
        kvr_engine_state_t s;
        uint64_t age;
        int rc = kvr_shm_read_slot(shm, i, now, &s, &age);
        if (rc == -ENOENT)
            continue;
        char text[256];
        if (rc < 0) {
            fprintf(out, "%-4u (unreadable: %s)\n", i, kvr_shm_explain(shm, rc, text, sizeof text));
            continue;
        }
        char engine[KVR_SHM_ENGINE_ID_MAX];
        printable(engine, sizeof engine, s.engine_id);
        char age_text[32];
        if (s.sample_seq == 0)
            snprintf(age_text, sizeof age_text, "never");
        else
            snprintf(age_text, sizeof age_text, "%.1f", age_ms(age));
        char cap[16];
        if (s.max_running)
            snprintf(cap, sizeof cap, "%u%s", s.max_running,
                     s.flags & KVR_SLOT_CAPS_COMPLETE ? "" : "?");
        else
            snprintf(cap, sizeof cap, "-");
        fprintf(out, "%-4u %-34.34s %-7s %9s %7u %7u %5s %6.1f %12llu %8s\n", i, engine,
                s.flags & KVR_SLOT_HEALTHY ? "yes" : "no", age_text, s.running, s.waiting, cap,
                s.kv_usage * 100.0, (unsigned long long)s.pending_prefill_tokens,
                kvr_source_name(kvr_slot_source(s.flags)));
    }
}

static cJSON *slot_json(const kvr_engine_state_t *s, uint32_t index, uint64_t age)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "slot", index);
    cJSON_AddStringToObject(o, "engine", s->engine_id);
    cJSON_AddBoolToObject(o, "healthy", (s->flags & KVR_SLOT_HEALTHY) != 0);
    cJSON_AddBoolToObject(o, "caps_complete", (s->flags & KVR_SLOT_CAPS_COMPLETE) != 0);
    cJSON_AddStringToObject(o, "source", kvr_source_name(kvr_slot_source(s->flags)));
    cJSON_AddBoolToObject(o, "sampled", s->sample_seq != 0);
    if (s->sample_seq)
        cJSON_AddNumberToObject(o, "age_ms", age_ms(age));
    else
        cJSON_AddNullToObject(o, "age_ms");
    cJSON_AddNumberToObject(o, "sample_seq", s->sample_seq);
    cJSON_AddNumberToObject(o, "dp_ranks", s->dp_ranks);
    cJSON_AddNumberToObject(o, "running", s->running);
    cJSON_AddNumberToObject(o, "waiting", s->waiting);
    cJSON_AddNumberToObject(o, "max_running", s->max_running);
    cJSON_AddNumberToObject(o, "kv_tokens_used", s->kv_tokens_used);
    cJSON_AddNumberToObject(o, "kv_tokens_capacity", s->kv_tokens_capacity);
    cJSON_AddNumberToObject(o, "kv_usage", s->kv_usage);
    if (s->flags & KVR_SLOT_HAS_PENDING_PREFILL)
        cJSON_AddNumberToObject(o, "pending_prefill_tokens", s->pending_prefill_tokens);
    else
        cJSON_AddNullToObject(o, "pending_prefill_tokens");
    cJSON_AddNumberToObject(o, "max_prefill_remaining", s->max_prefill_remaining);
    if (s->flags & KVR_SLOT_HAS_UTILIZATION)
        cJSON_AddNumberToObject(o, "utilization", s->utilization);
    else
        cJSON_AddNullToObject(o, "utilization");
    cJSON_AddNumberToObject(o, "consecutive_failures", s->consecutive_failures);
    return o;
}

static int dump_json(const kvr_shm_t *shm, FILE *out)
{
    const kvr_shm_header_t *h = shm->header;
    uint64_t now = now_ns();
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "name", shm->name);
    cJSON_AddNumberToObject(root, "abi_major", h->abi_major);
    cJSON_AddNumberToObject(root, "abi_minor", h->abi_minor);
    cJSON_AddNumberToObject(root, "capacity", shm->capacity);
    cJSON_AddNumberToObject(root, "engines_in_use", atomic_load(&h->engines_in_use));
    cJSON_AddNumberToObject(root, "generation", kvr_shm_generation(shm));
    cJSON_AddNumberToObject(root, "writer_pid", atomic_load(&h->writer_pid));
    cJSON_AddStringToObject(root, "writer", writer_text(shm, now));
    cJSON_AddNumberToObject(root, "heartbeat_age_ms",
                            age_ms(kvr_shm_age_ns(now, atomic_load(&h->heartbeat_ns))));
    cJSON *engines = cJSON_AddArrayToObject(root, "engines");
    for (uint32_t i = 0; i < shm->capacity; i++) {
        kvr_engine_state_t s;
        uint64_t age;
        char text[256];
        int rc = kvr_shm_read_slot(shm, i, now, &s, &age);
        if (rc == 0)
            cJSON_AddItemToArray(engines, slot_json(&s, i, age));
        else if (rc != -ENOENT)
            fprintf(stderr, "kvroute-shm: slot %u unreadable: %s\n", i,
                    kvr_shm_explain(shm, rc, text, sizeof text));
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    int rc = text && fputs(text, out) >= 0 ? 0 : -EIO;
    fputc('\n', out);
    cJSON_free(text);
    return rc;
}

static volatile sig_atomic_t interrupted;
static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

int main(int argc, char **argv)
{
    static const struct option options[] = {
        {"capacity", required_argument, NULL, 'c'},    {"json", no_argument, NULL, 'j'},
        {"interval-ms", required_argument, NULL, 'i'}, {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},           {NULL, 0, NULL, 0},
    };
    long capacity = 0, interval_ms = 500;
    bool json = false;
    int opt;
    while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        switch (opt) {
        case 'c': capacity = flag_integer("capacity", optarg, 1, KVR_SHM_MAX_CAPACITY); break;
        case 'j': json = true; break;
        case 'i': interval_ms = flag_integer("interval-ms", optarg, 10, 3600000); break;
        case 'h': fputs(usage, stdout); return 0;
        case 'V': printf("kvroute-shm %s (commit %s)\n", KVR_VERSION, KVR_COMMIT); return 0;
        default: die_usage("unknown option");
        }
    }
    if (argc - optind != 2)
        die_usage("expected COMMAND NAME");
    const char *command = argv[optind], *name = argv[optind + 1];
    kvr_shm_t shm;

    if (strcmp(command, "create") == 0) {
        if (capacity == 0)
            die_usage("create needs --capacity N");
        int rc = kvr_shm_create(&shm, name, (uint32_t)capacity);
        if (rc == -EBUSY) {
            fprintf(stderr, "kvroute-shm: %s: owned by a live writer; not replaced\n", name);
            return 1;
        }
        char text[512];
        if (rc < 0) {
            fprintf(stderr, "kvroute-shm: create %s: %s\n", name,
                    kvr_shm_explain(&shm, rc, text, sizeof text));
            return 1;
        }
        /* No writer will tick this segment: say so rather than look live for 2 s. */
        atomic_store(&shm.header->writer_state, KVR_SHM_WRITER_NONE);
        printf("created %s: %ld slots, %zu bytes\n", shm.name, capacity, shm.map_len);
        kvr_shm_close(&shm);
        return 0;
    }
    if (strcmp(command, "dump") == 0) {
        if (open_or_explain(&shm, name) < 0 || still_readable(&shm, name) < 0)
            return 1;
        int rc = json ? dump_json(&shm, stdout) : (dump_table(&shm, stdout), 0);
        kvr_shm_close(&shm);
        return rc < 0 ? 1 : 0;
    }
    if (strcmp(command, "watch") == 0) {
        signal(SIGINT, on_interrupt);
        signal(SIGTERM, on_interrupt);
        if (open_or_explain(&shm, name) < 0)
            return 1;
        bool tty = isatty(STDOUT_FILENO);
        while (!interrupted) {
            if (still_readable(&shm, name) < 0)
                return 1;
            if (tty)
                fputs("\033[H\033[2J", stdout);
            dump_table(&shm, stdout);
            fputc('\n', stdout);
            fflush(stdout);
            usleep((useconds_t)interval_ms * 1000);
        }
        kvr_shm_close(&shm);
        return 0;
    }
    die_usage("unknown command");
}
