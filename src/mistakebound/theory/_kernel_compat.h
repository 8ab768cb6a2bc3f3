/* Portable bit counting and a monotonic clock for the compiled searches.
 *
 * GCC and clang have __builtin_popcountll and __builtin_clzll; MSVC has __popcnt64 and
 * _BitScanReverse64 (on 64-bit targets); any other compiler gets the plain C loops below.
 * The clock is clock_gettime(CLOCK_MONOTONIC) where POSIX has it, QueryPerformanceCounter
 * on Windows, and C's clock() otherwise (processor time: a budget then binds on the CPU
 * the search used, which is never less than it should).
 *
 * Define MB_PORTABLE to take the plain C versions on every compiler: the tests build the
 * kernel that way too, so the fallbacks are compiled and checked, not only written.
 */
#ifndef MB_KERNEL_COMPAT_H
#define MB_KERNEL_COMPAT_H

#include <stdint.h>
#include <time.h>

#if !defined(MB_PORTABLE) && (defined(__GNUC__) || defined(__clang__))
#define MB_POPCOUNT64(x) __builtin_popcountll((unsigned long long)(x))
#define MB_CLZ64(x) __builtin_clzll((unsigned long long)(x)) /* x != 0 */
#elif !defined(MB_PORTABLE) && defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
#include <intrin.h>
static __inline int mb_clz64_msvc(uint64_t x) {
    unsigned long i;
    _BitScanReverse64(&i, x);
    return 63 - (int)i;
}
#if defined(_M_X64)
#define MB_POPCOUNT64(x) ((int)__popcnt64((unsigned __int64)(x)))
#else
#define MB_POPCOUNT64(x) ((int)_CountOneBits64((unsigned __int64)(x)))
#endif
#define MB_CLZ64(x) mb_clz64_msvc((uint64_t)(x))
#else
static int mb_popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
static int mb_clz64(uint64_t x) { /* x != 0 */
    int n = 0;
    while (!(x & 0x8000000000000000ULL)) {
        x <<= 1;
        n++;
    }
    return n;
}
#define MB_POPCOUNT64(x) mb_popcount64((uint64_t)(x))
#define MB_CLZ64(x) mb_clz64((uint64_t)(x))
#endif

#if defined(_WIN32)
#include <windows.h>
static double mb_now(void) {
    LARGE_INTEGER f, t;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&t);
    return (double)t.QuadPart / (double)f.QuadPart;
}
#elif !defined(MB_PORTABLE) && defined(CLOCK_MONOTONIC)
static double mb_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
#else
static double mb_now(void) { return (double)clock() / (double)CLOCKS_PER_SEC; }
#endif

/* GCC's function multi-versioning (one copy of the hot loop for processors with popcnt,
 * chosen at load time) needs the GNU C library's ifunc; elsewhere the one copy is built. */
#if !defined(MB_PORTABLE) && defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__linux__) && defined(__GLIBC__)
#define MB_HOT __attribute__((target_clones("popcnt", "default")))
#else
#define MB_HOT
#endif

#endif
