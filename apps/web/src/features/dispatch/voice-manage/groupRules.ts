import { GROUP_EXTERNAL_PREFIX, UserState, type GroupMember, type TalkGroup } from '@bwc/protocol';

/**
 * What marks a console among a group's members: its ext id is `itrunk_<username>`. Members whose
 * ext_id contains it are not shown (spec part 2 section 3, Group member).
 */
export const HIDDEN_MEMBER_MARK = 'itrunk';

export function isHiddenMember(member: Pick<GroupMember, 'ext_id'>): boolean {
  return member.ext_id.includes(HIDDEN_MEMBER_MARK);
}

/** The members a dispatcher sees. */
export function visibleMembers(group: Pick<TalkGroup, 'children'>): GroupMember[] {
  return group.children.filter((member) => !isHiddenMember(member));
}

/** A group of another system (ext_tgid starting with jg_): it cannot be edited or deleted here. */
export function isExternalGroup(group: Pick<TalkGroup, 'ext_tgid'>): boolean {
  return group.ext_tgid.startsWith(GROUP_EXTERNAL_PREFIX);
}

/** Trunk states by uid as the console service last told them (7 online, anything else offline). */
export type TrunkStates = ReadonlyMap<number, number>;

/**
 * A member is online when the console service's last state for it is 7 (spec part 2 sections 4
 * and 9); a member the service has said nothing about yet counts by the stored answer.
 */
export function memberOnline(member: Pick<GroupMember, 'uid' | 'lineon'>, states: TrunkStates): boolean {
  const state = states.get(member.uid);
  return state === undefined ? member.lineon === 1 : state === UserState.ONLINE;
}

/** Online count of the members a dispatcher sees. */
export function onlineCount(group: Pick<TalkGroup, 'children'>, states: TrunkStates): number {
  return visibleMembers(group).filter((member) => memberOnline(member, states)).length;
}

/** The members shown, with "online members only" applied (spec part 2 section 5, group search). */
export function shownMembers(
  group: Pick<TalkGroup, 'children'>,
  states: TrunkStates,
  onlineOnly: boolean,
): GroupMember[] {
  const members = visibleMembers(group);
  return onlineOnly ? members.filter((member) => memberOnline(member, states)) : members;
}
