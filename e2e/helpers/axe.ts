import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** The rules every page is held to: WCAG 2.0 and 2.1, levels A and AA. */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const BLOCKING = new Set(["serious", "critical"]);

/**
 * axe's serious and critical violations of WCAG 2.1 A/AA on the page as it is now, one line each:
 * the rule, its elements, and the first element's summary of what to change (for colour contrast,
 * the two colours and the ratio).
 */
export async function blockingViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ""))
    .map((violation) => {
      const targets = violation.nodes.map((node) => node.target.join(" ")).slice(0, 8);
      const more = violation.nodes.length > targets.length ? ` (+${violation.nodes.length - targets.length} more)` : "";
      const why = violation.nodes[0]?.failureSummary?.split("\n").slice(1, 2).join("").trim();
      return `${violation.id} [${violation.impact}] ×${violation.nodes.length}: ${targets.join(" | ")}${more}${why ? ` (${why})` : ""}`;
    });
}

/**
 * Null when the page fits its window; otherwise how far it overflows sideways and what reaches
 * past the right edge with no box clipping or scrolling it, to say what to fix. A table scrolling
 * inside its own box does not count.
 */
export async function pageOverflow(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const { scrollWidth, clientWidth } = document.documentElement;
    if (scrollWidth <= clientWidth) return null;
    const clipped = (element: Element) => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        if (getComputedStyle(up).overflowX !== "visible") return true;
      }
      return false;
    };
    const culprits = [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > clientWidth + 1 && !clipped(element))
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).split(" ").join(".")}` : ""} "${(element.textContent ?? "").slice(0, 30)}"`);
    return `page overflows: scrollWidth ${scrollWidth} > ${clientWidth} (${culprits.join(", ")})`;
  });
}
