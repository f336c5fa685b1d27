// Imports @wiregrad/dist-autograd: in a browser bundle this must throw one clear error, not fail to bundle.
import { context } from '@wiregrad/dist-autograd';

console.log(JSON.stringify({ context: typeof context }));
