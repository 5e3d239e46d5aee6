import type { ReactNode } from "react";
import { TIERS, type Tier } from "@/lib/keys/permissions";
import { planComparison, type PlanComparisonRow } from "@/lib/plans";
import { appServices } from "@/lib/app-services";
import styles from "./plan-comparison-table.module.css";

/**
 * The plans side by side, every cell from the plans table as this server enforces it (its
 * RATE_LIMIT_SCALE and STREAM_MAX_* applied). Fits a 390 px screen: the cells wrap, the table never
 * widens the page. `extraRows` are the caller's own rows (the plan page's permissions).
 */
export function PlanComparisonTable({ caption, current, extraRows = [] }: { caption: ReactNode; current?: Tier; extraRows?: PlanComparisonRow[] }) {
  const plans = TIERS.map(appServices().plans);
  return (
    <table className={styles.comparison}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <td className={styles.corner} />
          {plans.map((plan) => (
            <th scope="col" key={plan.id}>
              {plan.name}
              {plan.id === current && <span className={styles.current}> (current)</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {[...planComparison(plans), ...extraRows].map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            {row.values.map((value, i) => (
              <td key={plans[i]!.id}>{value}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
