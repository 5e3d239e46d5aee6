"use client";

import { useEffect, useRef, type ReactNode } from "react";

/**
 * The header's Account dropdown. A bare <details> stays open after one of its links is followed (client-side
 * navigation keeps the header mounted), and ignores Escape and clicks elsewhere; this closes it on all three.
 */
export function AccountMenu({ children }: { children: ReactNode }) {
  const menu = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    const details = menu.current;
    if (!details) return;
    const close = () => {
      details.open = false;
    };
    const onItemClick = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest(".menu-items a, .menu-items button")) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open) return;
      close();
      details.querySelector("summary")?.focus();
    };
    const onOutsidePointer = (event: PointerEvent) => {
      if (details.open && event.target instanceof Node && !details.contains(event.target)) close();
    };
    details.addEventListener("click", onItemClick);
    details.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onOutsidePointer);
    return () => {
      details.removeEventListener("click", onItemClick);
      details.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onOutsidePointer);
    };
  }, []);

  return (
    <details ref={menu} className="menu">
      <summary>Account</summary>
      <div className="menu-items">{children}</div>
    </details>
  );
}
