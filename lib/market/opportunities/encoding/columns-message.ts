import { emptyColumnArrays, NumberColumn, type ColumnArrays, type OpportunityColumns } from "./columns";

/** A number column as a message carries it: its arrays, without the class. */
interface NumberArrays {
  values: Float64Array;
  states: Uint8Array;
}

/** OpportunityColumns as they cross between threads (`postMessage`): plain arrays and lists. */
export type ColumnsMessage = Omit<OpportunityColumns, keyof ColumnArrays> & { arrays: Record<string, Uint32Array | NumberArrays> };

/**
 * `columns` as a message, and the memory under their arrays to transfer with it: a round's set is
 * ~60 MB of arrays, which a transfer hands over without a copy (the sender may not read them
 * afterwards). A set's arrays are views of one buffer (emptyColumnArrays), sent once; they stay views of it on arrival.
 */
export function columnsMessage(columns: OpportunityColumns): { message: ColumnsMessage; transfer: ArrayBuffer[] } {
  const { count, keys, ids, legs, texts, ...named } = columns;
  const arrays: ColumnsMessage["arrays"] = {};
  const buffers = new Set<ArrayBuffer>();
  for (const [name, column] of Object.entries(named) as [string, Uint32Array | NumberColumn][]) {
    if (column instanceof NumberColumn) {
      arrays[name] = { values: column.values, states: column.states };
      buffers.add(column.values.buffer as ArrayBuffer).add(column.states.buffer as ArrayBuffer);
    } else {
      arrays[name] = column;
      buffers.add(column.buffer as ArrayBuffer);
    }
  }
  return { message: { count, keys, ids, legs, texts, arrays }, transfer: [...buffers] };
}

/**
 * The columns a message carried. Legs are frozen again, as ranking makes them: a clone arrives
 * unfrozen. The arrays go into an object of emptyColumnArrays' shape, property by property: an
 * object given its 20 columns by computed name is kept as a dictionary, three times slower to read.
 */
export function columnsOfMessage(message: ColumnsMessage): OpportunityColumns {
  const { arrays, legs, ...rest } = message;
  const named = emptyColumnArrays(0) as unknown as Record<string, Uint32Array | NumberColumn>;
  for (const name of Object.keys(named)) {
    const array = arrays[name];
    if (!array) throw new Error(`the ranked columns arrived without ${name}`);
    named[name] = array instanceof Uint32Array ? array : new NumberColumn(array.values, array.states);
  }
  for (const leg of legs) Object.freeze(leg);
  return { ...(named as unknown as ColumnArrays), ...rest, legs };
}
