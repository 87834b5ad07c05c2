// Whether what a cache holds for a tenant still stands: the check path's caches keep their
// entries across config versions, each entry holding its tenant's mark of when it was made.
// A change to a tenant (its part, one of its keys, an override starting or ending) retires
// that tenant's mark; its entries then read as absent and are replaced as checks meet them.
// A hit costs one property read (no lookup, no version compared); a change costs what it
// touched, however many tenants the caches hold. A global change (routes, service tokens) or
// a whole load retires every mark: the caches are emptied as well (check-service.ts).

/** One tenant's standing: true until something of the tenant changes, then false for good. */
export interface TenantMark {
  current: boolean;
}

export class TenantMarks {
  /** slug -> its current mark; as many as the tenants entries were made for since a change */
  private marks = new Map<string, TenantMark>();

  /** The tenant's current mark, to keep with an entry made now. */
  of(slug: string): TenantMark {
    let mark = this.marks.get(slug);
    if (mark === undefined) this.marks.set(slug, (mark = { current: true }));
    return mark;
  }

  /** These tenants changed: every entry made for them before now is stale. */
  retire(slugs: Iterable<string>): void {
    for (const slug of slugs) {
      const mark = this.marks.get(slug);
      if (mark === undefined) continue;
      mark.current = false;
      this.marks.delete(slug);
    }
  }

  /** Anything may have changed: every entry made before now is stale. */
  retireAll(): void {
    for (const mark of this.marks.values()) mark.current = false;
    this.marks = new Map();
  }

  /** Tenants holding a current mark (tests). */
  get size(): number {
    return this.marks.size;
  }
}
