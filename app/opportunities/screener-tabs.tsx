import Link from "next/link";
import type { SearchParams } from "@/lib/screener/screener-query";
import { screenerTabs, type ScreenerTab } from "@/lib/screener/screener-tabs";
import styles from "./screener.module.css";

/** The screener's two lists, perp pairs and spot–perp carry: links keeping the filters both understand. */
export function ScreenerTabs({ current, params }: { current: ScreenerTab; params: SearchParams }) {
  return (
    <nav className={`tabs ${styles.tabs}`} aria-label="Screener lists">
      {screenerTabs(current, params).map((tab) => (
        <Link key={tab.tab} href={tab.href} aria-current={tab.current ? "page" : undefined}>
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
