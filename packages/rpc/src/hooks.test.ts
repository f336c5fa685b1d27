import { describe, expect, it } from 'vitest';
import { RpcError, type RRef, setRRefBackward, setRpcAutogradHooks } from './internal.js';

// Nothing in this file imports @wiregrad/dist-autograd, so the slots start empty (vitest isolates files).
const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RpcError);
    return (e as RpcError).code;
  }
  return undefined;
};

describe('rpc hook slots install once (Note [Hook slots install once] in @wiregrad/tensor)', () => {
  it('setRpcAutogradHooks: the same hooks again are a no-op; other hooks throw ALREADY_INSTALLED', () => {
    const onInit = () => {};
    const hooks = { onInit, handlers: {} };
    setRpcAutogradHooks(hooks);
    setRpcAutogradHooks(hooks);
    setRpcAutogradHooks({ ...hooks });
    expect(code(() => setRpcAutogradHooks({ onInit: () => {} }))).toBe('ALREADY_INSTALLED');
    expect(code(() => setRpcAutogradHooks({}))).toBe('ALREADY_INSTALLED');
  });

  it('setRRefBackward: the same function again is a no-op; another throws ALREADY_INSTALLED', () => {
    const backward = async (_rref: RRef, _contextId: bigint | -1, _retainGraph: boolean) => {};
    setRRefBackward(backward);
    setRRefBackward(backward);
    expect(code(() => setRRefBackward(async () => {}))).toBe('ALREADY_INSTALLED');
  });
});
