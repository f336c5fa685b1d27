/** A socket that can be read message by message (zeromq.js' Dealer, Router, ...). */
export interface ReceivingSocket {
  readonly closed: boolean;
  receive(): Promise<Buffer[]>;
}

/**
 * Note [Receive loops hold no message]
 * `for await (const frames of socket)` keeps the last message's frames in its suspended
 * frame until the next message arrives: a 16 MiB tensor frame stayed alive (and counted by
 * V8 as external memory, which zeromq.js reports for every received frame above 128 bytes)
 * long after its tensor was garbage, until the peer's next message. receiveEach receives and
 * handles each message in a call that has returned before the next receive is awaited, so a
 * waiting loop refers to no message. It ends when the socket is closed (zeromq.js' own
 * iterator ends the same way: EAGAIN from a closed socket) and rejects with any other error.
 * `onMessage` may return a promise: the next receive waits for it (Note [Answer before
 * re-arming]).
 */
export async function receiveEach(
  socket: ReceivingSocket,
  onMessage: (frames: Buffer[]) => Promise<unknown> | void,
): Promise<void> {
  while (await receiveOne(socket, onMessage));
}

/** Receives and handles one message; false once the socket is closed. */
async function receiveOne(
  socket: ReceivingSocket,
  onMessage: (frames: Buffer[]) => Promise<unknown> | void,
): Promise<boolean> {
  if (socket.closed) return false;
  let frames: Buffer[];
  try {
    frames = await socket.receive();
  } catch (e) {
    if (socket.closed && (e as { code?: unknown }).code === 'EAGAIN') return false;
    throw e;
  }
  await onMessage(frames);
  return true;
}
