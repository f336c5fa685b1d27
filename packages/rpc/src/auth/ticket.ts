import { mac, macMatches } from './keys.js';

/** What a ticket vouches for: a worker's name, id, address and public key. */
interface Ticketed {
  name: string;
  rank: number;
  address: string;
  publicKey: string | null;
}

const fields = (r: Ticketed) => JSON.stringify([r.name, r.rank, r.address, r.publicKey]);

/**
 * The rendezvous store's word that it admitted `r` (Note [Authenticated membership]): a MAC
 * under the group secret, which a joiner shows every member in its JOIN_REQ.
 */
export function ticket(secret: Buffer, r: Ticketed): string {
  return mac(secret, 'wiregrad join ticket', fields(r)).toString('base64');
}

export function ticketValid(secret: Buffer, r: Ticketed, shown: unknown): boolean {
  return (
    typeof shown === 'string' && macMatches(Buffer.from(shown, 'base64'), secret, 'wiregrad join ticket', fields(r))
  );
}
