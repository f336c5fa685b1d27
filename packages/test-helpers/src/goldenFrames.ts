import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plain } from './util.js';

/** One pinned message: its name (its MessageType's) and the frames it encodes to. */
export interface GoldenFrames {
  name: string;
  frames: readonly Uint8Array[];
}

/**
 * Note [Golden wire files]
 * The bytes of one representative message of every MessageType are committed, one file per
 * type (`<TYPE>.hex`: one line of hex per ZeroMQ frame, the head first), so that any change to
 * the wire (the header, the codec, msgpack upstream) shows up as a failing spec and a diff
 * of those files. A deliberate change rewrites them with the package's generator
 * (`goldenWire.gen.ts --update`) and bumps WIRE_VERSION.
 */
export const framesToHex = (frames: readonly Uint8Array[]): string =>
  frames.map((f) => Buffer.from(f.buffer, f.byteOffset, f.byteLength).toString('hex')).join('\n') + '\n';

export const hexToFrames = (hex: string): Uint8Array[] =>
  hex
    .trimEnd()
    .split('\n')
    .map((line) => new Uint8Array(Buffer.from(line, 'hex')));

export const goldenPath = (dir: string, name: string): string => join(dir, `${name}.hex`);

export function readGolden(dir: string, name: string): string {
  return readFileSync(goldenPath(dir, name), 'utf8');
}

/**
 * Compares every message's frames with its golden file, or (`update`) rewrites the files that
 * differ; returns the names that differed (or were missing).
 */
export function syncGoldenFiles(dir: string, goldens: readonly GoldenFrames[], update: boolean): string[] {
  const differ: string[] = [];
  if (update) mkdirSync(dir, { recursive: true });
  for (const { name, frames } of goldens) {
    const hex = framesToHex(frames);
    const path = goldenPath(dir, name);
    if (existsSync(path) && readFileSync(path, 'utf8') === hex) continue;
    differ.push(name);
    if (update) writeFileSync(path, hex);
  }
  return differ;
}

/** A decoded payload in a form toStrictEqual compares by value: `plain`, with errors and dates by what they hold. */
export function wireValue(v: unknown): unknown {
  if (v instanceof Error)
    return { error: v.name, message: v.message, stack: v.stack, code: wireValue((v as { code?: unknown }).code) };
  if (v instanceof Date) return { date: v.getTime() };
  if (Array.isArray(v)) return v.map(wireValue);
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, wireValue(x)]));
  if (v instanceof Map) return [...v].map(([k, x]) => [wireValue(k), wireValue(x)]);
  return plain(v);
}
