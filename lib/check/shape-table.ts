import "server-only";
import type { RouteResolution } from "@/lib/check/published/effective-limits";
import type { CheckShape } from "@/lib/check/check-shapes";

// The shapes of this config version (check-shapes.ts), found by objects instead of a key
// built per check: a tenant's slot per pair of resolved patterns (the pattern texts are the
// matchers' own strings, whose hashes are kept), then the limit set's tag. Under real
// traffic a check's shape is found in three small map lookups, not by a text key of tenant,
// set and patterns joined, flattened and hashed on every check. Bounded in
// shapes and in the bytes their text is estimated at: past either, every slot is emptied
// (the slots themselves are as many as the pattern pairs checks met, and hold nothing
// else). A tenant's change drops that tenant's slots (forget); a global change empties it.

/** Every check of a tenant whose route resolves to the same pair of patterns. */
export interface RouteSlot {
  /** by limit set tag (shapeTagOf): shapes of checks with a subject, and without */
  readonly withSubject: Map<string, CheckShape>;
  readonly without: Map<string, CheckShape>;
}

type Slots = Map<string, Map<string, RouteSlot>>;

export class ShapeTable {
  /** tenant slug -> global pattern ("" for none) -> tenant pattern ("" for none) */
  private tenants = new Map<string, Slots>();
  private count = 0;
  private total = 0;

  constructor(
    private readonly capacity = 10_000,
    private readonly maxBytes = 64 * 2 ** 20,
  ) {
    if (capacity < 1 || maxBytes < 1) throw new RangeError("bounds must be >= 1");
  }

  /** The tenant's slot for these resolved patterns: one object per pair, made on first use. */
  slot(slug: string, routes: RouteResolution): RouteSlot {
    let slots = this.tenants.get(slug);
    if (slots === undefined) this.tenants.set(slug, (slots = new Map()));
    const global = routes.global ?? "";
    let byTenant = slots.get(global);
    if (byTenant === undefined) slots.set(global, (byTenant = new Map()));
    const own = routes.tenant ?? "";
    let slot = byTenant.get(own);
    if (slot === undefined) byTenant.set(own, (slot = { withSubject: new Map(), without: new Map() }));
    return slot;
  }

  get(slot: RouteSlot, tag: string, hasSubject: boolean): CheckShape | undefined {
    return (hasSubject ? slot.withSubject : slot.without).get(tag);
  }

  remember(slot: RouteSlot, tag: string, hasSubject: boolean, shape: CheckShape): void {
    const shapes = hasSubject ? slot.withSubject : slot.without;
    const old = shapes.get(tag);
    if (old !== undefined) {
      this.count--;
      this.total -= old.bytes;
    }
    if (this.count >= this.capacity || this.total + shape.bytes > this.maxBytes) this.emptySlots();
    shapes.set(tag, shape);
    this.count++;
    this.total += shape.bytes;
  }

  /** These tenants changed (limits, keys, overrides): their shapes go, other tenants' stay. */
  forget(slugs: Iterable<string>): void {
    for (const slug of slugs) {
      const slots = this.tenants.get(slug);
      if (slots === undefined) continue;
      this.tenants.delete(slug);
      for (const byTenant of slots.values())
        for (const slot of byTenant.values())
          for (const shapes of [slot.withSubject, slot.without])
            for (const shape of shapes.values()) {
              this.count--;
              this.total -= shape.bytes;
            }
    }
  }

  /** A global change (route patterns) or a whole load: any shape may have changed. */
  clear(): void {
    this.tenants = new Map();
    this.count = 0;
    this.total = 0;
  }

  private emptySlots(): void {
    for (const slots of this.tenants.values())
      for (const byTenant of slots.values())
        for (const slot of byTenant.values()) {
          slot.withSubject.clear();
          slot.without.clear();
        }
    this.count = 0;
    this.total = 0;
  }

  get size(): number {
    return this.count;
  }

  get bytes(): number {
    return this.total;
  }
}
