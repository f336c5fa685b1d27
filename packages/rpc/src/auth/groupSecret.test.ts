import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_ENV, groupSecret } from './groupSecret.js';

describe('the group secret (Note [Group secret])', () => {
  let dir: string;
  const saved = { cookie: process.env.WIREGRAD_COOKIE_FILE, secret: process.env[SECRET_ENV] };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'wiregrad-cookie-'));
    process.env.WIREGRAD_COOKIE_FILE = join(dir, 'sub', 'cookie');
    delete process.env[SECRET_ENV];
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    for (const [k, v] of [
      ['WIREGRAD_COOKIE_FILE', saved.cookie],
      [SECRET_ENV, saved.secret],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  it('creates the cookie on first use with 32 random bytes, mode 0600 in a 0700 folder, and reads the same one after', () => {
    const first = groupSecret(undefined);
    const path = join(dir, 'sub', 'cookie');
    expect(first.source).toBe(`the cookie file ${path}`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'sub')).mode & 0o777).toBe(0o700);
    expect(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64url')).toHaveLength(32);
    expect(groupSecret(undefined).secret.equals(first.secret)).toBe(true);
    // another cookie, another secret
    rmSync(path);
    expect(groupSecret(undefined).secret.equals(first.secret)).toBe(false);
  });

  it('refuses a cookie other users can read, and an empty one', () => {
    const path = join(dir, 'cookie');
    process.env.WIREGRAD_COOKIE_FILE = path;
    writeFileSync(path, 'shared\n', { mode: 0o644 });
    chmodSync(path, 0o644);
    expect(() => groupSecret(undefined)).toThrow(/can be read by other users \(mode 644\): chmod 600 it/);
    writeFileSync(path, '\n', { mode: 0o600 });
    chmodSync(path, 0o600);
    expect(() => groupSecret(undefined)).toThrow(/is empty/);
  });

  it('takes the option first, then WIREGRAD_GROUP_SECRET, then the cookie, and says which', () => {
    process.env[SECRET_ENV] = 'from the environment';
    expect(groupSecret('from the option')).toEqual({
      secret: Buffer.from('from the option'),
      source: 'the secret option of initRpc',
    });
    expect(groupSecret(undefined)).toEqual({
      secret: Buffer.from('from the environment'),
      source: `the ${SECRET_ENV} environment variable`,
    });
    expect(() => groupSecret('')).toThrow(/non-empty string/);
  });
});
