/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Prometheus writer against the parser: any label value (any bytes but
 * NUL), any double and any integer, written in either style, read back
 * exactly. Input: 8 bytes of double, 8 of integer, 1 of style, then the
 * label value.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/prom.h"
#include "common/prom_writer.h"

typedef struct {
    const char *label;
    size_t label_len;
    double value;
    uint64_t integer;
    kvr_prom_style_t style;
    int seen;
} expect_t;

static int check(const kvr_prom_sample_t *s, void *arg)
{
    expect_t *x = arg;
    const char *v = kvr_prom_label(s, "v");
    if (!v || strlen(v) != x->label_len || memcmp(v, x->label, x->label_len) != 0)
        abort();
    if (x->seen == 0 && !(s->value == x->value || (isnan(s->value) && isnan(x->value))))
        abort();
    /* The Go style writes integers exactly; the Python style as the nearest double. */
    if (x->seen == 1 && s->value != (double)x->integer)
        abort();
    x->seen++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 17)
        return 0;
    expect_t x = {0};
    memcpy(&x.value, data, 8);
    memcpy(&x.integer, data + 8, 8);
    x.style = data[16] & 1 ? KVR_PROM_STYLE_PYTHON : KVR_PROM_STYLE_GO;
    char *label = malloc(size - 17 + 1);
    if (!label)
        return 0;
    memcpy(label, data + 17, size - 17);
    label[size - 17] = '\0';
    x.label = label;
    x.label_len = strlen(label);

    kvr_buf_t out = KVR_BUF_INIT;
    kvr_prom_writer_t w;
    kvr_prom_writer_init(&w, &out, x.style);
    kvr_prom_label_t l = {"v", label};
    kvr_prom_family(&w, "f", KVR_PROM_GAUGE, label);
    kvr_prom_sample(&w, "f", &l, 1, x.value);
    kvr_prom_sample_u64(&w, "f", &l, 1, x.integer);
    kvr_prom_error_t err;
    if (kvr_prom_parse(out.base, out.len, check, &x, &err) != 0 || x.seen != 2)
        abort();
    kvr_buf_close(&out);
    free(label);
    return 0;
}
