// The browser host of @wiregrad/nn (Note [nn platform modules]): no file system.
import { NnError } from '../errors.js';
import type { NnPlatform } from './types.js';

const noFiles = (): never => {
  throw new NnError(
    'UNSUPPORTED',
    'save() and load() read and write files, which browsers do not have: use serialize() / deserialize() on bytes instead',
  );
};

export const platform: NnPlatform = {
  name: 'browser',
  readFile: async () => noFiles(),
  writeFile: async () => noFiles(),
};
