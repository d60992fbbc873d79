/**
 * The media port range (e.g. 30000-30500): each receiver takes one port and gives it back on close.
 * A port is never handed out while it is held; ports are taken round the range, so a port just
 * given back is the last to be taken again (late packets of the old stream meet no new receiver).
 */
export class PortAllocator {
  private readonly held = new Set<number>();
  private next: number;

  constructor(
    readonly min: number,
    readonly max: number,
  ) {
    if (!Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max > 65535 || min > max) {
      throw new RangeError(`media port range ${min}-${max}`);
    }
    this.next = min;
  }

  /** A free port of the range, or null when all are held. */
  take(): number | null {
    const size = this.max - this.min + 1;
    for (let i = 0; i < size; i++) {
      const port = this.next;
      this.next = port === this.max ? this.min : port + 1;
      if (!this.held.has(port)) {
        this.held.add(port);
        return port;
      }
    }
    return null;
  }

  release(port: number): void {
    this.held.delete(port);
  }

  get inUse(): number {
    return this.held.size;
  }

  get free(): number {
    return this.max - this.min + 1 - this.held.size;
  }
}
