import { MODULES, type PermissionNode } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import {
  columnState,
  flattenRows,
  grantOf,
  grantsFromTree,
  rowState,
  setAction,
  setColumn,
  setRow,
  toPayload,
  toRows,
  type Grantable,
} from './permissionTree';

/** The whole catalogue as auth_get answers it, with the given actions. */
function catalogueTree(
  actions: Record<number, Partial<Record<'view' | 'edit' | 'add', 0 | 1>>> = {},
): PermissionNode[] {
  const make = (pid: number): PermissionNode[] =>
    MODULES.filter((m) => m.pid === pid).map((m) => ({
      id: m.id,
      bh: m.bh,
      pid: m.pid,
      key: m.key,
      path: m.path,
      view: actions[m.id]?.view ?? 0,
      edit: actions[m.id]?.edit ?? 0,
      add: actions[m.id]?.add ?? 0,
      children: make(m.id),
    }));
  return make(0);
}

const everything: Grantable = Object.fromEntries(MODULES.map((m) => [String(m.id), { view: 1, edit: 1, add: 1 }]));

describe('permission tree', () => {
  it('lists every module of the catalogue once, leaves without children', () => {
    const rows = toRows(catalogueTree());
    const flat = flattenRows(rows);
    expect(flat.map((r) => r.id)).toEqual(MODULES.map((m) => m.id));
    const accounts = flat.find((r) => r.id === 10411)!;
    expect(accounts.subs).toBeUndefined();
    expect(flat.find((r) => r.id === 10410)!.subs!.map((r) => r.id)).toEqual([10411, 10412]);
  });

  it('reads the role grants and sends them back with view on the ancestors', () => {
    const tree = catalogueTree({ 10431: { view: 1 } });
    const rows = toRows(tree);
    const grants = grantsFromTree(tree);
    expect(grantOf(grants, 10431)).toEqual({ view: 1, edit: 0, add: 0 });
    expect(toPayload(grants, rows)).toEqual([
      { module_id: 10400, view: 1, edit: 0, add: 0 },
      { module_id: 10430, view: 1, edit: 0, add: 0 },
      { module_id: 10431, view: 1, edit: 0, add: 0 },
    ]);
  });

  it('edit or add bring view; removing view removes edit and add', () => {
    let map = grantsFromTree(catalogueTree());
    map = setAction(map, 10411, 'add', true, everything);
    expect(grantOf(map, 10411)).toEqual({ view: 1, edit: 0, add: 1 });
    map = setAction(map, 10411, 'view', false, everything);
    expect(grantOf(map, 10411)).toEqual({ view: 0, edit: 0, add: 0 });
    expect(toPayload(map, toRows(catalogueTree()))).toEqual([]);
  });

  it('row and column checkboxes cover the subtree / every module, and report all / some / none', () => {
    const rows = toRows(catalogueTree());
    const userAdmin = flattenRows(rows).find((r) => r.id === 10410)!;
    let map = setRow(grantsFromTree(catalogueTree()), userAdmin, true, everything);
    expect(rowState(map, userAdmin)).toBe('all');
    expect(grantOf(map, 10412)).toEqual({ view: 1, edit: 1, add: 1 });
    map = setAction(map, 10412, 'edit', false, everything);
    expect(rowState(map, userAdmin)).toBe('some');
    expect(columnState(map, rows, 'view')).toBe('some');
    map = setColumn(map, rows, 'view', true, everything);
    expect(columnState(map, rows, 'view')).toBe('all');
    map = setColumn(map, rows, 'view', false, everything);
    expect(columnState(map, rows, 'edit')).toBe('none');
    expect(toPayload(map, rows)).toEqual([]);
  });

  it('leaves alone what the caller may not distribute', () => {
    const limited: Grantable = { '10400': { view: 1 }, '10410': { view: 1 }, '10411': { view: 1, edit: 1 } };
    let map = grantsFromTree(catalogueTree({ 10412: { view: 1 } }));
    map = setAction(map, 10411, 'add', true, limited);
    expect(grantOf(map, 10411)).toEqual({ view: 0, edit: 0, add: 0 });
    map = setAction(map, 10411, 'edit', true, limited);
    expect(grantOf(map, 10411)).toEqual({ view: 1, edit: 1, add: 0 });
    // a column change does not take away a grant the caller cannot give (10412 view)
    map = setColumn(map, toRows(catalogueTree()), 'view', false, limited);
    expect(grantOf(map, 10412)).toEqual({ view: 1, edit: 0, add: 0 });
    expect(grantOf(map, 10411)).toEqual({ view: 0, edit: 0, add: 0 });
  });
});
