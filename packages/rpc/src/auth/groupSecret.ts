import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { RpcError } from '../errors.js';

/** The group's shared secret and where it came from (named in errors, never the secret itself). */
export interface GroupSecret {
  secret: Buffer;
  source: string;
}

/** The environment variable that holds a group secret (what launchers hand their children). */
export const SECRET_ENV = 'WIREGRAD_GROUP_SECRET';

/** The cookie file: `$WIREGRAD_COOKIE_FILE`, else `~/.wiregrad/cookie`. */
export function cookiePath(): string {
  return process.env.WIREGRAD_COOKIE_FILE || join(homedir(), '.wiregrad', 'cookie');
}

/**
 * Note [Group secret]
 * Who may join a group is decided by one shared secret, like Erlang's distribution cookie: the
 * `secret` backend option, else the WIREGRAD_GROUP_SECRET environment variable, else the user's
 * cookie file (~/.wiregrad/cookie, created with 32 random bytes and mode 0600 on first use, so
 * every process of one user on one machine shares it with no setup and other users cannot read
 * it; a cookie others can read is refused, as Erlang refuses one). Across machines users copy
 * the cookie or set the variable; launchers generate one per run and pass it in the variable.
 * The secret never travels: the rendezvous proves it with MACs (Note [Authenticated membership]).
 */
export function groupSecret(option: string | undefined): GroupSecret {
  if (option !== undefined) {
    if (typeof option !== 'string' || option.length === 0)
      throw new RpcError('INVALID_ARGUMENT', 'backendOptions.secret must be a non-empty string');
    return { secret: Buffer.from(option), source: 'the secret option of initRpc' };
  }
  const env = process.env[SECRET_ENV];
  if (env) return { secret: Buffer.from(env), source: `the ${SECRET_ENV} environment variable` };
  const path = cookiePath();
  return { secret: readCookie(path), source: `the cookie file ${path}` };
}

function readCookie(path: string): Buffer {
  try {
    return checkedCookie(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // written whole under a unique name, then linked into place: a process that reads the cookie
  // never sees it half written, and of processes creating it at once exactly one link wins
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(tmp, randomBytes(32).toString('base64url') + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600); // the umask cannot widen it, but be explicit
  try {
    linkSync(tmp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    unlinkSync(tmp);
  }
  return checkedCookie(path);
}

function checkedCookie(path: string): Buffer {
  const { mode } = statSync(path);
  if (process.platform !== 'win32' && (mode & 0o077) !== 0)
    throw new RpcError(
      'AUTH',
      `the cookie file ${path} can be read by other users (mode ${(mode & 0o777).toString(8)}): chmod 600 it`,
    );
  const secret = readFileSync(path, 'utf8').trim();
  if (secret.length === 0) throw new RpcError('AUTH', `the cookie file ${path} is empty`);
  return Buffer.from(secret);
}
