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
