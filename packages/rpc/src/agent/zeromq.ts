// zeromq.js, loaded by Node's own require at run time (Note [zeromq is loaded by Node]).
import type * as Zmq from 'zeromq';

/**
 * Note [zeromq is loaded by Node]
 * zeromq.js is a native addon: its JavaScript finds the compiled addon next to itself
 * (`build/manifest.json`, `prebuilds/`) and needs Node's `require`. A static
 * `import ... from 'zeromq'` makes every bundler copy that JavaScript into the bundle, where
 * it fails at run time (esbuild's ESM bundle: `Dynamic require of "module" is not supported`;
 * its CJS bundle: `Manifest file not found`). So the package never imports zeromq's values
 * statically (types only): this module asks Node for a `require` made for the file that runs
 * and loads zeromq with it, which no bundler follows (esbuild leaves a local `require` alone;
 * webpack parses `createRequire` imported from `node:module`, so it comes from
 * `process.getBuiltinModule`; Vite's SSR build keeps node_modules external anyway).
 *
 * The file that runs is the bundle (`__filename` of a CommonJS bundle, esbuild's or webpack's)
 * or this module (`import.meta.url` unbundled, or an ESM bundle), so zeromq is resolved from
 * the application's node_modules as Node would resolve it for the unbundled package, and one
 * process loads one zeromq: the one its `import 'zeromq'` would load too (two copies of the
 * addon in one process crash at exit).
 */
function loadZeromq(): typeof Zmq {
  const { createRequire } = process.getBuiltinModule('node:module');
  const from = typeof __filename === 'string' ? __filename : import.meta.url;
  return createRequire(from)('zeromq') as typeof Zmq;
}

export const zmq: typeof Zmq = loadZeromq();

/** A new CURVE key pair (Z85 text), as `backendOptions.curve` takes it: zeromq.js' `curveKeyPair`. */
export function curveKeyPair(): { publicKey: string; secretKey: string } {
  return zmq.curveKeyPair();
}
