import { DistributedError } from './errors.js';

/** Splits at the commas outside brackets: `a[1,2],b` -> `a[1,2]`, `b`. */
function topLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
    if (depth < 0 || depth > 1) throw badList(list);
  }
  if (depth !== 0) throw badList(list);
  parts.push(list.slice(start));
  return parts.filter((p) => p.length > 0);
}

const badList = (list: string) =>
  new DistributedError('INVALID_ARGUMENT', `'${list}' is not a Slurm host list (e.g. 'node[01-03,07],gpu5')`);

/** The numbers of one bracket term, `01-03` -> 01, 02, 03 (zero padding kept: Slurm pads to the first bound's width). */
function range(term: string, list: string): string[] {
  const m = /^(\d+)(?:-(\d+))?$/.exec(term);
  if (!m) throw badList(list);
  const width = m[1]!.length;
  const lo = Number(m[1]);
  const hi = m[2] === undefined ? lo : Number(m[2]);
  if (hi < lo) throw badList(list);
  const out: string[] = [];
  for (let n = lo; n <= hi; n++) out.push(String(n).padStart(width, '0'));
  return out;
}

/**
 * Expands Slurm's compressed host list (`scontrol show hostnames`): `node[01-03,07],gpu5` ->
 * node01 node02 node03 node07 gpu5, in order. One bracket group per host name, as Slurm
 * writes them (`rack[1-2]-node[1-2]` is not what SLURM_NODELIST holds).
 */
export function expandHostList(list: string): string[] {
  const hosts: string[] = [];
  for (const part of topLevel(list.trim())) {
    const m = /^([^[\]]*)\[([^[\]]+)\]([^[\]]*)$/.exec(part);
    if (!m) {
      if (/[[\]]/.test(part)) throw badList(list);
      hosts.push(part);
      continue;
    }
    for (const term of m[2]!.split(',')) for (const n of range(term, list)) hosts.push(`${m[1]}${n}${m[3]}`);
  }
  return hosts;
}
