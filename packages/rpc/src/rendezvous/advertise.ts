import { createSocket } from 'node:dgram';
import { RpcError } from '../errors.js';

const WILDCARD = /^tcp:\/\/(0\.0\.0\.0|\*):(\d+)$/;

/**
 * Note [Advertised address]
 * A worker that listens on every interface (`listenAddress: 'tcp://0.0.0.0:<port>'`, the
 * setting for a group across machines) must tell the others an address they can reach, not
 * 0.0.0.0. It advertises the address of the interface its kernel routes to the rendezvous
 * host through (a connected UDP socket picks the route and sends nothing), so workers that
 * reach the store reach each other the same way. Other endpoints are advertised as bound.
 */
export async function advertisedAddress(bound: string, storeAddress: string): Promise<string> {
  const wildcard = WILDCARD.exec(bound);
  if (!wildcard) return bound;
  const store = /^tcp:\/\/(.+):(\d+)$/.exec(storeAddress);
  if (!store) throw new RpcError('RENDEZVOUS', `cannot tell which interface reaches the rendezvous at ${storeAddress}`);
  const socket = createSocket('udp4');
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.connect(Number(store[2]), store[1]!, (err?: Error) => (err ? reject(err) : resolve()));
    });
    const { address } = socket.address();
    if (address === '0.0.0.0') throw new Error('the kernel picked no interface');
    return `tcp://${address}:${wildcard[2]}`;
  } catch (e) {
    throw new RpcError('RENDEZVOUS', `no route to the rendezvous host ${store[1]}: ${(e as Error).message}`);
  } finally {
    socket.close();
  }
}
