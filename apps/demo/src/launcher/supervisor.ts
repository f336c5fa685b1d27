import { type ChildProcess, fork } from 'node:child_process';
import { type DemoConfig, workerArgv } from '../cli.js';
import { SECRET_ENV, groupSecret } from '@wiregrad/rpc/secret';
import { LOST_THE_SERVER, type WorkerReport } from '../protocol.js';

export interface Supervised {
  /** why the run failed (a worker that the run cannot do without, Ctrl-C), or null */
  failure: string | null;
  /** ranks of trainers that died while the others trained on */
  lost: number[];
}

/**
 * Starts worker 0..c.workers-1 as Node processes (`main.ts worker ...`, ZeroMQ over TCP between
 * them, an IPC channel to this process for their reports) and waits for every one to exit. A
 * worker the run needs that fails, or Ctrl-C / SIGTERM here, stops all the others: no orphan
 * process. A ps or mnist trainer that dies is only counted (Note [Trainers compute, the server
 * updates]); one that lost the server (exit code LOST_THE_SERVER) fails the run, naming the server.
 */
export async function supervise(
  c: DemoConfig,
  master: string,
  onMessage: (m: WorkerReport) => void,
  log: (line: string) => void,
): Promise<Supervised> {
  const { entry, execArgv } = launcherProgram();
  const children: ChildProcess[] = [];
  let failure: string | null = null;
  let interrupted = false;
  const lost: number[] = [];
  // the group's secret as a worker started by hand takes it (Note [Group secret]), handed to every child
  const env = { ...process.env, [SECRET_ENV]: groupSecret(undefined).secret.toString() };
  // SIGCONT first: a stopped (stalled) worker would hold SIGTERM until someone continued it
  const stopAll = (except?: ChildProcess) => {
    for (const ch of children)
      if (ch !== except && ch.exitCode === null && ch.signalCode === null) {
        ch.kill('SIGCONT');
        ch.kill('SIGTERM');
      }
  };
  const onExit = (rank: number, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null) => {
    if ((code === 0 && !signal) || failure) return;
    const how = `worker ${rank} (pid ${child.pid}) exited with ${signal ?? `code ${code}`}`;
    if (code === LOST_THE_SERVER) {
      failure = `trainer ${rank} lost the parameter server (it stopped answering: stalled, cut off or dead; see the trainer's message); stopping the others`;
      stopAll(child);
    } else if ((c.example === 'ps' || c.example === 'mnist') && rank > 0 && !interrupted) {
      log(`wiregrad demo: ${how}; the parameter server trains on with the other trainers`);
      lost.push(rank);
    } else {
      failure = `${how}; stopping the others`;
      stopAll(child);
    }
  };
  const exits = Array.from({ length: c.workers }, (_, rank) => {
    const child = fork(entry, workerArgv(c, rank, master), {
      execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env,
    });
    children.push(child);
    child.on('message', onMessage);
    return new Promise<void>((done) =>
      child.on('exit', (code, signal) => {
        onExit(rank, child, code, signal);
        done();
      }),
    );
  });
  log(`workers: pids ${children.map((ch) => ch.pid).join(',')}`);
  const onSignal = () => {
    interrupted = true;
    failure ??= 'interrupted; stopping every worker';
    stopAll();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  await Promise.all(exits);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  return { failure, lost };
}

/**
 * Note [Workers run the launcher's program]
 * A worker is the launcher's own program started with `worker ...`: the file Node started here
 * (`src/main.ts` under tsx, as `pnpm demo` runs it, or a bundle of it) with the same Node flags,
 * less an inspector's (a second process cannot listen on the same port). A bundled launcher
 * thus starts bundled workers, in a fraction of the cpu that loading the sources through tsx
 * costs each of them (the demo's specs run it so: Note [Bundled fixtures]).
 */
function launcherProgram(): { entry: string; execArgv: string[] } {
  return {
    entry: process.argv[1]!,
    execArgv: process.execArgv.filter((f) => !/^--inspect(-brk|-port|-wait)?(=|$)/.test(f)),
  };
}
