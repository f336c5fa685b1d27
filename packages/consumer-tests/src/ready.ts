// Every consumer spec file's setup (vitest `setupFiles`): waits until globalSetup's consumer
// project is made (Note [Specs on packed tarballs]), or fails the file with why it was not.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';

/** At most this long: building and packing took 54 s in CI, minutes at load. */
const WAIT_MS = 15 * 60_000;

const dir = dirname(inject('consumerDir'));
const until = Date.now() + WAIT_MS;
while (!existsSync(join(dir, 'ready'))) {
  if (existsSync(join(dir, 'failed')))
    throw new Error(`the consumer project could not be made:\n${readFileSync(join(dir, 'failed'), 'utf8')}`);
  if (Date.now() > until) throw new Error(`the consumer project was not made within ${WAIT_MS / 60_000} minutes`);
  await new Promise((resolve) => setTimeout(resolve, 200));
}
