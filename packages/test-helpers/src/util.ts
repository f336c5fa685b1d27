import { Tensor } from '@wiregrad/tensor';

export interface ErrorInfo {
  name: string;
  message: string;
  code: string | undefined;
}

/** What a call failed with (null when it succeeded), in a form that crosses postMessage. */
export async function errorOf(p: PromiseLike<unknown> | (() => unknown)): Promise<ErrorInfo | null> {
  try {
    await (typeof p === 'function' ? p() : p);
    return null;
  } catch (e) {
    const err = e as Error & { code?: string };
    return { name: err.name, message: err.message, code: err.code };
  }
}

/** Tensors as {dtype, shape, values, contiguous}; bigints, Maps and typed arrays spelled out. */
export function plain(v: unknown): unknown {
  if (v instanceof Tensor)
    return { dtype: v.dtype, shape: [...v.shape], values: v.tolist(), contiguous: v.isContiguous() };
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Map) return [...v].map(([k, x]) => [plain(k), plain(x)]);
  if (ArrayBuffer.isView(v)) return { [v.constructor.name]: Array.from(v as Int32Array) };
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
