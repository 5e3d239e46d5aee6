/**
 * Runs `work` while counting the event loop's turns (a setImmediate that re-arms itself): how
 * often sliced work gave the loop back. A task run at once counts about one turn.
 */
export async function countingTurns<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let counting = true;
  const count = () => {
    turns += 1;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  try {
    const result = await work();
    return { result, turns };
  } finally {
    counting = false;
  }
}
