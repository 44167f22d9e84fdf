/* cp.async (sm_80+): 16 or 4 bytes of global memory into shared memory without holding a
 * register or a thread until they land, so a thread can have all of its copies in flight at
 * once from a rolled loop; cp.async.wait_all (or wait_group) then a barrier makes them
 * visible to the CTA. Generic proxy: data another CTA released is read after the reader's
 * acquire like a plain load. Used by E1's key copies and F1's rows. */
#ifndef MRT_CP_ASYNC_CUH
#define MRT_CP_ASYNC_CUH

#include <stdint.h>

static __device__ __forceinline__ void mrt_cp_async16(void *dst, const void *src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((uint32_t)__cvta_generic_to_shared(dst)), "l"(src)
                 : "memory");
}
static __device__ __forceinline__ void mrt_cp_async4(void *dst, const void *src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"((uint32_t)__cvta_generic_to_shared(dst)), "l"(src)
                 : "memory");
}
/* this thread's copies so far have landed (each thread then needs a barrier to see the others') */
static __device__ __forceinline__ void mrt_cp_async_wait_all() { asm volatile("cp.async.wait_all;" ::: "memory"); }

#endif
