import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { type Server, type Socket, connect, createServer } from 'node:net';
import { join } from 'node:path';
import { Tensor, narrow, noGrad, toTypedArray } from '@wiregrad/autograd';
import { DistributedError } from '../errors.js';
import type { Chunk, Descriptor } from './mailbox.js';
import { storageView } from './tensors.js';

/** Where a rank listens for the ranks on its machine, and the nonce a connecting rank must show. */
export interface LocalPairEndpoint {
  host: string;
  path: string;
  nonce: string;
}

/** What a chunk's header says: its mailbox key, descriptor, and the dtype and length of its data (null: none). */
interface Head {
  key: string;
  meta: Descriptor;
  dtype: Tensor['dtype'] | null;
  numel: number;
  /** the data's byte offset modulo 8 in the sender's memory (Note [Aligned blocks]) */
  align: number;
}

const BYTES = { float32: 4, float64: 8, int32: 4 } as Record<string, number>;

/**
 * Note [Local pairs]
 * Ranks on one machine send each other collective chunks over Unix sockets of their own (gloo's
 * pairs) rather than through the RPC agent: a ZeroMQ send cost the sender 75 us of cpu while the
 * other rank's I/O thread competed for the same 2 cores, and a chunk needs no request id,
 * receipt or resend on a link that cannot reset without its peer dying. Each rank connects to
 * every other rank on its machine and receives on that connection (the listener sends on the
 * one it accepted): a connecting socket can read into one buffer of its own (`onread`), so a
 * 64 MiB all-reduce allocates no 64 KiB read buffer per read, and V8 runs no mark-compact for
 * their external memory. A chunk is [u32 LE header length][header JSON][data bytes]; Node
 * writes it straight from the tensor's memory (no copy; a send resolves once the kernel has the
 * bytes, so that memory is free again: what Note [Collectives wait for receipts only where
 * memory is reused] waits for); the receiver copies the data out of its read buffer into a
 * block of a pool, which a consumer that is done with it may hand back (`release`). The socket
 * lives in the user's private directory of Note [Same-machine peers over Unix sockets], and a
 * connecting rank must show the listener's nonce, which only reached members over the
 * authenticated RPC group; anything else is dropped unread. A lost pair is not a verdict: a
 * rank's pair to rank B breaks when B left the group after seeing rank C die, so a failed send
 * waits for the group's verdict (RPC's heartbeats: who died or left) and fails with that, or with
 * its own PEER_GONE if none comes within the dead-peer window.
 */
export class LocalPairs {
  /** the accepted connections, by the global rank that connected: where this rank sends to it */
  private readonly out = new Map<number, Socket>();
  /** the connections this rank made: where it receives */
  private readonly incoming = new Set<Socket>();
  private closed = false;

  private constructor(
    private readonly server: Server,
    readonly endpoint: LocalPairEndpoint,
    private readonly onChunk: (key: string, chunk: Chunk) => void,
  ) {}

