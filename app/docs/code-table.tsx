import type { ReactNode } from "react";

/**
 * Names a client meets (headers, error codes), each in code beside what it means. `columns` heads
 * the two columns where the names need saying; `nowrap` keeps each name on one line.
 */
export function CodeTable({ rows, columns, nowrap }: { rows: readonly (readonly [string, ReactNode])[]; columns?: readonly [string, string]; nowrap?: boolean }) {
  return (
    <div className="table-scroll">
      <table>
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
    </div>
  );
}
