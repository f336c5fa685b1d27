// Loads TensorFlow.js (the peer we measure against) once, quietly, and switches its backend.
import type * as TF from '@tensorflow/tfjs';

let tfModule: typeof TF | null = null;

export async function tfjs(backend: 'cpu' | 'wasm'): Promise<typeof TF> {
  if (!tfModule) {
    const warn = console.warn;
    const log = console.log;
    console.warn = () => {};
    console.log = () => {};
    try {
      tfModule = await import('@tensorflow/tfjs');
      await import('@tensorflow/tfjs-backend-wasm');
    } finally {
      console.warn = warn;
      console.log = log;
    }
  }
  const ok = await tfModule.setBackend(backend);
  if (!ok) throw new Error(`tfjs backend ${backend} did not initialise`);
  await tfModule.ready();
  return tfModule;
}
