import { MenuId } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import { unitIdOf } from '../../../../test/devices';
import { createRole, createTestApp, createUser, login, type Session, type TestApp } from '../../../../test/helpers';
import { insertItem, makeMp4, PNG } from './library.fixture';

/** The bulk dialogs' reads: flg_all_get and edit_all_get (spec part 2 section 7.3, media/). */
describe('bulk reads of checked items', () => {
  let t: TestApp;
  let desk: Session;
  let viewerOnly: Session;
  const item = {} as Record<'a' | 'b' | 'foreign', { id: number }>;

  beforeAll(async () => {
    t = await createTestApp();
    const futian = await unitIdOf(t.db, '440304000000');
    const luohu = await unitIdOf(t.db, '440303000000');
    const role = await createRole(t.db, 'desk', [{ ids: [MenuId.LAW_MEDIA], actions: ['view', 'edit'] }]);
    const u = await createUser(t.db, { roleId: role, unitBh: '440304000000' });
    desk = await login(t.app, u.username, u.password);
    const none = await createUser(t.db, { unitBh: '440304000000' });
    viewerOnly = await login(t.app, none.username, none.password);
    item.a = await insertItem(t.app, { unit_id: futian, bytes: PNG, category: 'traffic', incident_no: 'JQ1' });
    item.b = await insertItem(t.app, { unit_id: futian, bytes: await makeMp4(1), incident_no: 'JQ1' });
    item.foreign = await insertItem(t.app, { unit_id: luohu, bytes: await makeMp4(2), category: 'traffic' });
  }, 60_000);
  afterAll(async () => t?.close());

  it('answer the marks and the shared values of the checked items of the caller units only', async () => {
    await api(t.app, 'mediaFlag', desk, { id: item.a.id, flg: 1, flg_note: 'see' });
    const marks = await api<{ id: number; flg: number; flg_note: string }[]>(t.app, 'mediaFlagAllGet', desk, {
      ids: [item.a.id, item.b.id, item.foreign.id],
    });
    expect(marks.code).toBe(200);
    expect(marks.data.sort((x, y) => x.id - y.id)).toEqual([
      { id: item.a.id, flg: 1, flg_note: 'see' },
      { id: item.b.id, flg: 0, flg_note: '' },
    ]);
    // the category differs, the incident number is shared; the other unit's item is left out
    const shared = await api(t.app, 'mediaEditAllGet', desk, { ids: [item.a.id, item.b.id, item.foreign.id] });
    expect(shared.data).toEqual({ count: 2, category: null, incident_no: 'JQ1' });
    expect((await api(t.app, 'mediaEditAllGet', desk, { ids: [item.a.id] })).data).toEqual({
      count: 1,
      category: 'traffic',
      incident_no: 'JQ1',
    });
    expect((await api(t.app, 'mediaEditAllGet', desk, { ids: [item.foreign.id] })).data).toEqual({
      count: 0,
      category: null,
      incident_no: null,
    });
  });

  it('refuse an empty list and a caller without a library menu', async () => {
    const empty = await api(t.app, 'mediaEditAllGet', desk, { ids: [] });
    expect(empty.code).not.toBe(200);
    expect(empty.msg).toBeTruthy();
    expect((await api(t.app, 'mediaFlagAllGet', viewerOnly, { ids: [item.a.id] })).code).not.toBe(200);
  });
});
