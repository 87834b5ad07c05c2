import "server-only";

// Per-second check counts per subject, for the what-if replay of a subject limit (docs/replay.md).
// The seconds hashes count per key and route only; a limit counted per subject needs to know
// how each subject's checks were spread over time. Recording every subject would let a tenant
// with random subjects fill Redis, so this is bounded twice, per tenant and per minute:
//
// - at most SUBJECTS_PER_MINUTE distinct subjects get series (the first seen in that minute
//   by this process); the checks of any other subject are counted per second and route
//   under the empty subject (subjects are 1..256 characters, so "" is never a real one);
// - at most FIELDS_PER_MINUTE distinct fields (second x route x subject); past it, counts
//   also go to the empty subject of their second and route.
//
// Budget: FIELDS_PER_MINUTE fields of ~60-300 bytes (the subject is at most 256 characters)
// is at most ~400 KB per tenant-minute and typically < 50 KB; the hashes live as long as
// the seconds hashes (the seconds retention plus the rollup's margin). Several app processes
// each admit their own first subjects, so the bound is per process.

export const SUBJECTS_PER_MINUTE = 50;
export const FIELDS_PER_MINUTE = 1_200;

/** `<second>|<route length>|<route><subject>`: lengths, not separators, since both are free text. */
export function subjectField(second: number, route: string, subject: string): string {
  return `${second}|${route.length}|${route}${subject}`;
}

export interface SubjectFieldParts {
  second: number;
  route: string;
  /** "" for checks of subjects past the cap */
  subject: string;
}

export function parseSubjectField(field: string): SubjectFieldParts | null {
  const a = field.indexOf("|");
  const b = field.indexOf("|", a + 1);
  if (a < 0 || b < 0) return null;
  const second = Number(field.slice(0, a));
  const length = Number(field.slice(a + 1, b));
  if (!Number.isInteger(second) || !Number.isInteger(length) || length < 0) return null;
  const rest = field.slice(b + 1);
  if (rest.length < length) return null;
  return { second, route: rest.slice(0, length), subject: rest.slice(length) };
}

interface MinuteAdmission {
  minute: number;
  subjects: Set<string>;
  fields: number;
}

/**
 * Which subjects of a tenant's current minute get their own series. Lives in the recorder
 * across batches (a batch lasts a second, the cap is per minute); one entry per tenant,
 * replaced when its minute changes, so memory stays at SUBJECTS_PER_MINUTE per tenant.
 */
export class SubjectAdmission {
  private readonly tenants = new Map<string, MinuteAdmission>();

  /** The subject to count under: itself, or "" when past a cap. */
  admit(tenantId: string, minute: number, subject: string): string {
    let entry = this.tenants.get(tenantId);
    if (!entry || entry.minute !== minute) {
      if (entry && entry.minute > minute) return ""; // a late event of a past minute: not worth a series
      entry = { minute, subjects: new Set(), fields: 0 };
      this.tenants.set(tenantId, entry);
    }
    if (entry.subjects.has(subject)) return subject;
    if (entry.subjects.size >= SUBJECTS_PER_MINUTE || entry.fields >= FIELDS_PER_MINUTE) return "";
    entry.subjects.add(subject);
    return subject;
  }

  /** Counts a field new to the batch; false when the tenant's minute is full (count it under ""). */
  takeField(tenantId: string): boolean {
    const entry = this.tenants.get(tenantId);
    if (!entry) return true;
    if (entry.fields >= FIELDS_PER_MINUTE) return false;
    entry.fields++;
    return true;
  }

  /** Drops tenants idle for a minute or more, so a departed tenant costs nothing. */
  sweep(minute: number): void {
    for (const [tenantId, entry] of this.tenants) if (entry.minute < minute) this.tenants.delete(tenantId);
  }
}
