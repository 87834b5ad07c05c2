import { describe, expect, it } from "vitest";
import { errorCategory, maskedUrl } from "@/lib/control/alerts/guard/redaction";

// What roles below admin see of webhook URLs and delivery errors: never a path, never an
// address a host resolved to.

describe("maskedUrl", () => {
  it.each([
    ["https://hooks.slack.com/services/T0/B0/secret", "https://hooks.slack.com/…"],
    ["http://hooks.example.com:8080/x?token=y", "http://hooks.example.com:8080/…"],
    ["https://[2606:4700::1111]/hook", "https://[2606:4700::1111]/…"],
    ["not a url", "…"],
  ])("%s -> %s", (raw, masked) => expect(maskedUrl(raw)).toBe(masked));
});

describe("errorCategory", () => {
  it.each([
    [
      "vm resolves to 127.0.0.1, a private, loopback or link-local address (an operator can allow it)",
      "refused: private address",
    ],
    ["cannot resolve vm.internal", "refused: host not found"],
    ["url must start with http:// or https://", "refused: invalid url"],
    ["connect ECONNREFUSED 10.0.0.7:443", "failed: connection error"],
    ["getaddrinfo ENOTFOUND x", "failed: connection error"],
    ["Error: something 192.168.1.1", "failed: connection error"],
  ])("%s -> %s", (error, category) => expect(errorCategory(error)).toBe(category));

  it.each([
    "answered 503",
    "no answer within 5000 ms",
    "redirect (302) not followed",
    "answer larger than 16384 bytes",
    "the endpoint is disabled",
  ])("keeps %s as written", (error) => expect(errorCategory(error)).toBe(error));
});
