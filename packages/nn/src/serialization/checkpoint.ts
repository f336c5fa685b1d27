import { platform } from '#platform';
import type { Tensor } from '@wiregrad/autograd';
import { deserialize, serialize } from './safetensors.js';

/** Writes a state dict to `path` as a .safetensors file (PyTorch loads it with safetensors.torch.load_file). */
export async function save(
  stateDict: Record<string, Tensor>,
  path: string,
  opts: { metadata?: Record<string, string> } = {},
): Promise<void> {
  await platform.writeFile(path, serialize(stateDict, opts.metadata));
}

/** Reads a .safetensors file (one written by safetensors.torch.save_file too) as cpu tensors by name. */
export async function load(path: string): Promise<Record<string, Tensor>> {
  return deserialize(await platform.readFile(path));
}
