/**
 * A whole number of at least `min` from an environment variable's text (WIREGRAD_NUM_THREADS,
 * WIREGRAD_POOL_SPIN, WIREGRAD_CPU_CACHE_BYTES...); null when it is unset, empty or anything else,
 * so the caller's default applies.
 */
export function envCount(value: string | undefined, min: number): number | null {
  if (value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= min ? n : null;
}
