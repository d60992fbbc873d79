import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { HISTORY_APIS, historyQuery, levelOfNav, navActiveOf, pictureUrl } from './historyQuery';

describe('severity tab from alarmNavActive', () => {
  it('0/1/2 are criticle/middle/normal; anything else is every severity', () => {
    expect(navActiveOf('0')).toBe(0);
    expect(navActiveOf('1')).toBe(1);
    expect(navActiveOf('2')).toBe(2);
    expect([0, 1, 2].map((n) => levelOfNav(n as 0 | 1 | 2))).toEqual(['criticle', 'middle', 'normal']);
    for (const other of [null, undefined, '', '3', '-1', '1.0', 'all', ' 1']) expect(navActiveOf(other)).toBeNull();
  });
});

describe('filters -> search / export payload', () => {
  it('passes type, unit, device, read and sure, the tab as alarmNavActive, times as ISO instants', () => {
    const q = historyQuery(
      {
        start: '2026-11-20 08:00:00',
        end: '2026-11-21 18:30:00',
        type: '6',
        unit_id: '12',
        device: '  cam 7 ',
        read: '0',
        sure: '1',
      },
      2,
    );
    expect(q).toEqual({
      start: dayjs('2026-11-20 08:00:00').toISOString(),
      end: dayjs('2026-11-21 18:30:00').toISOString(),
      type: '6',
      unit_id: 12,
      device: 'cam 7',
      read: '0',
      sure: '1',
      alarmNavActive: 2,
    });
  });

  it('leaves out empty values, unknown parameters, a terminal picked as unit and a bad time; no tab: no alarmNavActive', () => {
    expect(
      historyQuery(
        { type: '', device: '   ', unit_id: 'device:5', start: 'yesterday', page: '3', keyword: 'x', read: undefined },
        null,
      ),
    ).toEqual({});
    expect(historyQuery({}, 0)).toEqual({ alarmNavActive: 0 });
  });

  it('takes the first of repeated values', () => {
    expect(historyQuery({ type: ['1', '2'] }, null)).toEqual({ type: '1' });
  });
});

describe('endpoints per page', () => {
  it('dispatch uses the gis / system paths and 10104; GB the monitor paths and 10154', () => {
    expect(HISTORY_APIS.dispatch).toEqual({
      menu: 10104,
      search: 'alarmSearch',
      export: 'alarmExport',
      sure: 'alarmSure',
      sureAll: 'alarmSureAll',
    });
    expect(HISTORY_APIS.gb).toEqual({
      menu: 10154,
      search: 'alarmGbSearch',
      export: 'alarmGbExport',
      sure: 'alarmGbSure',
      sureAll: 'alarmGbSureAll',
    });
  });
});

describe('picture URLs', () => {
  it('names are relative to the alarm picture web_root; absolute ones are kept', () => {
    expect(pictureUrl('abc_scene.jpg')).toBe('/rest/mini/rtcapt/file/abc_scene.jpg');
    expect(pictureUrl('abc_scene.jpg', '/files')).toBe('/files/abc_scene.jpg');
    expect(pictureUrl('/x/y.png')).toBe('/x/y.png');
    expect(pictureUrl('')).toBe('');
  });
});
