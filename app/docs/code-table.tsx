import type { ReactNode } from "react";
import { ScrollRegion } from "@/app/components/scroll-region";

/**
 * Names a client meets (headers, error codes), each in code beside what it means. `columns` heads
 * the two columns where the names need saying; `nowrap` keeps each name on one line. `label` names
 * the table (and the box it scrolls in on a narrow screen).
 */
export function CodeTable({
  rows,
  columns,
  nowrap,
  label,
}: {
  rows: readonly (readonly [string, ReactNode])[];
  columns?: readonly [string, string];
  nowrap?: boolean;
  label: string;
}) {
  return (
    <ScrollRegion label={label}>
      <table aria-label={label}>
        {columns && (
          <thead>
            <tr>
              <th>{columns[0]}</th>
              <th>{columns[1]}</th>
            </tr>
          </thead>
        )}
        <tbody>
          {rows.map(([name, meaning]) => (
            <tr key={name}>
              <td className={nowrap ? "nowrap" : undefined}>
                <code>{name}</code>
              </td>
              <td>{meaning}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
