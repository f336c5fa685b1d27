/**
 * Note [Large messages and malloc]
 * A big collective receives tens of MiB per call in 1 MiB ZeroMQ frames (Note [Ring
 * all-reduce]). libzmq allocates each frame with malloc and frees it when the tensor over it is
 * collected; glibc serves blocks above its mmap threshold (128 KiB at start, raised only as far
 * as the largest block freed so far) with a fresh mmap and hands the top of its heap back to
 * the kernel beyond the trim threshold: so every frame costs page faults that zero it first, and
 * its munmap. Measured on this 2-core VM, 64 MiB all-reduce on 2 processes: that churn was about
 * half the CPU time (user+sys per call and rank 280-315 ms, against 140-170 ms with the
 * thresholds below; load 1-4). The launcher sets them for its workers through GLIBC_TUNABLES
 * (read by glibc at process start; ignored by other C libraries), unless the environment already
 * sets GLIBC_TUNABLES; a process started another way (srun) can set the same variable.
 */
export const MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456';

/** The environment the launcher adds for its workers' malloc (Note [Large messages and malloc]). */
export function mallocEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return env.GLIBC_TUNABLES === undefined ? { GLIBC_TUNABLES: MALLOC_TUNABLES } : {};
}
