// Rewrites rpc's golden wire files (Note [Golden wire files]) on purpose:
//   node --conditions=source --import tsx packages/rpc/src/messages/__tests__/goldenWire.gen.ts [--update]
// Without --update it only lists the files that differ (exit status 1 if any).
import { syncGoldenFiles } from '@wiregrad/test-helpers';
import { GOLDEN_DIR, goldenFrames, goldenMessages } from './goldenWire.js';

const update = process.argv.includes('--update');
const differ = syncGoldenFiles(GOLDEN_DIR, goldenMessages().map(goldenFrames), update);
console.log(
  `${differ.length} golden file(s) ${update ? 'rewritten' : 'differ'}${differ.length ? `: ${differ.join(', ')}` : ''}`,
);
process.exitCode = !update && differ.length > 0 ? 1 : 0;
