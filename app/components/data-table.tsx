import type { HTMLAttributes, ReactNode } from "react";

/** A column heading: its text, or the text with a class (`num` right-aligns a figure column). */
export type Column = ReactNode | { label: ReactNode; className?: string };

/** The heading of a row's buttons, named for screen readers only. */
export const ACTIONS_COLUMN = <span className="visually-hidden">Actions</span>;

const isLabelled = (column: Column): column is { label: ReactNode; className?: string } =>
  typeof column === "object" && column !== null && "label" in column;

interface Props extends Pick<HTMLAttributes<HTMLTableElement>, "aria-label" | "aria-labelledby" | "className"> {
  columns: Column[];
  caption?: ReactNode;
  captionClassName?: string;
  /** The rows (<tr>), one per item. */
  children: ReactNode;
  /** A <tfoot>'s rows (totals). */
  footer?: ReactNode;
}

/**
 * The account and operator pages' table: scrolls sideways on a narrow screen, a header row of
 * column headings (scope="col"), and the rows the page renders.
 */
export function DataTable({ columns, caption, captionClassName, children, footer, ...table }: Props) {
  return (
    <div className="table-scroll">
      <table {...table}>
        {caption !== undefined && <caption className={captionClassName}>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column, index) =>
              isLabelled(column) ? (
                <th scope="col" key={index} className={column.className}>
                  {column.label}
                </th>
              ) : (
                <th scope="col" key={index}>
                  {column}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
        {footer !== undefined && <tfoot>{footer}</tfoot>}
      </table>
    </div>
  );
}
