/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/support/scratch_hosts.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/proc.h"

/* Binds $1 over /etc/hosts and $2 over /etc/resolv.conf, then execs the rest. */
#define BIND_AND_EXEC                                                                              \
    "mount --bind \"$1\" /etc/hosts && mount --bind \"$2\" /etc/resolv.conf && shift 2 && "        \
    "exec \"$@\""

static void write_text(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    cr_assert_eq(chmod(path, mode), 0);
}

static bool namespace_works(const kvr_scratch_hosts_t *s, const char *name)
{
    char cmd[768];
    snprintf(cmd, sizeof cmd,
             "unshare -m sh -c '" BIND_AND_EXEC "' sh \"%s\" \"%s\" grep -q \"%s\" /etc/hosts "
             ">/dev/null 2>&1",
             s->hosts_path, s->resolv_path, name);
    int rc = system(cmd);
    return rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
}

bool kvr_scratch_hosts_make(kvr_scratch_hosts_t *s, const char *prefix, const char *hosts_text,
                            const char *resolv_text, const char *name)
{
    memset(s, 0, sizeof *s);
    cr_assert_lt(strlen(hosts_text), sizeof s->text);
    snprintf(s->text, sizeof s->text, "%s", hosts_text);
    kvr_test_unique_name(s->dir, sizeof s->dir, prefix);
    cr_assert_eq(mkdir(s->dir, 0700), 0);
    snprintf(s->hosts_path, sizeof s->hosts_path, "%s/hosts", s->dir);
    snprintf(s->resolv_path, sizeof s->resolv_path, "%s/resolv.conf", s->dir);
    write_text(s->hosts_path, hosts_text, 0644);
    write_text(s->resolv_path, resolv_text, 0644);
    return namespace_works(s, name);
}

void kvr_scratch_hosts_setup(kvr_scratch_hosts_t *s, const char *prefix, const char *hosts_text,
                             const char *name)
{
    if (!kvr_scratch_hosts_make(s, prefix, hosts_text,
                                "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n", name))
        cr_skip_test("needs 'unshare -m' and 'mount --bind' (root or CAP_SYS_ADMIN) to give the "
                     "program a private /etc/hosts");
}

const char *kvr_scratch_hosts_file(const kvr_scratch_hosts_t *s, const char *file, const char *text,
                                   char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s", s->dir, file);
    write_text(out, text, 0644);
    return out;
}

const char *kvr_scratch_hosts_wrapper(kvr_scratch_hosts_t *s, const char *program)
{
    snprintf(s->wrapper_path, sizeof s->wrapper_path, "%s/in-namespace", s->dir);
    char script[1024];
    snprintf(script, sizeof script,
             "#!/bin/sh\nexec unshare -m sh -c '" BIND_AND_EXEC "' sh \"%s\" \"%s\" %s%s%s\"$@\"\n",
             s->hosts_path, s->resolv_path, program ? "\"" : "", program ? program : "",
             program ? "\" " : "");
    write_text(s->wrapper_path, script, 0755);
    return s->wrapper_path;
}

void kvr_scratch_hosts_set_listed(const kvr_scratch_hosts_t *s, const char *addr, bool listed)
{
    char needle[64];
    snprintf(needle, sizeof needle, "\n%s ", addr);
    const char *at = NULL;
    for (const char *p = s->text; (p = strchr(p, '\n')) != NULL; p++) {
        if (strncmp(p + 2, needle + 1, strlen(needle) - 1) == 0) {
            at = p + 1; /* the line's first byte, before its address */
            break;
        }
    }
    cr_assert_not_null(at, "no line for %s in the scratch hosts file", addr);
    int fd = open(s->hosts_path, O_WRONLY);
    cr_assert_geq(fd, 0);
    cr_assert_eq(pwrite(fd, listed ? " " : "#", 1, at - s->text), 1);
    close(fd);
}

void kvr_scratch_hosts_remove(kvr_scratch_hosts_t *s)
{
    if (!s->dir[0])
        return;
    DIR *d = opendir(s->dir);
    if (d) {
        struct dirent *e;
        char path[512];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", s->dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(s->dir);
    s->dir[0] = '\0';
}
