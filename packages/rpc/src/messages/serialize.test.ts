import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ExtData, encode } from '@msgpack/msgpack';
import { Tensor, tensor } from '@wiregrad/tensor';
import { RpcError } from '../errors.js';
import { HEADER_BYTES, decodeMessage, encodeMessage, writeHeader } from './message.js';
import { MessageType } from './messageType.js';

const ctx = { deviceMap: {}, peer: 0 };

function roundTrip(payload: unknown): unknown {
  return decodeMessage(encodeMessage({ type: MessageType.UNKNOWN, id: 1, payload }, ctx), ctx).payload;
}

/** Tensors and errors compared by what they hold. */
function comparable(v: unknown): unknown {
  if (v instanceof Tensor) return { tensor: v.dtype, shape: [...v.shape], values: v.tolist() };
  if (v instanceof Error) return { error: v.name, message: v.message };
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [comparable(k), comparable(x)]));
  if (Array.isArray(v)) return v.map(comparable);
  if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, comparable(x)]));
  }
  return v;
}

const leaf = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, NaN, Infinity, -Infinity, 2 ** 53 - 1, null, undefined),
  fc.string(),
  fc.boolean(),
  fc.bigInt(),
  fc.float32Array({ maxLength: 5 }),
  fc.float64Array({ maxLength: 5 }),
  fc.int32Array({ maxLength: 5 }),
  fc.uint8Array({ maxLength: 5 }),
  fc.bigInt64Array({ maxLength: 3 }),
  fc.array(fc.float({ noNaN: true }), { minLength: 1, maxLength: 6 }).map((xs) => tensor(xs)),
  fc
    .tuple(fc.string(), fc.constantFrom('Error', 'TypeError', 'ValueError'))
    .map(([m, name]) => Object.assign(new Error(m), { name })),
);
const key = fc.string().filter((k) => k !== '__proto__');
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    fc.array(fc.tuple(fc.oneof(fc.string(), fc.integer()), tie('value')), { maxLength: 3 }).map((es) => new Map(es)),
  ),
}));

describe('payload serialization (MessagePack + extensions)', () => {
  it('property: any nesting of numbers, strings, booleans, null, undefined, bigint, arrays, objects, Maps, typed arrays, tensors and errors survives', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(comparable(roundTrip(v))).toStrictEqual(comparable(v));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps undefined apart from null, and -0 apart from 0 (Note [Faithful payloads])', () => {
    const back = roundTrip({ args: [undefined, null, -0, 0], missing: undefined }) as {
      args: unknown[];
      missing: unknown;
    };
    expect(back.args).toStrictEqual([undefined, null, -0, 0]);
    expect(Object.is(back.args[2], -0)).toBe(true);
    expect('missing' in back).toBe(true);
  });

  it('bigints travel as int64 where they fit and as digits beyond (Note [One codec for every extension])', () => {
    const values = [0n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 63n, -(2n ** 63n) - 1n, 10n ** 100n, -(10n ** 40n)];
    expect(roundTrip(values)).toEqual(values);
    const bytesOf = (v: bigint) => encodeMessage({ type: MessageType.UNKNOWN, id: 1, payload: v }, ctx)[0]!.byteLength;
    expect(bytesOf(2n ** 62n)).toBe(bytesOf(1n));
  });

  it('dates keep their instant (msgpack timestamps), and an unknown extension type is PROTOCOL', () => {
    const d = new Date(Date.UTC(2026, 10, 24, 23, 5, 7, 123));
    expect((roundTrip({ d }) as { d: Date }).d.getTime()).toBe(d.getTime());
    const payload = encode(new ExtData(99, new Uint8Array([1])));
    const head = new Uint8Array(HEADER_BYTES + payload.byteLength);
    writeHeader(head, MessageType.UNKNOWN, 1);
    head.set(payload, HEADER_BYTES);
    expect(() => decodeMessage([head], ctx)).toThrow(expect.objectContaining({ code: 'PROTOCOL' }));
  });

  it('typed arrays arrive as the same kind in aligned buffers of their own', () => {
    const bytes = new Uint8Array(9);
    const misaligned = new Float64Array(bytes.buffer.slice(0, 8));
    const back = roundTrip([new Int32Array([1, -2]), misaligned, new Uint16Array([7])]) as ArrayBufferView[];
    expect(back.map((a) => a.constructor.name)).toEqual(['Int32Array', 'Float64Array', 'Uint16Array']);
    expect(back.every((a) => a.byteOffset === 0)).toBe(true);
  });

  it('errors keep name, message, stack and code', () => {
    const e = Object.assign(new RangeError('too far'), { code: 'E_FAR' });
    const back = roundTrip(e) as Error & { code: string };
    expect([back.name, back.message, back.code, back.stack]).toEqual(['RangeError', 'too far', 'E_FAR', e.stack]);
  });

  it('functions, symbols and lossy built-ins are refused at the sender, naming the argument and its type', () => {
    const refused = (payload: unknown) => {
      try {
        roundTrip(payload);
      } catch (e) {
        return { code: (e as RpcError).code, message: (e as Error).message.split(',')[0] };
      }
      return null;
    };
    expect(refused({ fn: 'f', args: [1, function named() {}] })).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'rpc argument 1 (args[1]) is a function (named)',
    });
    expect(refused({ fn: 'f', args: [{ a: [0, Symbol('s')] }] })).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'rpc argument 0 (args[0].a[1]) is a symbol (Symbol(s))',
    });
    expect(refused({ fn: 'f', args: [new Map([['k', new Set([1])]])] })).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'rpc argument 0 (args[0].k) is a Set',
    });
    expect(refused({ value: { 'a b': Promise.resolve(1) } })).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'the value at .value["a b"] of the message is a Promise',
    });
    expect(refused({ fn: 'f', args: [new ArrayBuffer(4)] })?.message).toBe(
      'rpc argument 0 (args[0]) is an ArrayBuffer',
    );
  });

  it('a crafted __proto__ key cannot pollute prototypes', () => {
    const frames = encodeMessage(
      { type: MessageType.UNKNOWN, id: 1, payload: { ['_'.repeat(9)]: { polluted: true } } },
      ctx,
    );
    const head = Buffer.from(frames[0]!);
    head.write('__proto__', head.indexOf('_________'));
    expect(() => decodeMessage([head], ctx)).toThrow(RpcError);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
