import { currentGraphTask } from './engine/threadState.js';
import { AutogradError } from './errors.js';

/** Runs `fn` when the current backward pass finishes (PyTorch's Variable._execution_engine.queue_callback). */
export function queueCallback(fn: () => void): void {
  const task = currentGraphTask();
  if (!task) throw new AutogradError('INVALID_STATE', 'Final callbacks can only be installed during backward pass.');
  task.finalCallbacks.push(fn);
}
