import { describe, expect, it } from 'vitest';
import { rendezvousOf } from './env.js';

const torchrun = { RANK: '1', WORLD_SIZE: '4', LOCAL_RANK: '1', MASTER_ADDR: '10.0.0.5', MASTER_PORT: '29500' };

describe('rendezvousOf (initProcessGroup env:// and tcp://)', () => {
  it("reads torchrun's variables", () => {
    expect(rendezvousOf({}, torchrun)).toEqual({
      rank: 1,
      worldSize: 4,
      localRank: 1,
      storeAddress: 'tcp://10.0.0.5:29500',
    });
  });

  it('options win over the environment; tcp:// names the store', () => {
    expect(rendezvousOf({ initMethod: 'tcp://h:123', rank: 0, worldSize: 2 }, torchrun)).toEqual({
      rank: 0,
      worldSize: 2,
      localRank: 1,
      storeAddress: 'tcp://h:123',
    });
  });

  it("without RANK reads Slurm's: master = first host of the step's node list, port from the job id", () => {
    const slurm = {
      SLURM_PROCID: '5',
      SLURM_NTASKS: '8',
      SLURM_LOCALID: '1',
      SLURM_JOB_ID: '1234567',
      SLURM_STEP_NODELIST: 'gpu[07-10],cpu1',
      SLURM_NODELIST: 'other',
    };
    expect(rendezvousOf({}, slurm)).toEqual({ rank: 5, worldSize: 8, localRank: 1, storeAddress: 'tcp://gpu07:19567' });
    // MASTER_ADDR / MASTER_PORT, when set, win; SLURM_NODELIST when there is no step list
    expect(
      rendezvousOf({}, { ...slurm, SLURM_STEP_NODELIST: undefined, MASTER_PORT: '4000', SLURM_NODELIST: 'n[3-4]' }),
    ).toMatchObject({ storeAddress: 'tcp://n3:4000' });
    expect(rendezvousOf({}, { ...slurm, MASTER_ADDR: 'head' })).toMatchObject({ storeAddress: 'tcp://head:19567' });
  });

  it('a missing variable is a coded error that names it and what sets it', () => {
    const { MASTER_PORT: _, ...noPort } = torchrun;
    expect(() => rendezvousOf({}, noPort)).toThrow(
      expect.objectContaining({
        code: 'MISSING_ENV',
        message: expect.stringMatching(
          /^environment variable MASTER_PORT expected, but not set: set by wiregrad-run or torchrun/,
        ),
      }),
    );
    expect(() => rendezvousOf({}, {})).toThrow(
      expect.objectContaining({ code: 'MISSING_ENV', message: expect.stringContaining('RANK') }),
    );
    expect(() => rendezvousOf({}, { SLURM_PROCID: '0' })).toThrow(
      expect.objectContaining({
        code: 'MISSING_ENV',
        message: expect.stringContaining('SLURM_NTASKS expected, but not set: set by srun'),
      }),
    );
    expect(() => rendezvousOf({}, { SLURM_PROCID: '0', SLURM_NTASKS: '2', MASTER_PORT: '1' })).toThrow(
      expect.objectContaining({ code: 'MISSING_ENV', message: expect.stringContaining('MASTER_ADDR') }),
    );
  });

  it('refuses ranks outside the world and unknown init methods', () => {
    expect(() => rendezvousOf({}, { ...torchrun, RANK: '4' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => rendezvousOf({}, { ...torchrun, RANK: 'x' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => rendezvousOf({ initMethod: 'file:///tmp/x' }, torchrun)).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining("'env://' or 'tcp://host:port'"),
      }),
    );
  });
});
