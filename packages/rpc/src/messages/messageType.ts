/**
 * PyTorch's MessageType (torch/csrc/distributed/rpc/message.h), same numeric values:
 * the low byte names the message, REQUEST_TYPE / RESPONSE_TYPE flag which side sends it.
 */
export const MessageTypeFlags = { REQUEST_TYPE: 0x100, RESPONSE_TYPE: 0x200 } as const;

export const MessageType = {
  SCRIPT_CALL: 0x100,
  SCRIPT_RET: 0x201,
  PYTHON_CALL: 0x102,
  PYTHON_RET: 0x203,
  SCRIPT_REMOTE_CALL: 0x104,
  PYTHON_REMOTE_CALL: 0x105,
  REMOTE_RET: 0x206,
  SCRIPT_RREF_FETCH_CALL: 0x107,
  PYTHON_RREF_FETCH_CALL: 0x108,
  SCRIPT_RREF_FETCH_RET: 0x209,
  PYTHON_RREF_FETCH_RET: 0x20a,
  RREF_USER_DELETE: 0x10b,
  RREF_FORK_REQUEST: 0x10c,
  RREF_CHILD_ACCEPT: 0x10d,
  RREF_ACK: 0x20e,
  FORWARD_AUTOGRAD_REQ: 0x10f,
  FORWARD_AUTOGRAD_RESP: 0x210,
  BACKWARD_AUTOGRAD_REQ: 0x111,
  BACKWARD_AUTOGRAD_RESP: 0x212,
  CLEANUP_AUTOGRAD_CONTEXT_REQ: 0x113,
  CLEANUP_AUTOGRAD_CONTEXT_RESP: 0x214,
  RUN_WITH_PROFILING_REQ: 0x115,
  RUN_WITH_PROFILING_RESP: 0x216,
  RREF_BACKWARD_REQ: 0x117,
  RREF_BACKWARD_RESP: 0x218,
  EXCEPTION: 0x237,
  UNKNOWN: 0x3c,
  // wiregrad's own (PyTorch's world is fixed and has no liveness messages): Note [Peer liveness], Note [Membership]
  HEARTBEAT_REQ: 0x140,
  HEARTBEAT_RESP: 0x241,
  JOIN_REQ: 0x142,
  JOIN_RESP: 0x243,
  LEAVE_REQ: 0x144,
  LEAVE_RESP: 0x245,
  // a caller's acknowledgement watermark when it has no request to carry it (Note [Exactly-once calls]); never answered
  ACK: 0x146,
  // a one-way message and the batched receipts of several (Note [One-way messages])
  NOTIFY: 0x148,
  NOTIFY_RECEIVED: 0x249,
} as const;

export type MessageType = (typeof MessageType)[keyof typeof MessageType];

const KNOWN: ReadonlySet<number> = new Set(Object.values(MessageType));

export function isMessageType(n: unknown): n is MessageType {
  return typeof n === 'number' && KNOWN.has(n);
}

export function isRequest(t: MessageType): boolean {
  return (t & MessageTypeFlags.REQUEST_TYPE) !== 0;
}

export function isResponse(t: MessageType): boolean {
  return (t & MessageTypeFlags.RESPONSE_TYPE) !== 0;
}

export function messageTypeName(t: number): string {
  return Object.entries(MessageType).find(([, v]) => v === t)?.[0] ?? `0x${t.toString(16)}`;
}

/** What a message is on the wire: a request for a handler, an answer for a waiting caller, or neither. */
export type MessageKind = 'request' | 'response' | 'exception' | 'unknown';

/**
 * Note [Message kinds]
 * The receive loops switch on this: a ROUTER serves only requests, a DEALER takes only
 * responses and EXCEPTION. The switch is exhaustive (a MessageType added without a kind does
 * not compile), and agrees with the REQUEST_TYPE / RESPONSE_TYPE flags (see its spec).
 */
export function messageKind(t: MessageType): MessageKind {
  switch (t) {
    case MessageType.SCRIPT_CALL:
    case MessageType.PYTHON_CALL:
    case MessageType.SCRIPT_REMOTE_CALL:
    case MessageType.PYTHON_REMOTE_CALL:
    case MessageType.SCRIPT_RREF_FETCH_CALL:
    case MessageType.PYTHON_RREF_FETCH_CALL:
    case MessageType.RREF_USER_DELETE:
    case MessageType.RREF_FORK_REQUEST:
    case MessageType.RREF_CHILD_ACCEPT:
    case MessageType.FORWARD_AUTOGRAD_REQ:
    case MessageType.BACKWARD_AUTOGRAD_REQ:
    case MessageType.CLEANUP_AUTOGRAD_CONTEXT_REQ:
    case MessageType.RUN_WITH_PROFILING_REQ:
    case MessageType.RREF_BACKWARD_REQ:
    case MessageType.HEARTBEAT_REQ:
    case MessageType.JOIN_REQ:
    case MessageType.LEAVE_REQ:
    case MessageType.ACK:
    case MessageType.NOTIFY:
      return 'request';
    case MessageType.SCRIPT_RET:
    case MessageType.PYTHON_RET:
    case MessageType.REMOTE_RET:
    case MessageType.SCRIPT_RREF_FETCH_RET:
    case MessageType.PYTHON_RREF_FETCH_RET:
    case MessageType.RREF_ACK:
    case MessageType.FORWARD_AUTOGRAD_RESP:
    case MessageType.BACKWARD_AUTOGRAD_RESP:
    case MessageType.CLEANUP_AUTOGRAD_CONTEXT_RESP:
    case MessageType.RUN_WITH_PROFILING_RESP:
    case MessageType.RREF_BACKWARD_RESP:
    case MessageType.HEARTBEAT_RESP:
    case MessageType.JOIN_RESP:
    case MessageType.LEAVE_RESP:
    case MessageType.NOTIFY_RECEIVED:
      return 'response';
    case MessageType.EXCEPTION:
      return 'exception';
    case MessageType.UNKNOWN:
      return 'unknown';
    default: {
      const unplaced: never = t;
      throw new Error(`message type ${String(unplaced)} has no kind`);
    }
  }
}
