import type { Tensor } from '@wiregrad/autograd';

/** PyTorch's dist._DEFAULT_FIRST_BUCKET_BYTES: a small first bucket, so communication starts early. */
export const DEFAULT_FIRST_BUCKET_BYTES = 1024 * 1024;

const BYTES: Readonly<Record<string, number>> = { float32: 4, float64: 8, int32: 4 };

/**
 * Note [Gradient buckets]
 * PyTorch's compute_bucket_assignment_by_size: parameters in REVERSE registration order (the
 * order backward makes their gradients ready), filled into buckets of at most `capBytes` (the
 * first one of each dtype at most `firstBytes`), one dtype per bucket; a bucket is closed when the next
 * parameter would overflow it (a parameter larger than the cap gets a bucket of its own).
 * Returns the parameter indices of each bucket, in launch order: by the first gradient it expects.
 */
export function computeBucketAssignment(params: readonly Tensor[], capBytes: number, firstBytes: number): number[][] {
  const buckets: number[][] = [];
  const open = new Map<string, { indices: number[]; bytes: number; closed: number }>();
  for (let i = params.length - 1; i >= 0; i--) {
    const p = params[i]!;
    const bytes = p.numel * (BYTES[p.dtype] ?? 4);
    let b = open.get(p.dtype);
    if (!b) open.set(p.dtype, (b = { indices: [], bytes: 0, closed: 0 }));
    const limit = b.closed === 0 ? firstBytes : capBytes;
    if (b.indices.length > 0 && b.bytes + bytes > limit) {
      buckets.push(b.indices);
      b.indices = [];
      b.bytes = 0;
      b.closed++;
    }
    b.indices.push(i);
    b.bytes += bytes;
  }
  for (const b of open.values()) if (b.indices.length > 0) buckets.push(b.indices);
  // launch order: by the first gradient each bucket expects (the highest index)
  return buckets.sort((a, b) => b[0]! - a[0]!);
}
