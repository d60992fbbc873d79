import { GroupAddRequest, GroupEditRequest, GROUP_NAME_MAX, UserState } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { point } from '../../../map/test-points';
import { splitByClusterCode } from '../deviceActions';
import { isExternalGroup, isHiddenMember, memberOnline, onlineCount, shownMembers, visibleMembers } from './groupRules';
import { group, member } from './test-groups';

const console_ = member(90, 1, 'itrunk_dispatcher');
const patrol = group(1, 'Patrol', 1, [member(11, 0), member(12, 1), console_]);

describe('group rules (spec part 2 sections 3, 4, 5, 9)', () => {
  it('members whose ext_id contains itrunk are hidden, from lists and counts alike', () => {
    expect(isHiddenMember(console_)).toBe(true);
    expect(isHiddenMember(member(5, 1, 'x-itrunk-y'))).toBe(true);
    expect(isHiddenMember(member(5, 1, 'trunk_5'))).toBe(false);
    expect(visibleMembers(patrol).map((m) => m.uid)).toEqual([11, 12]);
    expect(onlineCount(patrol, new Map())).toBe(1);
  });

  it('a group whose ext_tgid starts with jg_ belongs to another system', () => {
    expect(isExternalGroup(group(2, 'Ext', 1, [], 'jg_77'))).toBe(true);
    expect(isExternalGroup(group(2, 'Ext', 1, [], 'g_jg_77'))).toBe(false);
    expect(isExternalGroup(group(2, 'Ours', 1, []))).toBe(false);
  });

  it('online is trunk state 7; without a state yet the stored lineon counts', () => {
    const states = new Map([
      [11, UserState.ONLINE],
      [12, 3],
    ]);
    expect(memberOnline(member(11, 0), states)).toBe(true);
    expect(memberOnline(member(12, 1), states)).toBe(false);
    expect(memberOnline(member(13, 1), states)).toBe(true);
    expect(onlineCount(patrol, states)).toBe(1);
    expect(shownMembers(patrol, states, true).map((m) => m.uid)).toEqual([11]);
    expect(shownMembers(patrol, states, false).map((m) => m.uid)).toEqual([11, 12]);
  });

  it('a temporary group takes only devices with a cluster number; the others are set apart to be named', () => {
    const devices = [point(1, { jq_hostcode: '8001' }), point(2, { jq_hostcode: ' ' }), point(3, { jq_hostcode: '' })];
    const { withCode, without } = splitByClusterCode(devices);
    expect(withCode.map((d) => d.id)).toEqual([1]);
    expect(without.map((d) => d.id)).toEqual([2, 3]);
    expect(splitByClusterCode([point(4, { jq_hostcode: '' })]).withCode).toEqual([]);
  });

  it('name: a fixed group needs one, a temporary one may leave it to the server; at most GROUP_NAME_MAX', () => {
    const base = { remark: '', device: ['8001'], bh: '440304000000' };
    expect(GroupAddRequest.safeParse({ ...base, cate: '0', channel_name: '' }).success).toBe(true);
    const fixed = GroupAddRequest.safeParse({ ...base, cate: '1', channel_name: '  ' });
    expect(fixed.success).toBe(false);
    expect(fixed.error?.issues[0]).toMatchObject({ path: ['channel_name'], message: 'validation.group.name' });
    expect(
      GroupAddRequest.safeParse({ ...base, cate: '1', channel_name: 'x'.repeat(GROUP_NAME_MAX + 1) }).success,
    ).toBe(false);
    // an edited group keeps a name, temporary or not
    const edit = { channel_id: 1, cate: '0', remark: '', device: [1], bh: '440304000000' };
    expect(GroupEditRequest.safeParse({ ...edit, channel_name: '' }).success).toBe(false);
    expect(GroupEditRequest.safeParse({ ...edit, channel_name: 'Temp202611241000001' }).success).toBe(true);
  });
});
