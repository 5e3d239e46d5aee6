// What a fault scenario found: each check prints as it is made, and the run fails if any failed.
export interface Check {
  scenario: string;
  what: string;
  ok: boolean;
  detail: string;
}

export class Report {
  readonly checks: Check[] = [];

  constructor(private readonly scenario: string) {}

  check(what: string, ok: boolean, detail = ""): boolean {
    this.checks.push({ scenario: this.scenario, what, ok, detail });
    console.log(`  ${ok ? "PASS" : "FAIL"}  ${what}${detail ? ` (${detail})` : ""}`);
    return ok;
  }

  note(line: string): void {
    console.log(`        ${line}`);
  }

  get failed(): number {
    return this.checks.filter((c) => !c.ok).length;
  }
}
