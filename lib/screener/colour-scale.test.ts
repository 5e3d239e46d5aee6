import { describe, expect, it } from "vitest";
import { APR_SCALE_LEGEND, aprShade, PERSISTENCE_SCALE_LEGEND, persistenceShade } from "./colour-scale";

describe("aprShade", () => {
  it("puts each APR in the bucket whose lower bound it reaches", () => {
    expect(aprShade(250)).toBe("pos4");
    expect(aprShade(100)).toBe("pos4");
    expect(aprShade(99.99)).toBe("pos3");
    expect(aprShade(30)).toBe("pos3");
    expect(aprShade(12)).toBe("pos2");
    expect(aprShade(3)).toBe("pos1");
    expect(aprShade(2.99)).toBe("flat");
    expect(aprShade(0)).toBe("flat");
    expect(aprShade(-0.01)).toBe("neg1");
    expect(aprShade(-10)).toBe("neg1");
    expect(aprShade(-10.01)).toBe("neg2");
  });

  it("gives no shade to an unknown figure", () => {
    expect(aprShade(null)).toBeNull();
    expect(aprShade(Number.NaN)).toBeNull();
  });

  it("has a legend entry for every shade an APR can get, in order", () => {
    const shades = [-50, -5, 1, 5, 20, 50, 500].map(aprShade);
    expect(APR_SCALE_LEGEND.map((entry) => entry.shade)).toEqual(shades);
  });
});

describe("persistenceShade", () => {
  it("shades by the share of settlements that paid", () => {
    expect(persistenceShade(1)).toBe("pos4");
    expect(persistenceShade(0.95)).toBe("pos4");
    expect(persistenceShade(0.9)).toBe("pos3");
    expect(persistenceShade(0.7)).toBe("pos2");
    expect(persistenceShade(0.5)).toBe("pos1");
    expect(persistenceShade(0.49)).toBe("neg1");
    expect(persistenceShade(0.1)).toBe("neg2");
    expect(persistenceShade(null)).toBeNull();
  });
});

describe("PERSISTENCE_SCALE_LEGEND", () => {
  it("names the bands persistenceShade uses, lowest first, each label's lower bound in its shade", () => {
    expect(PERSISTENCE_SCALE_LEGEND.map((entry) => entry.label)).toEqual(["paid below 30%", "30–50%", "50–70%", "70–85%", "85–95%", "95% and more"]);
    expect(PERSISTENCE_SCALE_LEGEND.map((entry) => entry.shade)).toEqual([0.1, 0.3, 0.5, 0.7, 0.85, 0.95].map(persistenceShade));
  });
});
