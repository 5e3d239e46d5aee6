import type { ReactNode } from "react";

/** The headers an answer or a delivery carries, each beside what it means. */
export function HeaderTable({ headers }: { headers: readonly (readonly [string, ReactNode])[] }) {
  return (
    <div className="table-scroll">
      <table>
        <tbody>
          {headers.map(([name, meaning]) => (
            <tr key={name}>
              <td>
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
