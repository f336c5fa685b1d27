// Imports @wiregrad/rpc: in a browser bundle this must throw one clear error, not fail to bundle.
import { initRpc } from '@wiregrad/rpc';

console.log(JSON.stringify({ initRpc: typeof initRpc }));