  /** Listens in `dir` on this machine `host`; chunks that arrive go to `onChunk`. */
  static async listen(dir: string, host: string, onChunk: (key: string, chunk: Chunk) => void): Promise<LocalPairs> {
    const endpoint = {
      host,
      path: join(dir, `${process.pid}-c10d-${randomBytes(6).toString('hex')}.sock`),
      nonce: randomBytes(16).toString('hex'),
    };
    const server = createServer({ noDelay: true });
    const pairs = new LocalPairs(server, endpoint, onChunk);
    server.on('connection', (s) => pairs.accept(s));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(endpoint.path, () => resolve());
    });
    server.unref();
    return pairs;
  }

  /** A rank connected: once it shows the nonce and its rank, this rank sends to it on `s`. */
  private accept(s: Socket): void {
    if (this.closed) return void s.destroy();
    s.on('error', () => {}); // a failing write reports it (Note [Local pairs])
    s.unref();
    let hello = '';
    const onData = (b: Buffer) => {
      hello += b.toString('latin1');
      const nl = hello.indexOf('\n');
      if (nl < 0) return void (hello.length > 256 && s.destroy());
      s.off('data', onData);
      const [nonce, rank] = hello.slice(0, nl).split(' ');
      const r = Number(rank);
      if (nonce !== this.endpoint.nonce || !Number.isInteger(r) || r < 0 || this.closed) return void s.destroy();
      this.out.get(r)?.destroy();
      this.out.set(r, s);
      s.write('\n'); // ready
    };
    s.on('data', onData);
  }

  /** Connects to global rank `them`'s listener as rank `me`: what `them` sends this rank arrives here. */
  async connect(me: number, them: LocalPairEndpoint): Promise<void> {
    const reader = new ChunkReader(this.onChunk);
    const s = connect({
      path: them.path,
      onread: { buffer: () => reader.nextBuffer(), callback: (n: number) => reader.read(n) },
    });
    reader.socket = s;
    this.incoming.add(s);
    s.once('close', () => this.incoming.delete(s));
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      reader.ready = resolve;
      s.once('connect', () => s.write(`${them.nonce} ${me}\n`));
    });
    s.on('error', () => {});
    s.unref();
  }

  /** Whether this rank sends to global rank `rank` over a local pair. */
  has(rank: number): boolean {
    return this.out.has(rank);
  }

  /** Sends `chunk` under `key` to global rank `rank`; resolves once the kernel holds every byte. */
  send(rank: number, key: string, chunk: Chunk): Promise<void> {
    const s = this.out.get(rank)!;
    const data = chunk.data ? bytesOf(chunk.data) : null;
    const head = {
      key,
      meta: chunk.meta,
      dtype: chunk.data?.dtype ?? null,
      numel: chunk.data?.numel ?? 0,
      align: (data?.byteOffset ?? 0) % 8,
    };
    return new Promise<void>((resolve, reject) => {
      const done = (e?: Error | null) =>
        e
          ? reject(
              new DistributedError(
                'PEER_GONE',
                `the local pair to rank${rank} broke (${e.message}): it died or left the group`,
                { cause: e },
              ),
            )
          : resolve();
      if (s.destroyed) return done(new Error('it is closed'));
      if (data && data.byteLength > SMALL_BYTES) {
        s.write(frame(head, null));
        s.write(data, done);
      } else s.write(frame(head, data), done);
    });
  }

  /** Closes every pair (what was written still goes out) and the listener. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.out.values()) s.end();
    for (const s of this.incoming) s.destroy();
    this.server.close();
    try {
      unlinkSync(this.endpoint.path);
    } catch {
      // already gone
    }
  }
}

/** Bytes of each receiving socket's buffer for lengths, headers and small data (Note [Reads into the block]). */
const READ_BYTES = 64 * 1024;
/** Data up to this many bytes shares one write with its header. */
const SMALL_BYTES = 64 * 1024;

function frame(head: Head, data: Uint8Array | null): Buffer {
  const json = Buffer.from(JSON.stringify(head));
  const out = Buffer.allocUnsafe(4 + json.byteLength + (data?.byteLength ?? 0));
  out.writeUInt32LE(json.byteLength, 0);
  out.set(json, 4);
  if (data) out.set(data, 4 + json.byteLength);
  return out;
}

/**
 * Blocks that received data lands in, by dtype, length and alignment: a consumer done with a
 * chunk's data gives its block back (Chunk.release), so a ring reuses a few blocks rather than
 * allocating 64 MiB per all-reduce. They are cpu tensors, so the fold of a received piece runs on
 * the SIMD kernels (Note [Local pairs]).
 *
 * Note [Aligned blocks]
 * Tensor memory is a SharedArrayBuffer (the wasm heap), and V8 copies between such arrays word by
 * word only where source and target have the same address modulo 8, else byte by byte: the
 * ring's all-gather copied a received 3.7 MB chunk into a tensor in 1.2-2.3 ms at an odd float
 * offset against 0.15 ms at an even one. A sender says where its data sits modulo 8 (`align`),
 * which is where the receiver's copy of it goes (every rank lays out a collective's tensor
 * alike), and the block starts at the same address modulo 8.
 */
const pool = new Map<string, Tensor[]>();
const POOLED_PER_SIZE = 64;

function block(dtype: Tensor['dtype'], numel: number, align: number): Tensor {
  const free = pool.get(`${dtype}|${numel}|${align}`)?.pop();
  if (free) return free;
  const bytes = BYTES[dtype]!;
  const base = Tensor.uninitialized([numel + 8 / bytes], dtype);
  const skew = (((align - ((base.storage.data.byteOffset + base.offset * bytes) % 8)) % 8) + 8) % 8;
  return noGrad(() => narrow(base, 0, skew % bytes === 0 ? skew / bytes : 0, numel));
}

