import { describe, expect, it } from "bun:test";
import { homedir } from "node:os";
import { systemHomedir } from "./home-dir.ts";

describe("systemHomedir", () => {
  it("should be what os.homedir() says, node:os taken on first use", () => {
    expect(systemHomedir()).toBe(homedir());
    expect(systemHomedir().length).toBeGreaterThan(0);
  });
});
