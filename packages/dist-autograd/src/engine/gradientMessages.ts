import { MessageType } from '@wiregrad/rpc/internal';
import type { BackwardPass } from '../context/context.js';
import type { PropagateGradientsReq } from '../messages/propagateGradientsReq.js';
import { takeReleases } from '../cleanup.js';
import { sendToWorker } from '../sendToWorker.js';

/**
 * Note [Gradients ride on the answer]
 * A worker that runs its share of a pass because worker S sent it gradients usually has
 * gradients for S in turn (the tensors S sent it in the forward call). Sent as requests of
 * their own they would cost S another round trip; instead, the RecvRpcBackward nodes that
 * run while the worker serves S's BACKWARD_AUTOGRAD_REQ put what they have for S into the
 * answer (`inline`), and S runs them as soon as the answer arrives, as if they had come as
 * requests. Gradients for any other worker still go as requests. The answer comes only once
 * the worker's share (and the nested RPCs it made) is done, so S still knows, when its last
 * answer is in, that the whole pass is over. A round thus costs the forward call and one
 * gradient request and answer.
 */
let sink: { to: number; out: PropagateGradientsReq[] } | null = null;
let receive: ((req: PropagateGradientsReq) => Promise<unknown>) | null = null;

/** The engine's handler for gradients that arrive (as a request or inside an answer). */
export function setGradientReceiver(fn: (req: PropagateGradientsReq) => Promise<unknown>): void {
  receive = fn;
}

/** Runs `fn` (a synchronous engine run) with gradients for worker `to` collected into `out` instead of sent. */
export function collectingFor<T>(to: number | null, out: PropagateGradientsReq[], fn: () => T): T {
  const outer = sink;
  sink = to === null ? null : { to, out };
  try {
    return fn();
  } finally {
    sink = outer;
  }
}

/** Sends gradients to the worker a RecvRpcBackward came from, or puts them into the answer being made for it. */
export function sendGradients(pass: BackwardPass, to: number, req: PropagateGradientsReq): void {
  if (sink?.to === to) {
    sink.out.push(req);
    return;
  }
  const releases = takeReleases(to); // See Note [Releases ride on the next message]
  pass.outstanding.push(
    sendToWorker(to, MessageType.BACKWARD_AUTOGRAD_REQ, releases ? { ...req, releases } : req).then(async (answer) => {
      const inline = answer.type === MessageType.BACKWARD_AUTOGRAD_RESP ? (answer.payload.inline ?? []) : [];
      for (const r of inline) await receive!(r);
    }),
  );
}
