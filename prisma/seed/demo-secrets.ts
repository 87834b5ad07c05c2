import { createHmac } from "node:crypto";

// Demo secrets are derived from the installation's secret: stable across re-seeding (so
// they can be printed every time and seeding twice changes nothing), unique per machine.
export function demoSecret(installationSecret: string, kind: "sk" | "st", label: string): string {
  const mac = createHmac("sha256", installationSecret)
    .update(`sluice-demo:${kind}:${label}`)
    .digest("base64url");
  return `${kind}_demo_${mac.slice(0, 32)}`;
}

export function demoPassword(installationSecret: string, label: string): string {
  return createHmac("sha256", installationSecret)
    .update(`sluice-demo:password:${label}`)
    .digest("base64url")
    .slice(0, 20);
}

/** Keys the demo creates, by tenant. */
export const DEMO_KEYS: readonly { tenant: string; name: string }[] = [
  { tenant: "acme", name: "backend" },
  { tenant: "acme", name: "mobile" },
  { tenant: "globex", name: "ingest" },
  { tenant: "globex", name: "batch" },
  { tenant: "initech", name: "legacy" },
];
