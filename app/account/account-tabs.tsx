"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const TABS = [
  { href: "/account/api-keys", label: "API Keys" },
  { href: "/account/webhooks", label: "Webhooks" },
  { href: "/account/alerts", label: "Alerts" },
  { href: "/account/usage", label: "Usage" },
  { href: "/account/plan", label: "Plan" },
  { href: "/account/trading", label: "Trading settings" },
  { href: "/account/security", label: "Security" },
];

export function AccountTabs() {
  const pathname = usePathname();
  return (
    <nav className="tabs" aria-label="Account">
      {TABS.map((tab) => (
        <Link key={tab.href} href={tab.href} aria-current={pathname === tab.href ? "page" : undefined}>
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
