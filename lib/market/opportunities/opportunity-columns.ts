// The published set as held in memory, in columns: what code outside this folder ranks into, diffs
// and reads items from. How the columns are laid out and stored stays in encoding/.
export {
  cellReader,
  columnsOf,
  ColumnSlabs,
  idReader,
  itemReader,
  itemsOf,
  opportunityId,
  type ColumnArrays,
  type OpportunityColumns,
} from "./encoding/columns";
export { newArray, OVERWRITTEN, ScratchArrays, type TakeArray } from "./encoding/scratch-arrays";
