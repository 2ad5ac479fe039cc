/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvr-seccomp-run PROFILE.json [--drop NAME]... [--default-errno N] -- PROGRAM [ARGS...]
 *
 * Runs PROGRAM under the seccomp filter a container runtime builds from
 * PROFILE (the Docker / OCI JSON form), so tests see what a container sees:
 * a syscall the profile does not allow fails with its defaultErrnoRet.
 * --drop NAME leaves a syscall out of the rules (the runtime's default
 * profile is the shipped one without the io_uring calls); --default-errno N
 * replaces defaultErrnoRet (runtimes differ: EPERM or ENOSYS). Supported: a
 * defaultAction of SCMP_ACT_ERRNO, SCMP_ACT_ALLOW rules by name with
 * SCMP_CMP_MASKED_EQ conditions on an argument's low 32 bits (clone's
 * namespace flags), and SCMP_ACT_ERRNO rules with an errnoRet. Names this architecture lacks are skipped, as runtimes
 * do. Exits 2 on a profile it cannot build, else becomes PROGRAM.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "kvr-seccomp-run knows x86_64 and aarch64"
#endif

#define MAX_INSNS 4096
#define MAX_DROPS 16
#define USAGE                                                                                      \
    "usage: kvr-seccomp-run PROFILE.json [--drop NAME]... [--default-errno N] -- PROGRAM [ARGS...]"

typedef struct {
    const char *name;
    int nr;
} syscall_name_t;

static const syscall_name_t syscalls[] = {
#include "syscall_names.h"
};

typedef struct {
    struct sock_filter insns[MAX_INSNS];
    size_t n;
} program_t;

static int fail(const char *what, const char *detail)
{
    fprintf(stderr, "kvr-seccomp-run: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 2;
}

static int resolve(const char *name)
{
    for (size_t i = 0; i < sizeof syscalls / sizeof syscalls[0]; i++)
        if (strcmp(syscalls[i].name, name) == 0)
            return syscalls[i].nr;
    return -1;
}

static int emit(program_t *p, struct sock_filter insn)
{
    if (p->n >= MAX_INSNS)
        return -ENOSPC;
    p->insns[p->n++] = insn;
    return 0;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap + 1);
    size_t got;
    while (text && (got = fread(text + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            char *more = realloc(text, 2 * cap + 1);
            if (!more) {
                free(text);
                text = NULL;
                break;
            }
            text = more;
            cap *= 2;
        }
    }
    fclose(f);
    if (text)
        text[len] = '\0';
    return text;
}

/* One name of one rule: allow when nr matches and every condition holds. */
static int emit_rule(program_t *p, int nr, const cJSON *args)
{
    int n_args = cJSON_GetArraySize(args);
    int rc = emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0,
                                                  (unsigned char)(3 * n_args + (n_args ? 2 : 1))));
    int j = 0;
    const cJSON *a;
    cJSON_ArrayForEach(a, args)
    {
        const cJSON *index = cJSON_GetObjectItemCaseSensitive(a, "index");
        const cJSON *value = cJSON_GetObjectItemCaseSensitive(a, "value");
        const cJSON *value_two = cJSON_GetObjectItemCaseSensitive(a, "valueTwo");
        const cJSON *op = cJSON_GetObjectItemCaseSensitive(a, "op");
        if (!cJSON_IsNumber(index) || index->valueint < 0 || index->valueint > 5 ||
            !cJSON_IsNumber(value) || value->valuedouble < 0 || value->valuedouble > 0xffffffffu ||
            !cJSON_IsNumber(value_two) || value_two->valuedouble < 0 ||
            value_two->valuedouble > 0xffffffffu || !cJSON_IsString(op) ||
            strcmp(op->valuestring, "SCMP_CMP_MASKED_EQ") != 0)
            return -EINVAL;
        unsigned low = (unsigned)offsetof(struct seccomp_data, args) +
                       8u * (unsigned)index->valueint;
        rc = rc ? rc : emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, low));
        rc = rc ? rc
                : emit(p, (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND | BPF_K,
                                                       (unsigned)value->valuedouble));
        /* On a mismatch, on to the reload of nr after this rule's ALLOW. */
        rc = rc ? rc
                : emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
                                                       (unsigned)value_two->valuedouble, 0,
                                                       (unsigned char)(3 * (n_args - 1 - j) + 1)));
        j++;
    }
    rc = rc ? rc : emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    if (n_args)
        rc = rc ? rc
                : emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                                       offsetof(struct seccomp_data, nr)));
    return rc;
}

