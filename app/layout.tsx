import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "./components/site-header";
import "./globals.css";

export const metadata: Metadata = {
  title: "Funding Opportunity Data Service",
  description: "Ranked perpetual-futures funding-rate arbitrage opportunities across exchanges, over an HTTP API.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <SiteHeader />
        <main>{children}</main>
      </body>
    </html>
  );
}
