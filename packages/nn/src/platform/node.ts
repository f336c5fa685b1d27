// The Node host of @wiregrad/nn (Note [nn platform modules]).
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { NnPlatform } from './types.js';

export const platform: NnPlatform = {
  name: 'node',
  readFile: async (path) => new Uint8Array(await readFile(path)),
  // written beside the target and renamed over it, so a crash never leaves half a checkpoint
  writeFile: async (path, bytes) => {
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  },
};
