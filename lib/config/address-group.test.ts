import { describe, expect, it } from "vitest";
import { addressGroup } from "./address-group";

describe("addressGroup", () => {
  it("keeps an IPv4 address as it is", () => {
    expect(addressGroup("198.51.100.23")).toBe("198.51.100.23");
  });

  it("groups IPv6 addresses by their /64, however they are written", () => {
    const group = "2001:db8:1:2::/64";
    for (const address of ["2001:db8:1:2::1", "2001:0DB8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2:a:b:c:d", "[2001:db8:1:2::9]", "2001:db8:1:2::1.2.3.4"]) {
      expect(addressGroup(address), address).toBe(group);
    }
    expect(addressGroup("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(addressGroup("::1")).toBe("0:0:0:0::/64");
    expect(addressGroup("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("reads an IPv4-mapped IPv6 address as the IPv4 address", () => {
    expect(addressGroup("::ffff:198.51.100.23")).toBe("198.51.100.23");
    expect(addressGroup("::FFFF:c633:6417")).toBe("198.51.100.23");
    expect(addressGroup("0:0:0:0:0:ffff:198.51.100.23")).toBe("198.51.100.23");
  });

  it("leaves what is not an address alone, so it still counts against itself", () => {
    expect(addressGroup("unknown")).toBe("unknown");
    expect(addressGroup("")).toBe("");
  });
});
