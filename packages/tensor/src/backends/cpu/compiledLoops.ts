/**
 * Note [Compiled loop cache]
 * Hot cpu loops are generated source (`new Function`), compiled once per key and kept for the
 * life of the process. Keys name the kernel and the dtypes involved (`Exp/float32`,
 * `Sum/int32`), so each compiled function only ever sees one kind of typed array and V8 keeps
 * its element accesses monomorphic. The set of keys is small and fixed (kernels x dtypes).
 */
const loops = new Map<string, unknown>();

export function compiledLoop<T>(key: string, compile: () => T): T {
  let loop = loops.get(key) as T | undefined;
  if (loop === undefined) {
    loop = compile();
    loops.set(key, loop);
  }
  return loop;
}
