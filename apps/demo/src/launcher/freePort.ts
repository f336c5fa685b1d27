import { createServer } from 'node:net';

/** A TCP port free on `host` right now (the default rendezvous address when --master is not given). */
export function freePort(host: string): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.on('error', rej);
    srv.listen(0, host, () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}
