import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostKey, ipcAddress, ipcDirectory, reachesLocally } from './localTransport.js';

describe('local endpoints (Note [Same-machine peers over Unix sockets])', () => {
  const made: string[] = [];
  const scratch = () => {
    const d = mkdtempSync(join(tmpdir(), 'wg-local-'));
    made.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('keeps the sockets in a directory only this user may enter, and refuses one that others may', () => {
    const base = scratch();
    const dir = ipcDirectory(base)!;
    expect(dir).toBe(join(base, `wiregrad-${process.getuid!()}`));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    chmodSync(dir, 0o755);
    expect(ipcDirectory(base)).toBeNull();
  });

  it('names a fresh socket after this process and removes the sockets of processes that are gone', () => {
    const dir = ipcDirectory(scratch())!;
    const stale = join(dir, '2147483646-abc.sock');
    const mine = join(dir, `${process.pid}-def.sock`);
    writeFileSync(stale, '');
    writeFileSync(mine, '');
    const a = ipcAddress(dir);
    expect(a).toMatch(new RegExp(`^ipc://${dir}/${process.pid}-[0-9a-f]{12}\\.sock$`));
    expect(ipcAddress(dir)).not.toBe(a);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(mine)).toBe(true);
  });

  it('reaches a peer locally only on the same machine, with its socket in sight', async () => {
    const dir = ipcDirectory(scratch())!;
    const path = join(dir, `${process.pid}-peer.sock`);
    const server = createServer();
    await new Promise<void>((r) => server.listen(path, r));
    try {
      const host = hostKey();
      expect(reachesLocally({ host, address: `ipc://${path}` }, host)).toBe(true);
      expect(reachesLocally({ host: 'elsewhere/1', address: `ipc://${path}` }, host)).toBe(false);
      expect(reachesLocally({ host, address: `ipc://${join(dir, 'gone.sock')}` }, host)).toBe(false);
      expect(reachesLocally({ host, address: 'tcp://127.0.0.1:1' }, host)).toBe(false);
      expect(reachesLocally(undefined, host)).toBe(false);
    } finally {
      server.close();
    }
  });

  it("looks at a peer's socket without breaking require() through pnpm's symlinks (Note [Looking at a socket])", async () => {
    // pnpm's layout: app/node_modules/a links to .pnpm/a/node_modules/a, whose dependency b sits beside it
    const root = scratch();
    const store = join(root, '.pnpm', 'a', 'node_modules');
    for (const [dir, body] of [
      [join(store, 'a'), "module.exports = require('b');"],
      [join(store, 'b'), 'module.exports = 42;'],
      [join(root, 'app', 'warm'), 'module.exports = 0;'],
    ] as const) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'index.js'), body);
    }
    mkdirSync(join(root, 'app', 'node_modules'));
    symlinkSync(join(store, 'a'), join(root, 'app', 'node_modules', 'a'));
    const requireFromApp = createRequire(join(root, 'app', 'main.js'));
    requireFromApp('./warm'); // the loader now knows root's directories are no links
    const dir = ipcDirectory(scratch())!;
    const path = join(dir, `${process.pid}-peer.sock`);
    const server = createServer();
    await new Promise<void>((r) => server.listen(path, r));
    try {
      expect(reachesLocally({ host: hostKey(), address: `ipc://${path}` }, hostKey())).toBe(true);
      expect(requireFromApp('a')).toBe(42);
    } finally {
      server.close();
    }
  });
});
