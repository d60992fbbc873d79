import type { CatalogItem, MessageOf } from './schemas';

/** Upper bound on one device's catalogue (a large NVR platform has a few thousand channels). */
export const MAX_CATALOG_ITEMS = 100_000;

export type CatalogPage = MessageOf<'Response', 'Catalog'> | MessageOf<'Notify', 'Catalog'>;

export interface AssembledCatalog {
  sn: number;
  deviceId: string;
  sumNum: number;
  /** in arrival order, one per DeviceID (a repeated id keeps its latest item) */
  items: CatalogItem[];
}

export type AddResult =
  | { state: 'pending'; received: number; sumNum: number }
  | { state: 'complete'; catalog: AssembledCatalog }
  /** not the awaited SN or device, or a page after completion: ignore */
  | { state: 'ignored'; reason: string };

/**
 * Collects the pages of one Catalog answer (A.2.6.4: several MESSAGEs with the query's SN and the
 * same SumNum) until SumNum distinct DeviceIDs arrived. The caller owns the timeout: it calls
 * `partial()` (or drops the assembler) when its timer fires.
 */
export class CatalogAssembler {
  private readonly items = new Map<string, CatalogItem>();
  private sumNum: number | null = null;
  private done = false;

  constructor(
    readonly sn: number,
    readonly deviceId: string,
  ) {}

  add(page: CatalogPage): AddResult {
    if (this.done) return { state: 'ignored', reason: 'already complete' };
    if (page.CmdType !== 'Catalog' || page.SN !== this.sn || page.DeviceID !== this.deviceId)
      return { state: 'ignored', reason: 'another SN or device' };
    if (page.SumNum > MAX_CATALOG_ITEMS) return { state: 'ignored', reason: `SumNum over ${MAX_CATALOG_ITEMS}` };
    // the first page's SumNum holds; a page that disagrees is refused rather than mixed in
    if (this.sumNum === null) this.sumNum = page.SumNum;
    else if (page.SumNum !== this.sumNum) return { state: 'ignored', reason: 'SumNum changed' };
    for (const item of page.DeviceList) {
      if (this.items.size >= MAX_CATALOG_ITEMS && !this.items.has(item.DeviceID)) break;
      this.items.delete(item.DeviceID);
      this.items.set(item.DeviceID, item);
    }
    if (this.items.size >= this.sumNum) {
      this.done = true;
      return { state: 'complete', catalog: this.partial() };
    }
    return { state: 'pending', received: this.items.size, sumNum: this.sumNum };
  }

  get complete(): boolean {
    return this.done;
  }

  /** What arrived so far (the caller's timeout keeps or drops it). */
  partial(): AssembledCatalog {
    return { sn: this.sn, deviceId: this.deviceId, sumNum: this.sumNum ?? 0, items: [...this.items.values()] };
  }
}
