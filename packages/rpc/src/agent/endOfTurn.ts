let turnEnd: Promise<void> | null = null;

/** Settles after the current turn of the event loop; every request of one turn shares one setImmediate. */
export function endOfTurn(): Promise<void> {
  return (turnEnd ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      turnEnd = null;
      resolve();
    }),
  ));
}
