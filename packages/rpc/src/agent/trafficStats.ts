const frameBytes = (frames: readonly Uint8Array[]): number => {
  let bytes = 0;
  for (const f of frames) bytes += f.byteLength;
  return bytes;
};

/** Bytes and messages an agent sent and received, requests and responses alike (getRpcStats()). */
export class TrafficStats {
  bytesSent = 0;
  bytesReceived = 0;
  messagesSent = 0;
  messagesReceived = 0;
  /** requests sent again for want of an answer, and copies of requests received again (Note [Exactly-once calls]) */
  resent = 0;
  duplicates = 0;
  /** messages and connections refused for want of authentication (Note [Authenticated membership]) */
  refused = 0;

  sent(frames: readonly Uint8Array[]): void {
    this.bytesSent += frameBytes(frames);
    this.messagesSent++;
  }

  received(frames: readonly Uint8Array[]): void {
    this.bytesReceived += frameBytes(frames);
    this.messagesReceived++;
  }
}
