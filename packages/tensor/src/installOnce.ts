import { TensorError } from './errors.js';

/**
 * Note [Hook slots install once]
 * A lower package knows nothing of the one above it, which plugs in through a slot: tensor's
 * setAutogradHooks and installAutogradMethods (filled by @wiregrad/autograd at import), rpc's
 * setRpcAutogradHooks and setRRefBackward (filled by @wiregrad/dist-autograd at import). Each
 * slot takes one install. Installing what is installed again (the same value, or an object
 * holding the same functions) changes nothing; anything else throws ALREADY_INSTALLED, since
 * replacing an installed slot silently changes behaviour (`setAutogradHooks(null)` used to
 * stop graph recording), and a second install usually means a package loaded twice. Each
 * package throws its own error class (`conflict`): TensorError here, RpcError in rpc.
 */
export function installOnce<T extends object, N extends T | null>(
  slot: string,
  what: string,
  installed: T | null,
  next: N,
  conflict: (message: string) => Error = (message) => new TensorError('ALREADY_INSTALLED', message),
): N {
  if (installed === null || sameInstall(installed, next)) return next;
  throw conflict(
    `${slot}: ${what} already installed, and a slot installs once (is a package that fills it loaded twice?)`,
  );
}

/** The same value, or two objects with the same keys holding the same values (Note [Hook slots install once]). */
export function sameInstall(a: object | null, b: object | null): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => Object.hasOwn(b, k) && (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)[k])
  );
}
