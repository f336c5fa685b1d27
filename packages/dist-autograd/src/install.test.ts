import { describe, expect, it } from 'vitest';
import { RpcError, setRRefBackward, setRpcAutogradHooks } from '@wiregrad/rpc/internal';
import './index.js';

describe("importing @wiregrad/dist-autograd fills rpc's hook slots once (Note [Hook slots install once] in @wiregrad/tensor)", () => {
  it('other RPC autograd hooks or another RRef.backward throw ALREADY_INSTALLED', () => {
    for (const replace of [() => setRpcAutogradHooks({}), () => setRRefBackward(async () => {})]) {
      expect(replace).toThrow(RpcError);
      expect(replace).toThrow(/already installed/);
    }
  });
});
