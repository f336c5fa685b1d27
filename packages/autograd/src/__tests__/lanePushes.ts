import { device, getEngine } from '../index.js';

/** Runs `fn` and returns the names of the nodes it queued on gpu:0's lane (Note [Device lanes]). */
export function gpuLanePushes(fn: () => void): string[] {
  const lane = getEngine().lane(device('gpu:0'));
  const pushed: string[] = [];
  const push = lane.queue.push.bind(lane.queue);
  lane.queue.push = (t) => {
    pushed.push(t.fn?.name() ?? 'wake-up');
    push(t);
  };
  try {
    fn();
  } finally {
    lane.queue.push = push;
  }
  return pushed;
}
