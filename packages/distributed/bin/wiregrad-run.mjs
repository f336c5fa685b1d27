#!/usr/bin/env node
// wiregrad-run (torchrun for wiregrad): the built launcher, or in this repository its source through tsx.
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const built = new URL('../dist/launcher/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/launcher/cli.ts', import.meta.url).href);
}