static int build(program_t *p, const cJSON *profile, char **drops, size_t n_drops,
                 int default_errno)
{
    const cJSON *action = cJSON_GetObjectItemCaseSensitive(profile, "defaultAction");
    const cJSON *errno_ret = cJSON_GetObjectItemCaseSensitive(profile, "defaultErrnoRet");
    if (!cJSON_IsString(action) || strcmp(action->valuestring, "SCMP_ACT_ERRNO") != 0)
        return fail("defaultAction must be SCMP_ACT_ERRNO", NULL);
    int err = default_errno               ? default_errno
              : cJSON_IsNumber(errno_ret) ? errno_ret->valueint
                                          : EPERM;
    if (err <= 0 || err > 4095)
        return fail("defaultErrnoRet out of range", NULL);
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                         offsetof(struct seccomp_data, arch)));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0));
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err));
    emit(p,
         (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
    const cJSON *rule;
    cJSON_ArrayForEach(rule, cJSON_GetObjectItemCaseSensitive(profile, "syscalls"))
    {
        const cJSON *rule_action = cJSON_GetObjectItemCaseSensitive(rule, "action");
        const cJSON *rule_errno = cJSON_GetObjectItemCaseSensitive(rule, "errnoRet");
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(rule, "args");
        bool allow = cJSON_IsString(rule_action) &&
                     strcmp(rule_action->valuestring, "SCMP_ACT_ALLOW") == 0;
        bool refuse = cJSON_IsString(rule_action) &&
                      strcmp(rule_action->valuestring, "SCMP_ACT_ERRNO") == 0 &&
                      cJSON_IsNumber(rule_errno) && rule_errno->valueint > 0 &&
                      rule_errno->valueint <= 4095 && !args;
        if (!allow && !refuse)
            return fail("a rule is neither SCMP_ACT_ALLOW nor SCMP_ACT_ERRNO with errnoRet", NULL);
        const cJSON *name;
        cJSON_ArrayForEach(name, cJSON_GetObjectItemCaseSensitive(rule, "names"))
        {
            if (!cJSON_IsString(name))
                return fail("a name is not a string", NULL);
            bool dropped = false;
            for (size_t d = 0; d < n_drops; d++)
                dropped |= strcmp(drops[d], name->valuestring) == 0;
            int nr = resolve(name->valuestring);
            if (dropped || nr < 0)
                continue;
            int rc;
            if (refuse) /* the name fails with its own errno (clone3: ENOSYS, so libc falls back) */
                rc = emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr,
                                                          0, 1)) ||
                             emit(p, (struct sock_filter)BPF_STMT(
                                         BPF_RET | BPF_K,
                                         SECCOMP_RET_ERRNO | (unsigned)rule_errno->valueint))
                         ? -ENOSPC
                         : 0;
            else
                rc = emit_rule(p, nr, cJSON_IsArray(args) ? args : NULL);
            if (rc == -EINVAL)
                return fail("unsupported condition on", name->valuestring);
            if (rc < 0)
                return fail("the filter is too long", NULL);
        }
    }
    if (emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err)) <
        0)
        return fail("the filter is too long", NULL);
    return 0;
}

int main(int argc, char **argv)
{
    char *drops[MAX_DROPS];
    size_t n_drops = 0;
    int default_errno = 0;
    int i = 2;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--default-errno") == 0) {
            default_errno = atoi(argv[++i]);
            continue;
        }
        if (strcmp(argv[i], "--drop") != 0 || i + 1 >= argc || n_drops == MAX_DROPS)
            return fail(USAGE, NULL);
        drops[n_drops++] = argv[++i];
    }
    if (argc < 2 || i + 1 >= argc)
        return fail(USAGE, NULL);
    char *text = read_file(argv[1]);
    if (!text)
        return fail("cannot read", argv[1]);
    cJSON *profile = cJSON_Parse(text);
    free(text);
    if (!profile)
        return fail("not JSON", argv[1]);
    static program_t prog;
    int rc = build(&prog, profile, drops, n_drops, default_errno);
    cJSON_Delete(profile);
    if (rc != 0)
        return rc;
    struct sock_fprog fprog = {.len = (unsigned short)prog.n, .filter = prog.insns};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog) != 0)
        return fail("cannot install the filter", strerror(errno));
    execvp(argv[i + 1], argv + i + 1);
    return fail("cannot run", argv[i + 1]);
}
