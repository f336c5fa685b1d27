import { describe, expect, it } from 'vitest';
import { type Tensor, tensor } from '@wiregrad/tensor';
import { canonicalMap, reverseMap, validateDeviceMaps } from './deviceMaps.js';
import { decodeMessage, encodeMessage } from './messages/message.js';
import { MessageType } from './messages/messageType.js';

describe('device maps', () => {
  it("validates targets, devices and 1-to-1 with PyTorch's messages", () => {
    expect(() => validateDeviceMaps('worker0', { nobody: { cpu: 'cpu' } }, ['worker0', 'worker1'])).toThrow(
      'Node worker0 has invalid target node names in its device maps: nobody',
    );
    expect(() =>
      validateDeviceMaps('worker0', { worker1: { 'gpu:0': 'gpu:1', 'gpu:1': 'gpu:1' } }, ['worker0', 'worker1']),
    ).toThrow('Node worker0 has duplicated target devices in its device map for worker1');
    expect(() => validateDeviceMaps('worker0', { worker1: { 'gpu:-1': 'gpu:0' } }, ['worker0', 'worker1'])).toThrow(
      'Device index must not be negative',
    );
    expect(() =>
      validateDeviceMaps('worker0', { worker1: { 'gpu:0': 'gpu:1', cpu: 'cpu' } }, ['worker0', 'worker1']),
    ).not.toThrow();
  });

  it('responses use the reverse map', () => {
    expect(reverseMap({ 'gpu:0': 'gpu:1', cpu: 'cpu' })).toEqual({ 'gpu:1': 'gpu:0', cpu: 'cpu' });
    expect(canonicalMap({ gpu: 'gpu:2' })).toEqual({ 'gpu:0': 'gpu:2' });
  });

  it('a gpu tensor with no map is an error, never a silent copy; the map picks the landing device', () => {
    const onGpu = tensor([1, 2]).to('gpu:0');
    expect(() =>
      encodeMessage({ type: MessageType.UNKNOWN, id: 1, payload: [onGpu] }, { deviceMap: {}, peer: 1 }),
    ).toThrow(
      "tensor on gpu:0 cannot be sent without a device map entry for it (set backendOptions.deviceMaps[<worker>]['gpu:0'])",
    );
    const frames = encodeMessage(
      { type: MessageType.UNKNOWN, id: 1, payload: [tensor([5])] },
      { deviceMap: { cpu: 'cpu' }, peer: 1 },
    );
    const [t] = decodeMessage(frames, { deviceMap: {}, peer: 0 }).payload as Tensor[];
    expect(t!.device.toString()).toBe('cpu');
    // gpu:0 -> gpu:0 and cpu -> gpu:0 land on the (gpu.js) gpu device with their values
    const gpuToGpu = encodeMessage(
      { type: MessageType.UNKNOWN, id: 1, payload: [onGpu] },
      { deviceMap: { 'gpu:0': 'gpu:0' }, peer: 1 },
    );
    const [g] = decodeMessage(gpuToGpu, { deviceMap: {}, peer: 0 }).payload as Tensor[];
    expect([g!.device.toString(), g!.tolist()]).toEqual(['gpu:0', [1, 2]]);
    const cpuToGpu = encodeMessage(
      { type: MessageType.UNKNOWN, id: 1, payload: [tensor([5])] },
      { deviceMap: { cpu: 'gpu:0' }, peer: 1 },
    );
    expect((decodeMessage(cpuToGpu, { deviceMap: {}, peer: 0 }).payload as Tensor[])[0]!.device.toString()).toBe(
      'gpu:0',
    );
    // a map to a device this process does not have fails clearly on arrival
    const toGpu1 = encodeMessage(
      { type: MessageType.UNKNOWN, id: 1, payload: [tensor([5])] },
      { deviceMap: { cpu: 'gpu:1' }, peer: 1 },
    );
    expect(() => decodeMessage(toGpu1, { deviceMap: {}, peer: 0 })).toThrow(/gpu:1 is not available/);
  });
});
