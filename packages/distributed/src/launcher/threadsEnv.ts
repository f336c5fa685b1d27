/**
 * Note [One cpu thread per worker]
 * torchrun sets OMP_NUM_THREADS=1 for every worker when it starts more than one per node and the
 * environment does not set it, and says so: N workers with a pool of a thread per core each would
 * oversubscribe the cores. wiregrad-run does the same with WIREGRAD_NUM_THREADS, the size of the
 * cpu kernels' thread pool (Note [Thread pool] in @wiregrad/tensor): on the 2-core VM the DDP
 * bench's two processes each ran at 1 thread for the 1.19-1.36x of one process it measured. A
 * value in the environment is kept, and one worker per node keeps its whole pool.
 */
export function threadsEnv(nprocPerNode: number, env: NodeJS.ProcessEnv): Record<string, string> {
  return nprocPerNode > 1 && env.WIREGRAD_NUM_THREADS === undefined ? { WIREGRAD_NUM_THREADS: '1' } : {};
}

/** What the launcher says once when it sets WIREGRAD_NUM_THREADS (torchrun's warning, for our variable). */
export const THREADS_WARNING =
  '[wiregrad-run] setting WIREGRAD_NUM_THREADS=1 for each worker by default, so that the workers of a node ' +
  'do not overload its cores; set it in the environment to tune it for your program\n';
