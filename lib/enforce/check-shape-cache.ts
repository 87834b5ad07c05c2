import "server-only";
import type { CheckShape } from "@/lib/enforce/check-shapes";

// The shapes of this config version (check-shapes.ts), bounded in entries and in the bytes
// their text is estimated at; the oldest leaves first. Emptied with every new version.

export class CheckShapes {
  private readonly entries = new Map<string, CheckShape>();
  private total = 0;

  constructor(
    private readonly capacity = 10_000,
    private readonly maxBytes = 64 * 2 ** 20,
  ) {}

  get(shapeKey: string): CheckShape | undefined {
    return this.entries.get(shapeKey);
  }

  remember(shapeKey: string, shape: CheckShape): void {
    const old = this.entries.get(shapeKey);
    if (old) {
      this.entries.delete(shapeKey);
      this.total -= old.bytes;
    }
    while (
      this.entries.size > 0 &&
      (this.entries.size >= this.capacity || this.total + shape.bytes > this.maxBytes)
    ) {
      const oldest = this.entries.entries().next().value as [string, CheckShape];
      this.entries.delete(oldest[0]);
      this.total -= oldest[1].bytes;
    }
    this.entries.set(shapeKey, shape);
    this.total += shape.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.total;
  }
}
