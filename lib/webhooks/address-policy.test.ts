import { describe, expect, it } from "vitest";
import { embeddedIpv4, forbiddenAddressReason } from "./address-policy";

describe("forbiddenAddressReason", () => {
  it("allows public unicast addresses", () => {
    for (const address of ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "2a00:1450:4001:82a::200e", "::ffff:8.8.8.8"]) {
      expect(forbiddenAddressReason(address), address).toBeNull();
    }
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "link-local"],
    ["fd12:3456::1", "unique-local"],
    ["fc00::1", "unique-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "link-local"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["::127.0.0.1", "loopback"],
    ["::ffff:0:127.0.0.1", "loopback"],
    ["::ffff:0:10.0.0.1", "private"],
    ["::ffff:0:a9fe:a9fe", "link-local"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["64:ff9b:1:ffff::808:808", "local-use NAT64"],
    ["localhost", "not an IP address"],
  ])("refuses %s (%s)", (address, reason) => {
    expect(forbiddenAddressReason(address)).toBe(reason);
  });

  it("keeps 172.32.0.0 and 100.128.0.0 (just outside the ranges) public", () => {
    expect(forbiddenAddressReason("172.32.0.1")).toBeNull();
    expect(forbiddenAddressReason("100.128.0.1")).toBeNull();
  });
});

describe("embeddedIpv4", () => {
  it("reads the IPv4 address inside mapped, compatible and NAT64 forms only", () => {
    expect(embeddedIpv4("::ffff:192.168.0.1")).toBe("192.168.0.1");
    expect(embeddedIpv4("::ffff:c0a8:1")).toBe("192.168.0.1");
    expect(embeddedIpv4("64:ff9b::808:808")).toBe("8.8.8.8");
    expect(embeddedIpv4("::ffff:0:192.168.0.1")).toBe("192.168.0.1");
    expect(embeddedIpv4("::1")).toBeNull();
    expect(embeddedIpv4("2001:db8::1")).toBeNull();
  });
});
