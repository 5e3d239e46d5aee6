"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";

interface Props {
  /** The box's accessible name, or the id of the element naming it (a heading, the table's caption). */
  label?: string;
  labelledBy?: string;
  className?: string;
  children: ReactNode;
}

/**
 * A box that scrolls sideways when its content (a wide table) is wider than the screen, instead of
 * widening the page. A keyboard user scrolls it by focusing it, so while it scrolls it is in the
 * tab order (WCAG 2.1.1; axe's scrollable-region-focusable), named so a screen reader says what
 * got focus. It is a named group, not a region: a landmark per table would crowd the page's
 * landmarks (and share its section's name). When the content fits it leaves the tab order: a stop
 * that does nothing only slows keyboard users down. Server-rendered focusable, so it is reachable
 * before (or without) the script.
 */
export function ScrollRegion({ label, labelledBy, className = "table-scroll", children }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(true);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    // The content can widen without the box changing size (rows added, a column's text longer).
    for (const child of element.children) observer.observe(child);
    measure();
    return () => observer.disconnect();
  }, []);

  return (
    <div
      ref={box}
      className={className}
      role="group"
      aria-label={labelledBy ? undefined : label}
      aria-labelledby={labelledBy}
      tabIndex={scrolls ? 0 : undefined}
    >
      {children}
    </div>
  );
}
