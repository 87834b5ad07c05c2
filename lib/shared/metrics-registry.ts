import "server-only";

// A minimal Prometheus registry: counters and gauges with a fixed label set, and one
// histogram type. Hand-rolled because the hot path increments these per check: a label
// combination is resolved once to a cell object, and increments are then one addition.
// Label values come from closed sets (outcomes, reasons, cache names): never from keys,
// tenants or subjects, which would make cardinality unbounded.

export interface Cell {
  value: number;
}

type Kind = "counter" | "gauge";

export class Family {
  private readonly cells = new Map<string, { labels: string; cell: Cell }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly kind: Kind,
    private readonly labelNames: readonly string[],
  ) {}

  /** The cell of one label combination (cache it: callers on the hot path keep the object). */
  cell(...values: string[]): Cell {
    const id = values.join("\u0000");
    let entry = this.cells.get(id);
    if (!entry) {
      const labels = this.labelNames
        .map((label, i) => `${label}="${escapeLabel(values[i] ?? "")}"`)
        .join(",");
      entry = { labels: labels === "" ? "" : `{${labels}}`, cell: { value: 0 } };
      this.cells.set(id, entry);
    }
    return entry.cell;
  }

  render(): string {
    let out = `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} ${this.kind}\n`;
    for (const { labels, cell } of this.cells.values()) out += `${this.name}${labels} ${cell.value}\n`;
    return out;
  }
}

export class Histogram {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;

  constructor(
    readonly name: string,
    readonly help: string,
    /** upper bounds in seconds, ascending */
    private readonly bounds: readonly number[],
  ) {
    this.counts = bounds.map(() => 0);
  }

  observe(seconds: number): void {
    this.sum += seconds;
    this.count += 1;
    for (let i = 0; i < this.bounds.length; i++) {
      if (seconds <= (this.bounds[i] ?? Infinity)) {
        this.counts[i] = (this.counts[i] ?? 0) + 1;
        return;
      }
    }
  }

  /** Per-bucket counts (not cumulative; the last is above the highest bound) and the total. */
  snapshot(): { counts: number[]; count: number } {
    const counts = [...this.counts];
    counts.push(this.count - counts.reduce((sum, n) => sum + n, 0));
    return { counts, count: this.count };
  }

  render(): string {
    let out = `# HELP ${this.name} ${this.help}\n# TYPE ${this.name} histogram\n`;
    let cumulative = 0;
    this.bounds.forEach((bound, i) => {
      cumulative += this.counts[i] ?? 0;
      out += `${this.name}_bucket{le="${bound}"} ${cumulative}\n`;
    });
    out += `${this.name}_bucket{le="+Inf"} ${this.count}\n`;
    out += `${this.name}_sum ${this.sum}\n${this.name}_count ${this.count}\n`;
    return out;
  }
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

export class Registry {
  private readonly metrics: Array<Family | Histogram> = [];

  counter(name: string, help: string, labels: readonly string[] = []): Family {
    return this.add(new Family(name, help, "counter", labels));
  }

  gauge(name: string, help: string, labels: readonly string[] = []): Family {
    return this.add(new Family(name, help, "gauge", labels));
  }

  histogram(name: string, help: string, bounds: readonly number[]): Histogram {
    return this.add(new Histogram(name, help, bounds));
  }

  private add<T extends Family | Histogram>(metric: T): T {
    this.metrics.push(metric);
    return metric;
  }

  /** The Prometheus text exposition format (version 0.0.4). */
  render(): string {
    return this.metrics.map((metric) => metric.render()).join("");
  }
}
