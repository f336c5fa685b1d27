/**
 * Note [nn platform modules]
 * What @wiregrad/nn needs from its host beyond ECMAScript: files, for save() and load(). The
 * safetensors logic is shared (serialize/deserialize work on bytes everywhere); only reading
 * and writing a path differ, in `platform/node.ts` and `platform/browser.ts`, imported as
 * `#platform` and chosen by package.json's `imports` conditions, as in @wiregrad/tensor
 * (Note [Platform modules]).
 */
export interface NnPlatform {
  readonly name: 'node' | 'browser';
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, bytes: Uint8Array): Promise<void>;
}
