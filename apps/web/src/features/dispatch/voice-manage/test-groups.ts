import type { GroupMember, TalkGroup } from '@bwc/protocol';

/** A member terminal (cluster number 9<uid>), or the console `itrunk_<name>` when `ext_id` says so. */
export function member(uid: number, lineon: number, ext_id = `9${uid}`): GroupMember {
  return {
    uid,
    ext_id,
    display_name: `Officer ${uid}`,
    hostbody: `HB${uid}`,
    hostcode: '',
    jq_hostcode: `9${uid}`,
    lineon,
    attachg: 0,
    speaking: 0,
    treecate: '0',
  };
}

export function group(
  tgid: number,
  name: string,
  preconfig: number,
  children: GroupMember[],
  ext_tgid = `g${tgid}`,
): TalkGroup {
  return {
    tgid,
    ext_tgid,
    tg_name: name,
    preconfig,
    uids: children.map((m) => m.uid),
    treecate: '1',
    lineonNum: children.filter((m) => m.lineon === 1).length,
    total: children.length,
    speak: false,
    hear: false,
    unit_id: 1,
    bh: '440304000000',
    remark: '',
    expires: preconfig === 1 ? null : '2026-11-25T10:00:00.000Z',
    created: '2026-11-24T10:00:00.000Z',
    children,
  };
}
