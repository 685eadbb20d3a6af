/* bench/cpu-peak.c: how many 8-bit multiply-adds (AVX2 vpmaddubsw, the instruction the
 * text model's engine is built on) one core of this machine does a second: the ceiling
 * for engine/e5_fast.c (README "Local text model"). 12 independent accumulators cover the
 * instruction's latency; each reads its own input from memory, so the compiler can
 * neither hoist nor share the work.
 *   npm run bench:cpu-peak */
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

#define LANES 12

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static __m256i in8[LANES];

int main(void) {
    const long n = 50000000;
    for (int i = 0; i < LANES; i++) {
        in8[i] = _mm256_set1_epi8((char)(i + 1));
    }
    const __m256i *p8 = in8;

    __m256i w = _mm256_set1_epi8(3), a[LANES];
    for (int i = 0; i < LANES; i++) a[i] = _mm256_setzero_si256();
    double t = now();
    for (long k = 0; k < n; k++) {
        __asm__ volatile("" : "+r"(p8)); /* the inputs may have changed: reload them */
#pragma GCC unroll 12
        for (int i = 0; i < LANES; i++) a[i] = _mm256_add_epi16(a[i], _mm256_maddubs_epi16(w, _mm256_load_si256(p8 + i)));
    }
    double dt = now() - t;
    __m256i s = a[0];
    for (int i = 1; i < LANES; i++) s = _mm256_add_epi16(s, a[i]);
    printf("vpmaddubsw: %.2f G/s = %.1f G 8-bit multiply-adds/s (check %d)\n", LANES * n / dt / 1e9,
           (double)LANES * n * 32 / dt / 1e9, _mm256_extract_epi16(s, 0));

    return 0;
}
