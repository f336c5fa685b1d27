import { describe, expect, it } from 'vitest';
import { platform } from './browser.js';

describe('the browser host (Note [nn platform modules])', () => {
  it('has no files: save/load reject with a coded error pointing to serialize/deserialize', async () => {
    expect(platform.name).toBe('browser');
    await expect(platform.readFile('x.safetensors')).rejects.toMatchObject({
      code: 'UNSUPPORTED',
      message: expect.stringContaining('serialize() / deserialize()'),
    });
    await expect(platform.writeFile('x.safetensors', new Uint8Array(1))).rejects.toMatchObject({ code: 'UNSUPPORTED' });
  });
});
