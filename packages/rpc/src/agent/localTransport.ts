import { randomBytes } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, readdirSync, unlinkSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where a worker also listens for peers on its own machine: a Unix socket, and which machine that is. */
export interface LocalEndpoint {
  /** the machine's identity (hostKey()) */
  host: string;
  /** `ipc://<path>` */
  address: string;
}

/**
 * Note [Same-machine peers over Unix sockets]
 * Workers on one machine talk over a Unix socket (ZeroMQ's ipc://) rather than TCP loopback,
 * without CURVE, whose encryption is most of the CPU time of a large message (figures in
 * docs/security.md). That is safe because of where the socket lives: a directory of this user's (`<tmpdir>/wiregrad-<uid>`) that only its owner may enter (mode
 * 0700, checked, and refused when another user owns it or may enter it), so only processes of
 * this user (or root) can connect: the same ones that can read the group secret's cookie file
 * (Note [Group secret]); what a Unix socket carries never leaves the kernel. Every message is
 * still signed with its sender's pair key (Note [Authenticated membership]), so a member cannot
 * speak for another over it either. A worker offers its socket at the rendezvous with its
 * machine's identity (host name and boot id); a peer connects to it only when it has the same
 * identity and sees the socket file (a container with its own file system does not: it takes
 * TCP). `backendOptions.ipc: false` turns it off both ways; so does an explicit
 * advertisedAddress (the route its peers must take: a proxy, a NAT, a network namespace).
 * A socket file goes when its worker closes; those of dead processes go when the next worker
 * of this user binds.
 */

/** This machine's identity: host name and (on Linux) the boot id, so a reboot or a clone of the name differs. */
export function hostKey(): string {
  let boot = '';
  try {
    boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    // not Linux: the host name alone
  }
  return `${hostname()}/${boot}`;
}

/** This user's private socket directory, created if needed; null where Unix sockets cannot be trusted or used. */
export function ipcDirectory(base = tmpdir()): string | null {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return null;
  const dir = join(base, `wiregrad-${process.getuid()}`);
  try {
    mkdirSync(dir, { mode: 0o700, recursive: true });
    const st = lstatSync(dir);
    if (!st.isDirectory() || st.uid !== process.getuid() || (st.mode & 0o077) !== 0) return null;
  } catch {
    return null;
  }
  return dir;
}

/** A fresh socket address in `dir` (its name starts with this process's pid), after removing dead processes' sockets. */
export function ipcAddress(dir: string): string {
  for (const name of readdirSafe(dir)) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (pid && !alive(pid)) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // another worker removed it first
      }
    }
  }
  return `ipc://${join(dir, `${process.pid}-${randomBytes(6).toString('hex')}.sock`)}`;
}

/**
 * Note [Looking at a socket]
 * Node's JavaScript realpathSync (which require() uses, with the module loader's cache) reads
 * the last synchronous stat's result, kept in one array per thread, when a path's directory is in
 * that cache: if it says "socket" it stops resolving and returns the path unresolved. So after a
 * plain lstatSync of a peer's Unix socket, the next require() of a package through pnpm's
 * symlinks loaded it under its link's path, where its own dependencies cannot be found (`pnpm
 * demo names`: "Cannot find module '@stdlib/fs-read-json'", in the worker that had just looked at
 * its peers' sockets). A BigInt stat fills another array, so the socket is looked at that way.
 */
/** Whether a peer's local endpoint is reachable from here: the same machine, and its socket file in sight. */
export function reachesLocally(ipc: LocalEndpoint | undefined, host: string): ipc is LocalEndpoint {
  if (!ipc || ipc.host !== host || typeof ipc.address !== 'string' || !ipc.address.startsWith('ipc://')) return false;
  try {
    return lstatSync(ipc.address.slice('ipc://'.length), { bigint: true }).isSocket();
  } catch {
    return false;
  }
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
