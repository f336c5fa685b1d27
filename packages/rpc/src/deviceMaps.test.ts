import { describe, expect, it } from 'vitest';
import { Storage, Tensor, device, tensor } from '@wiregrad/tensor';
import { canonicalMap, reverseMap, validateDeviceMaps } from './deviceMaps.js';
import { decodeMessage, encodeMessage } from './messages/message.js';
import { MessageType } from './messages/messageType.js';

describe('device maps', () => {
  it("validates targets, devices and 1-to-1 with PyTorch's messages", () => {
    expect(() => validateDeviceMaps('worker0', { nobody: { cpu: 'cpu' } }, ['worker0', 'worker1'])).toThrow('Node worker0 has invalid target node names in its device maps: nobody');
    expect(() => validateDeviceMaps('worker0', { worker1: { 'gpu:0': 'gpu:1', 'gpu:1': 'gpu:1' } }, ['worker0', 'worker1'])).toThrow('Node worker0 has duplicated target devices in its device map for worker1');
    expect(() => validateDeviceMaps('worker0', { worker1: { 'gpu:-1': 'gpu:0' } }, ['worker0', 'worker1'])).toThrow('Device index must not be negative');
    expect(() => validateDeviceMaps('worker0', { worker1: { 'gpu:0': 'gpu:1', cpu: 'cpu' } }, ['worker0', 'worker1'])).not.toThrow();
  });

  it('responses use the reverse map', () => {
    expect(reverseMap({ 'gpu:0': 'gpu:1', cpu: 'cpu' })).toEqual({ 'gpu:1': 'gpu:0', cpu: 'cpu' });
    expect(canonicalMap({ gpu: 'gpu:2' })).toEqual({ 'gpu:0': 'gpu:2' });
  });

  it('a gpu tensor with no map is an error, never a silent copy; the map picks the landing device', () => {
    const onGpu = new Tensor(new Storage(device('gpu:0'), 'float32', 1, new Float32Array([1])), [1]);
    expect(() => encodeMessage({ type: MessageType.PYTHON_CALL, id: 1, payload: [onGpu] }, { deviceMap: {}, peer: 1 })).toThrow(
      "tensor on gpu:0 cannot be sent without a device map entry for it (set backendOptions.deviceMaps[<worker>]['gpu:0'])",
    );
    const frames = encodeMessage({ type: MessageType.PYTHON_CALL, id: 1, payload: [tensor([5])] }, { deviceMap: { cpu: 'cpu' }, peer: 1 });
    const [t] = decodeMessage(frames, { deviceMap: {}, peer: 0 }).payload as Tensor[];
    expect(t!.device.toString()).toBe('cpu');
    // a map to a device this process has no backend for fails clearly on arrival
    const toGpu = encodeMessage({ type: MessageType.PYTHON_CALL, id: 1, payload: [tensor([5])] }, { deviceMap: { cpu: 'gpu:0' }, peer: 1 });
    expect(() => decodeMessage(toGpu, { deviceMap: {}, peer: 0 })).toThrow(/gpu/);
  });
});
