import { describe, expect, it } from 'vitest';
import { CatalogAssembler, RecordInfoAssembler, type CatalogPage } from './catalog-assembler';
import { catalogResponsePages, decodeManscdp, encodeManscdp } from './codec';
import type { CatalogItem } from './schemas';

const DEV = '34020000001110000001';
const channel = (n: number): CatalogItem => ({
  DeviceID: `340200000013200000${String(n).padStart(2, '0')}`,
  Name: `通道 ${n}`,
  ParentID: DEV,
  Status: n % 2 ? 'ON' : 'OFF',
});

/** Pages as they arrive: encoded by a device, decoded by the platform. */
function wire(sn: number, items: CatalogItem[], pageSize: number): CatalogPage[] {
  return catalogResponsePages({ sn, deviceId: DEV, items, pageSize }).map((p) => {
    const m = decodeManscdp(encodeManscdp(p));
    if (m.kind !== 'Response' || m.CmdType !== 'Catalog') throw new Error('not a Catalog page');
    return m;
  });
}

describe('CatalogAssembler', () => {
  it('assembles a Catalog answered in 3 pages, in any order', () => {
    const items = [1, 2, 3, 4, 5, 6, 7].map(channel);
    const pages = wire(42, items, 3);
    expect(pages.map((p) => p.DeviceList.length)).toEqual([3, 3, 1]);
    const a = new CatalogAssembler(42, DEV);
    expect(a.add(pages[2]!)).toEqual({ state: 'pending', received: 1, sumNum: 7 });
    expect(a.add(pages[0]!)).toEqual({ state: 'pending', received: 4, sumNum: 7 });
    const done = a.add(pages[1]!);
    expect(done.state).toBe('complete');
    if (done.state !== 'complete') return;
    expect(done.assembled.sumNum).toBe(7);
    expect(done.assembled.items.map((i) => i.DeviceID).sort()).toEqual(items.map((i) => i.DeviceID).sort());
    expect(done.assembled.items.find((i) => i.DeviceID === items[0]!.DeviceID)?.Name).toBe('通道 1');
    expect(a.complete).toBe(true);
    expect(a.add(pages[0]!).state).toBe('ignored');
  });

  it('counts a repeated DeviceID once and keeps its latest item', () => {
    const a = new CatalogAssembler(1, DEV);
    const [p1, p2] = wire(1, [channel(1), channel(2), channel(3)], 2);
    expect(a.add(p1!)).toMatchObject({ state: 'pending', received: 2 });
    expect(a.add({ ...p1!, DeviceList: [{ ...channel(1), Name: 'renamed' }] })).toMatchObject({ received: 2 });
    const done = a.add(p2!);
    expect(done.state === 'complete' && done.assembled.items.map((i) => i.Name)).toEqual([
      '通道 2',
      'renamed',
      '通道 3',
    ]);
  });

  it('ignores other SNs, other devices and a changed SumNum; partial() serves the caller timeout', () => {
    const a = new CatalogAssembler(5, DEV);
    const [p1, p2] = wire(5, [channel(1), channel(2), channel(3), channel(4)], 2);
    expect(a.add(wire(6, [channel(9)], 1)[0]!).state).toBe('ignored');
    expect(a.add({ ...p1!, DeviceID: '34020000001110000002' }).state).toBe('ignored');
    expect(a.add(p1!).state).toBe('pending');
    expect(a.add({ ...p2!, SumNum: 3 })).toEqual({ state: 'ignored', reason: 'SumNum changed' });
    expect(a.complete).toBe(false);
    expect(a.partial()).toMatchObject({ sn: 5, deviceId: DEV, sumNum: 4 });
    expect(a.partial().items).toHaveLength(2);
  });

  it('completes at once on an empty catalogue', () => {
    const a = new CatalogAssembler(8, DEV);
    const [empty] = wire(8, [], 10);
    expect(empty!.SumNum).toBe(0);
    expect(a.add(empty!)).toMatchObject({ state: 'complete', assembled: { items: [] } });
  });

  it('assembles RecordInfo pages, one item per file and time span', () => {
    const CAM = '34020000001320000001';
    const rec = (h: number) => ({
      DeviceID: CAM,
      Name: '东门',
      FilePath: `/rec/${h}.ps`,
      StartTime: `2026-11-27T${String(h).padStart(2, '0')}:00:00`,
      EndTime: `2026-11-27T${String(h).padStart(2, '0')}:59:59`,
      Type: 'time' as const,
    });
    const pages = [[rec(1), rec(2)], [rec(2), rec(3)], [rec(4)]].map((list) => {
      const m = decodeManscdp(
        encodeManscdp({
          kind: 'Response',
          CmdType: 'RecordInfo',
          SN: 9,
          DeviceID: CAM,
          Name: '东门',
          SumNum: 4,
          RecordList: list,
        }),
      );
      if (m.kind !== 'Response' || m.CmdType !== 'RecordInfo') throw new Error('not a RecordInfo page');
      return m;
    });
    const a = new RecordInfoAssembler(9, CAM);
    expect(a.add(pages[0]!)).toMatchObject({ state: 'pending', received: 2 });
    expect(a.add(pages[1]!)).toMatchObject({ state: 'pending', received: 3 });
    const done = a.add(pages[2]!);
    expect(done.state === 'complete' && done.assembled.items.map((r) => r.FilePath)).toEqual([
      '/rec/1.ps',
      '/rec/2.ps',
      '/rec/3.ps',
      '/rec/4.ps',
    ]);
  });
});
