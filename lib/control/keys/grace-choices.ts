// The grace periods of a key rotation the console offers (docs/dashboard.md); the admin API
// takes any number of seconds up to MAX_GRACE_SECONDS (key-inputs.ts).

export const GRACE_CHOICES = {
  "none (the old secret stops now)": 0,
  "5 minutes": 300,
  "1 hour": 3600,
  "24 hours": 86_400,
  "7 days": 604_800,
} as const satisfies Record<string, number>;
export type GraceLabel = keyof typeof GRACE_CHOICES;
export const graceLabels = Object.keys(GRACE_CHOICES) as [GraceLabel, ...GraceLabel[]];