function giveBack(t: Tensor, align: number): void {
  const key = `${t.dtype}|${t.numel}|${align}`;
  let free = pool.get(key);
  if (!free) pool.set(key, (free = []));
  if (free.length < POOLED_PER_SIZE) free.push(t);
}

/**
 * The bytes of `t`'s values in row-major order: a view of a contiguous cpu tensor's memory (a
 * block's is taken afresh for each read: wasm memory may have grown meanwhile), else a copy.
 */
function bytesOf(t: Tensor): Uint8Array {
  const d = storageView(t) ?? toTypedArray(t);
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}

/**
 * Note [Reads into the block]
 * A receiving socket reads lengths, headers and small data into a buffer of its own and copies
 * them out; the data of a large chunk it reads straight into the block it lands in (`onread`
 * asks `nextBuffer()` for the memory of each read): the kernel copies the bytes once, from the
 * sender's tensor into the receiver's, where a copy out of a read buffer cost another pass over
 * them (0.9-1.8 ms for 3.7 MB into the wasm heap; Note [Aligned blocks]).
 */
/** Parses what a receiving socket reads: the listener's ready line, then chunks. */
class ChunkReader {
  socket: Socket | null = null;
  ready: (() => void) | null = null;
  private readonly scratch = Buffer.allocUnsafeSlow(READ_BYTES);
  /** whether the last buffer handed out was the block's memory (else the scratch buffer) */
  private direct = false;
  private readonly lenBytes = Buffer.alloc(4);
  private headBytes: Buffer | null = null;
  private head: Head | null = null;
  private data: Tensor | null = null;
  /** bytes still to come of the current part (length, header or data), and how many came */
  private need = 4;
  private got = 0;

  constructor(private readonly onChunk: (key: string, chunk: Chunk) => void) {}

  /** Where the next read goes: the rest of a large block (Note [Reads into the block]), else the scratch buffer. */
  nextBuffer(): Uint8Array {
    this.direct = this.data !== null && this.need - this.got >= READ_BYTES;
    return this.direct ? bytesOf(this.data!).subarray(this.got, this.need) : this.scratch;
  }

  /** `n` bytes arrived in the buffer `nextBuffer()` gave; true: read on. */
  read(n: number): boolean {
    if (this.direct) {
      this.got += n;
      return this.got < this.need || this.advance();
    }
    const buf = this.scratch;
    let at = 0;
    if (this.ready) {
      if (buf[0] !== 10) return this.fail();
      at = 1;
      this.ready();
      this.ready = null;
    }
    while (at < n) {
      const k = Math.min(n - at, this.need - this.got);
      const target = this.data ? bytesOf(this.data) : (this.headBytes ?? this.lenBytes);
      target.set(buf.subarray(at, at + k), this.got);
      at += k;
      this.got += k;
      if (this.got === this.need && !this.advance()) return false;
    }
    return true;
  }

  /** Drops the connection: what it sent was not a rank's chunks. */
  private fail(): false {
    this.socket?.destroy();
    return false;
  }

  /** The current part is complete: parse it and set up the next; false when the stream is malformed. */
  private advance(): boolean {
    this.got = 0;
    if (!this.headBytes && !this.head) {
      this.need = this.lenBytes.readUInt32LE(0);
      if (this.need > 1 << 20) return this.fail(); // no header is this long: not a rank
      this.headBytes = Buffer.allocUnsafe(this.need);
      if (this.need > 0) return true;
    }
    if (this.headBytes) {
      try {
        this.head = JSON.parse(this.headBytes.toString('utf8')) as Head;
      } catch {
        return this.fail();
      }
      this.headBytes = null;
      const h = this.head;
      this.need = h.dtype ? h.numel * (BYTES[h.dtype] ?? NaN) : 0;
      if (!Number.isSafeInteger(this.need) || this.need < 0) return this.fail();
      if (!Number.isInteger(h.align) || h.align < 0 || h.align > 7) return this.fail();
      if (this.need > 0) {
        try {
          this.data = block(h.dtype!, h.numel, h.align);
        } catch {
          return this.fail(); // more than this process can hold: the pair breaks, the sender hears PEER_GONE
        }
        return true;
      }
    }
    const h = this.head!;
    const data = this.data;
    this.head = null;
    this.data = null;
    this.need = 4;
    this.onChunk(h.key, { meta: h.meta, data, ...(data ? { release: () => giveBack(data, h.align) } : {}) });
    return true;
  }
}
