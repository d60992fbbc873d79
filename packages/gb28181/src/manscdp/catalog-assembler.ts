import type { CatalogItem, MessageOf, RecordItem } from './schemas';

/** Upper bound on one answer's items (a large NVR platform has a few thousand channels). */
export const MAX_ASSEMBLED_ITEMS = 100_000;

export type CatalogPage = MessageOf<'Response', 'Catalog'> | MessageOf<'Notify', 'Catalog'>;
export type RecordInfoPage = MessageOf<'Response', 'RecordInfo'>;

export interface Assembled<T> {
  sn: number;
  deviceId: string;
  sumNum: number;
  /** in arrival order, one per key (a repeated key keeps its latest item) */
  items: T[];
}
export type AssembledCatalog = Assembled<CatalogItem>;
export type AssembledRecordInfo = Assembled<RecordItem>;

export type AddResult<T = CatalogItem> =
  | { state: 'pending'; received: number; sumNum: number }
  | { state: 'complete'; assembled: Assembled<T> }
  /** not the awaited SN or device, or a page after completion: ignore */
  | { state: 'ignored'; reason: string };

interface Page<T> {
  CmdType: string;
  SN: number;
  DeviceID: string;
  SumNum: number;
  items: T[];
}

/**
 * Collects the pages of one answer sent in several MESSAGEs with the query's SN and the same SumNum
 * (Catalog A.2.6.4, RecordInfo A.2.6.6) until SumNum distinct items arrived. The caller owns the
 * timeout: it calls `partial()` (or drops the assembler) when its timer fires.
 */
class PageAssembler<T> {
  private readonly items = new Map<string, T>();
  private sumNum: number | null = null;
  private done = false;

  constructor(
    readonly cmdType: string,
    readonly sn: number,
    readonly deviceId: string,
    private readonly keyOf: (item: T) => string,
  ) {}

  protected addPage(page: Page<T>): AddResult<T> {
    if (this.done) return { state: 'ignored', reason: 'already complete' };
    if (page.CmdType !== this.cmdType || page.SN !== this.sn || page.DeviceID !== this.deviceId)
      return { state: 'ignored', reason: 'another SN or device' };
    if (page.SumNum > MAX_ASSEMBLED_ITEMS) return { state: 'ignored', reason: `SumNum over ${MAX_ASSEMBLED_ITEMS}` };
    // the first page's SumNum holds; a page that disagrees is refused rather than mixed in
    if (this.sumNum === null) this.sumNum = page.SumNum;
    else if (page.SumNum !== this.sumNum) return { state: 'ignored', reason: 'SumNum changed' };
    for (const item of page.items) {
      const key = this.keyOf(item);
      if (this.items.size >= MAX_ASSEMBLED_ITEMS && !this.items.has(key)) break;
      this.items.delete(key);
      this.items.set(key, item);
    }
    if (this.items.size >= this.sumNum) {
      this.done = true;
      return { state: 'complete', assembled: this.partial() };
    }
    return { state: 'pending', received: this.items.size, sumNum: this.sumNum };
  }

  get complete(): boolean {
    return this.done;
  }

  /** What arrived so far (the caller's timeout keeps or drops it). */
  partial(): Assembled<T> {
    return { sn: this.sn, deviceId: this.deviceId, sumNum: this.sumNum ?? 0, items: [...this.items.values()] };
  }
}

/** A Catalog answer's pages, one item per DeviceID. */
export class CatalogAssembler extends PageAssembler<CatalogItem> {
  constructor(sn: number, deviceId: string) {
    super('Catalog', sn, deviceId, (item) => item.DeviceID);
  }

  add(page: CatalogPage): AddResult<CatalogItem> {
    return this.addPage({ ...page, items: page.DeviceList });
  }
}

/** A RecordInfo answer's pages, one item per channel, file and time span. */
export class RecordInfoAssembler extends PageAssembler<RecordItem> {
  constructor(sn: number, deviceId: string) {
    super('RecordInfo', sn, deviceId, (r) => JSON.stringify([r.DeviceID, r.StartTime, r.EndTime, r.FilePath ?? '']));
  }

  add(page: RecordInfoPage): AddResult<RecordItem> {
    return this.addPage({ ...page, items: page.RecordList });
  }
}
