/** What one export reads: the venues and assets (null: all of them) and the inclusive time range. */
export interface ExportSelection {
  exchanges: readonly string[] | null;
  symbols: readonly string[] | null;
  from: Date;
  to: Date;
}
