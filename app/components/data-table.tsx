import type { HTMLAttributes, ReactNode } from "react";
import { ScrollRegion } from "./scroll-region";

/** A column heading: its text, or the text with a class (`num` right-aligns a figure column). */
export type Column = ReactNode | { label: ReactNode; className?: string };

/** The heading of a row's buttons, named for screen readers only. */
export const ACTIONS_COLUMN = <span className="visually-hidden">Actions</span>;

const isLabelled = (column: Column): column is { label: ReactNode; className?: string } =>
  typeof column === "object" && column !== null && "label" in column;

interface BaseProps extends Pick<HTMLAttributes<HTMLTableElement>, "className"> {
  columns: Column[];
  caption?: ReactNode;
  captionClassName?: string;
  /** The rows (<tr>), one per item. */
  children: ReactNode;
  /** A <tfoot>'s rows (totals). */
  footer?: ReactNode;
}

/**
 * The table's name, which also names the box it scrolls in on a narrow screen (a focusable box
 * must say what it holds): its own label, the id of what labels it (a heading), or a caption in words.
 */
type Name = { "aria-label": string; "aria-labelledby"?: never } | { "aria-labelledby": string; "aria-label"?: never } | { caption: string; "aria-label"?: never; "aria-labelledby"?: never };

type Props = BaseProps & Name;

/**
 * The account and operator pages' table: scrolls sideways on a narrow screen (a named group,
 * focusable while it scrolls), a header row of column headings (scope="col"), and the rows the page renders.
 */
export function DataTable({ columns, caption, captionClassName, children, footer, ...table }: Props) {
  const label = table["aria-label"] ?? (typeof caption === "string" ? caption : undefined);
  return (
    <ScrollRegion label={label} labelledBy={table["aria-labelledby"]}>
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
    </ScrollRegion>
  );
}
