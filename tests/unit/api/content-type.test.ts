import { describe, expect, it } from "vitest";
import { bodyFormat, wantsYaml } from "@/lib/control/api/content-type";

describe("bodyFormat", () => {
  it.each([
    ["application/json", "json"],
    ["application/json; charset=utf-8", "json"],
    ["Application/JSON", "json"],
    ["application/merge-patch+json", "json"],
    ["application/yaml", "yaml"],
    ["application/x-yaml", "yaml"],
    ["text/yaml; charset=utf-8", "yaml"],
    ["text/x-yaml", "yaml"],
    ["text/plain", null],
    ["application/x-www-form-urlencoded", null],
    ["multipart/form-data; boundary=x", null],
    ["", null],
  ])("%s -> %s", (header, format) => {
    expect(bodyFormat(header)).toBe(format);
  });
});

describe("wantsYaml", () => {
  it.each([
    [null, false],
    ["application/json", false],
    ["*/*", false],
    ["application/yaml", true],
    ["text/plain, application/yaml;q=0.5", true],
    ["application/x-yaml", true],
    ["application/yaml;q=0", false],
    ["application/yaml; q=0.0, application/json", false],
  ])("Accept %s -> %s", (accept, yaml) => {
    expect(wantsYaml(accept)).toBe(yaml);
  });
});
