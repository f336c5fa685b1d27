import { spawnSync } from 'node:child_process';

/** Runs `ip ...`; throws with its stderr when it fails. */
function ip(...args: string[]): string {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${r.stderr.trim() || `exit ${r.status}`}`);
  return r.stdout;
}

const PREFIX = 'wgnet';

/**
 * Whether this process may create network namespaces and run in them, found by trying: null if
 * it may, else the reason it may not (no `ip` command, or `ip netns add`/`exec` refused: not
 * root, no CAP_SYS_ADMIN, a container without the privilege).
 */
export function netnsRefusal(): string | null {
  const probe = `${PREFIX}${process.pid}-probe`;
  try {
    ip('netns', 'add', probe);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return err.code === 'ENOENT'
      ? 'the `ip` command (iproute2) is not installed'
      : `\`ip netns add\` is not permitted here: ${err.message}`;
  }
  try {
    ip('netns', 'exec', probe, 'ip', 'link', 'set', 'lo', 'up');
  } catch (e) {
    return `\`ip netns exec\` is not permitted here: ${(e as Error).message}`;
  } finally {
    ip('netns', 'del', probe);
  }
  return null;
}

/** Removes the names of namespaces left by earlier runs of these specs whose process is gone. */
export function removeStaleNamespaces(): void {
  for (const line of ip('netns', 'list').split('\n')) {
    const m = new RegExp(`^(${PREFIX}(\\d+)-\\S+)`).exec(line);
    if (!m || Number(m[2]) === process.pid) continue;
    try {
      process.kill(Number(m[2]), 0);
    } catch {
      spawnSync('ip', ['netns', 'del', m[1]!]);
    }
  }
}

export interface Network {
  /** one namespace per host, each with `eth0` on the bridge */
  hosts: { ns: string; address: string }[];
  /** the namespace holding the bridge `br0` and the host side of every veth pair (`v0`, `v1`, ...) */
  hub: string;
  /** bytes each host sent and received through its veth pair, seen from the hub */
  traffic(): { rx: number; tx: number }[];
  /** deletes every namespace (their veths and the bridge go with them); safe to call twice */
  remove(): void;
}

let networks = 0;
const live = new Set<Network>();
// whatever ends this process, its namespaces go too
process.once('exit', () => {
  for (const n of live) n.remove();
});

/**
 * `n` hosts on separate network stacks: a namespace each, joined by veth pairs to a bridge in a
 * hub namespace of their own (the host's network, firewall and bridges are not touched), on
 * 10.213.0.0/24. Names carry this process's pid, so concurrent runs never collide; on any
 * failure while building, what was built is removed.
 */
export function createNetwork(n: number): Network {
  const tag = `${PREFIX}${process.pid}-${networks++}`;
  const hub = `${tag}-hub`;
  const hosts = Array.from({ length: n }, (_, i) => ({ ns: `${tag}-h${i}`, address: `10.213.0.${i + 1}` }));
  const created: string[] = [];
  const net: Network = {
    hosts,
    hub,
    traffic: () =>
      hosts.map((_, i) => {
        const [stats] = JSON.parse(ip('-n', hub, '-j', '-s', 'link', 'show', `v${i}`)) as {
          stats64: { rx: { bytes: number }; tx: { bytes: number } };
        }[];
        return { rx: stats!.stats64.rx.bytes, tx: stats!.stats64.tx.bytes };
      }),
    remove: () => {
      live.delete(net);
      for (const ns of created.splice(0).reverse()) spawnSync('ip', ['netns', 'del', ns]);
    },
  };
  live.add(net);
  try {
    ip('netns', 'add', hub);
    created.push(hub);
    ip('-n', hub, 'link', 'set', 'lo', 'up');
    ip('-n', hub, 'link', 'add', 'br0', 'type', 'bridge');
    ip('-n', hub, 'link', 'set', 'br0', 'up');
    hosts.forEach(({ ns, address }, i) => {
      ip('netns', 'add', ns);
      created.push(ns);
      ip('-n', hub, 'link', 'add', `v${i}`, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns);
      ip('-n', hub, 'link', 'set', `v${i}`, 'master', 'br0');
      ip('-n', hub, 'link', 'set', `v${i}`, 'up');
      ip('-n', ns, 'link', 'set', 'lo', 'up');
      ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
      ip('-n', ns, 'link', 'set', 'eth0', 'up');
    });
  } catch (e) {
    net.remove();
    throw e;
  }
  return net;
}

/** Namespaces of this process that exist now (for the spec that checks teardown). */
export function namespacesOfThisProcess(): string[] {
  return ip('netns', 'list')
    .split('\n')
    .map((l) => l.split(' ')[0]!)
    .filter((name) => name.startsWith(`${PREFIX}${process.pid}-`));
}
