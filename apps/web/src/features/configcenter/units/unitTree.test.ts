import { unitCodeFitsParent, type Unit } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { buildUnitTree, flattenUnitTree, subtreeIds, suggestChildCode } from './unitTree';

function unit(id: number, pid: number, bh: string, name = `u${id}`): Unit {
  return { id, pid, bh, name, sort: 0, created: '', children: 0, users: 0, devices: 0 };
}

describe('buildUnitTree', () => {
  it('nests units under their parents in the server order and numbers depths', () => {
    const tree = buildUnitTree([
      unit(1, 0, '440300000000'),
      unit(3, 1, '440302000000'),
      unit(2, 1, '440301000000'),
      unit(4, 2, '440301010000'),
    ]);
    expect(tree.map((r) => r.id)).toEqual([1]);
    expect(tree[0]!.subunits!.map((r) => r.id)).toEqual([3, 2]);
    expect(tree[0]!.subunits![1]!.subunits![0]!.depth).toBe(2);
    // leaves carry no children field, so that the table shows no expander
    expect(tree[0]!.subunits![0]!.subunits).toBeUndefined();
  });

  it('makes a unit whose parent is outside the view a root (a unit administrator sees his subtree)', () => {
    const tree = buildUnitTree([unit(5, 2, '440301000000'), unit(6, 5, '440301010000'), unit(7, 2, '440302000000')]);
    expect(tree.map((r) => r.id)).toEqual([5, 7]);
    expect(flattenUnitTree(tree).map((r) => r.id)).toEqual([5, 6, 7]);
    expect([...subtreeIds(tree[0]!)]).toEqual([5, 6]);
  });
});

describe('suggestChildCode', () => {
  it('takes the first free level under the parent prefix and fits the code rule', () => {
    const code = suggestChildCode('440300000000', ['440301000000']);
    expect(code).toBe('440302000000');
    expect(unitCodeFitsParent('440300000000', code!)).toBe(true);
    expect(suggestChildCode('440303010000', [])).toBe('440303010100');
  });

  it('has nothing to offer for a root or a parent without room', () => {
    expect(suggestChildCode(null, [])).toBeNull();
    expect(suggestChildCode('440303010203', [])).toBeNull();
    const full = Array.from({ length: 99 }, (_, i) => `4403${String(i + 1).padStart(2, '0')}000000`);
    expect(suggestChildCode('440300000000', full)).toBeNull();
  });
});
