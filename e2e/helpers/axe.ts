import axe from "axe-core";
import type { Page } from "@playwright/test";

/** The rules every page is held to: WCAG 2.0 and 2.1, levels A and AA. */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const BLOCKING = new Set(["serious", "critical"]);

type AxeInPage = { axe?: typeof axe };

/**
 * Loads axe-core into the page's document unless it is there already (a second check of the same
 * document, with a chart opened, reuses it). axe runs straight in the page: the pages have no
 * frames for @axe-core/playwright's per-frame runs to reach, and its runs evaluated axe's 650 kB
 * source twice and opened a blank page each time, several times the cost of the check itself.
 */
async function loadAxe(page: Page): Promise<void> {
  const loaded = await page.evaluate(() => typeof (window as AxeInPage).axe?.run === "function");
  if (!loaded) await page.evaluate(axe.source);
}

/**
 * axe's serious and critical violations of WCAG 2.1 A/AA on the page as it is now, one line each:
 * the rule, its elements, and the first element's summary of what to change (for colour contrast,
 * the two colours and the ratio).
 */
export async function blockingViolations(page: Page): Promise<string[]> {
  await loadAxe(page);
  // Passes and inapplicable rules are only counted, not collected: every violation is still listed in full.
  const violations = await page.evaluate(async (tags) => {
    const results = await (window as AxeInPage).axe!.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return results.violations.map(({ id, impact, nodes }) => ({
      id,
      impact,
      nodes: nodes.map(({ target, failureSummary }) => ({ target: target.map(String), failureSummary })),
    }));
  }, WCAG_TAGS);
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
