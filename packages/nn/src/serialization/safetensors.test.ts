import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type NestedArray, type Tensor, manualSeed, randn, tensor } from '@wiregrad/autograd';
import { expectClose, loadFixture } from '../__tests__/fixture.js';
import {
  BatchNorm2d,
  Conv2d,
  Flatten,
  Linear,
  MaxPool2d,
  ReLU,
  Sequential,
  deserialize,
  load,
  safetensorsMetadata,
  save,
  serialize,
} from '../index.js';

const fixtureBytes = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../__tests__/fixtures/${name}`, import.meta.url)));
const T = loadFixture<{
  foreign: Record<string, { dtype: string; shape: number[]; values: NestedArray }>;
  ours: Record<string, { dtype: string; values: NestedArray }>;
}>('safetensors');
const dir = mkdtempSync(join(tmpdir(), 'wiregrad-safetensors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** safetensors bytes with a replaced header (and data), for the bad-file specs. */
function withHeader(header: unknown, data: Uint8Array = new Uint8Array(0), declared?: number): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(declared ?? json.length), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}

describe('safetensors (Note [safetensors])', () => {
  it('reads a file safetensors.torch.save_file wrote: every dtype, shape and value, and the metadata', () => {
    const bytes = fixtureBytes('pytorch.safetensors');
    const sd = deserialize(bytes);
    expect(Object.keys(sd).sort()).toEqual(Object.keys(T.foreign).sort());
    const ourDtype: Record<string, string> = {
      float32: 'float32',
      float64: 'float64',
      int64: 'int32',
      bool: 'bool',
      float16: 'float32',
      bfloat16: 'float32',
      int32: 'int32',
      uint8: 'int32',
      int16: 'int32',
    };
    for (const [name, f] of Object.entries(T.foreign)) {
      const t = sd[name]!;
      expect([name, t.dtype, t.shape]).toEqual([name, ourDtype[f.dtype], f.shape]);
      if (t.dtype === 'bool') expect(t.tolist()).toEqual(f.values);
      else expectClose(t, f.values, t.dtype === 'float64' ? 0 : 1e-7);
    }
    expect(safetensorsMetadata(bytes)).toEqual({ format: 'pt', by: 'safetensors.torch' });
  });

  it('writes the very bytes safetensors.torch.save_file writes for the same state dict (so PyTorch loads ours)', () => {
    const sd: Record<string, Tensor> = {};
    for (const [name, { dtype, values }] of Object.entries(T.ours))
      sd[name] = tensor(values, { dtype: dtype === 'bool' ? 'bool' : (dtype as 'float32' | 'float64' | 'int32') });
    expect(serialize(sd, { format: 'pt' })).toEqual(fixtureBytes('expected.safetensors'));
  });

  it('save() and load() round-trip a model through a file, gpu tensors included', async () => {
    manualSeed(12);
    const make = () =>
      new Sequential(
        new Conv2d(1, 4, 3),
        new BatchNorm2d(4),
        new ReLU(),
        new MaxPool2d(2),
        new Flatten(),
        new Linear(36, 10),
      );
    const a = make();
    a.forward(randn([2, 1, 8, 8]));
    const path = join(dir, 'model.safetensors');
    await save(a.stateDict(), path);
    const b = make();
    b.loadStateDict(await load(path));
    for (const [k, v] of Object.entries(a.stateDict())) expect(b.stateDict()[k]!.tolist()).toEqual(v.tolist());
    await save({ w: tensor([1, 2]).to('gpu:0') }, path);
    expect((await load(path)).w!.tolist()).toEqual([1, 2]);
  });

  it('save() and load() a tensor whose storage lives in the shared wasm memory (Note [Storages in wasm memory])', async () => {
    const w = randn([128, 256]).mul(3);
    expect(w.storage.data.buffer instanceof SharedArrayBuffer).toBe(true);
    const path = join(dir, 'big.safetensors');
    await save({ w }, path);
    expect((await load(path)).w!.toTypedArray()).toEqual(w.toTypedArray());
  });

  it.each([
    ['fewer than 8 bytes', new Uint8Array(5), 'too short for the 8-byte header length'],
    ['a header length past the end', withHeader({}, new Uint8Array(0), 1000), 'header length 1000 runs past the end'],
    [
      'a header that is not JSON',
      (() => {
        const b = withHeader({ a: 1 });
        b[8] = 0x5b;
        return b;
      })(),
      'the header is not UTF-8 JSON',
    ],
    [
      'an unknown dtype',
      withHeader({ a: { dtype: 'F128', shape: [1], data_offsets: [0, 16] } }, new Uint8Array(16)),
      'tensor \'a\' has an unknown dtype "F128"',
    ],
    [
      'a byte range that does not match the shape',
      withHeader({ a: { dtype: 'F32', shape: [3], data_offsets: [0, 8] } }, new Uint8Array(8)),
      "tensor 'a' has 8 bytes at [0, 8) but F32 [3] needs 12",
    ],
    [
      'overlapping ranges',
      withHeader(
        {
          a: { dtype: 'F32', shape: [2], data_offsets: [0, 8] },
          b: { dtype: 'F32', shape: [2], data_offsets: [4, 12] },
        },
        new Uint8Array(12),
      ),
      "tensor 'b' starts at byte 4, not 8: byte ranges overlap or leave a gap",
    ],
    [
      'a range out of the file',
      withHeader({ a: { dtype: 'F32', shape: [4], data_offsets: [0, 16] } }, new Uint8Array(8)),
      'the tensors end at byte',
    ],
    ['a truncated file', fixtureBytes('pytorch.safetensors').subarray(0, 700), 'the tensors end at byte'],
    [
      'a negative shape',
      withHeader({ a: { dtype: 'F32', shape: [-1], data_offsets: [0, 0] } }),
      "tensor 'a' has an invalid shape [-1]",
    ],
    [
      'an int64 outside int32',
      withHeader({ a: { dtype: 'I64', shape: [1], data_offsets: [0, 8] } }, new Uint8Array([0, 0, 0, 0, 1, 0, 0, 0])),
      "tensor 'a': value 4294967296 does not fit int32",
    ],
  ])('a bad file (%s) is an error, never a wrong tensor', (_name, bytes, message) => {
    expect(() => deserialize(bytes)).toThrow(message);
    expect(() => deserialize(bytes)).toThrow(expect.objectContaining({ code: 'SAFETENSORS' }));
  });

  it('load() of a missing file rejects with the file error', async () => {
    await expect(load(join(dir, 'nope.safetensors'))).rejects.toThrow('ENOENT');
  });
});
