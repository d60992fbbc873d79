import { z } from 'zod';
import { GROUP_NAME_MAX } from '../schemas/groups';
import { ExtIdList, Flag01, Tgid, Text, UidList } from './fields';

/**
 * Groups (spec part 1 sections 3 and 7, part 2 sections 3 and 4): the talk groups of the dispatch
 * map (the same stored groups as rest/gis/gischannel*), their members (terminals) and who is
 * attached to which group. Entering a group attaches the caller (speak and hear; `mute` 1: hear
 * only); one group at a time, entering another leaves the previous one. Consoles force terminals
 * in and out, create temporary groups, add and remove members; every change is stored and
 * notified to the group's members and the consoles of the group's unit scope. Floor control and
 * audio come with the talk issue.
 */

/** A group member as the service lists it. */
export const TrunkMember = z.object({
  uid: z.number().int(),
  ext_id: z.string(),
  display_name: z.string(),
  /** 7 online, 0 offline */
  state: z.number().int(),
  /** tgid of the group the member is attached to (0 none) */
  attachg: z.number().int(),
});
export type TrunkMember = z.infer<typeof TrunkMember>;

export const TrunkGroup = z.object({
  tgid: z.number().int(),
  ext_tgid: z.string(),
  tg_name: z.string(),
  /** 1 fixed group, 0 temporary */
  preconfig: z.number().int(),
  unit_id: z.number().int(),
  /** ISO; null for fixed groups */
  expires: z.string().nullable(),
  uids: z.array(z.number().int()),
  members: z.array(TrunkMember),
});
export type TrunkGroup = z.infer<typeof TrunkGroup>;

/** req_grp_profile: one group (`tgid`) or, without it, every group the caller sees (a terminal: its own). */
export const GrpProfileRequest = z.object({
  tgid: z.preprocess((v) => (v === '' || v === null || v === 0 || v === '0' ? undefined : v), Tgid.optional()),
});
export type GrpProfileRequest = z.infer<typeof GrpProfileRequest>;
export const GrpProfileAnswer = z.object({ groups: z.array(TrunkGroup) });

/** Who is attached to a group. */
export const AttachInfo = z.object({
  uid: z.number().int(),
  ext_id: z.string(),
  /** 0: not attached */
  tgid: z.number().int(),
  speak: z.union([z.literal(0), z.literal(1)]),
  hear: z.union([z.literal(0), z.literal(1)]),
});
export type AttachInfo = z.infer<typeof AttachInfo>;
/**
 * req_group_attach_info: attachments of a group's members (`tgid`), of named users, or (nothing
 * named) of the caller.
 */
export const GroupAttachInfoRequest = z.object({
  tgid: z.preprocess((v) => (v === '' || v === null || v === 0 || v === '0' ? undefined : v), Tgid.optional()),
  uids: UidList,
  extuids: ExtIdList,
});
export type GroupAttachInfoRequest = z.infer<typeof GroupAttachInfoRequest>;
export const GroupAttachInfoAnswer = z.object({ attach: z.array(AttachInfo) });
/** notice_group_attach_info: attachments that changed. */
export const GroupAttachInfoNotice = GroupAttachInfoAnswer;

/** req_create_grp: a temporary group (24 h) of the caller's unit; an empty name gets the temporary name. */
export const CreateGrpRequest = z
  .object({
    name: Text(GROUP_NAME_MAX).default(''),
    uids: UidList,
    extuids: ExtIdList,
  })
  .refine((g) => g.uids.length + g.extuids.length > 0, { error: 'validation.required', path: ['uids'] });
export type CreateGrpRequest = z.infer<typeof CreateGrpRequest>;
export const CreateGrpAnswer = z.object({ group: TrunkGroup });
/** notice_create_grp (ours): a group was created; to its members and the consoles of its scope. */
export const CreateGrpNotice = z.object({ group: TrunkGroup });
/** notice_update_grp (ours): a group's name, unit or members were changed by an administrator; as notice_create_grp. */
export const UpdateGrpNotice = CreateGrpNotice;

export const TgidRequest = z.object({ tgid: Tgid });
export type TgidRequest = z.infer<typeof TgidRequest>;
/** req_delete_grp answer, notice_delete_grp (ours) */
export const DeleteGrpAnswer = z.object({ tgid: z.number().int() });
export const DeleteGrpNotice = z.object({ tgid: z.number().int(), uids: z.array(z.number().int()) });

/** req_enter_group: attach the caller; `mute` 1 listens only. */
export const EnterGroupRequest = z.object({ tgid: Tgid, mute: Flag01.default(0) });
export type EnterGroupRequest = z.infer<typeof EnterGroupRequest>;
/** req_leave_group */
export const LeaveGroupRequest = TgidRequest;

/** req_force_enter_group / req_force_leave_group / req_add_grp_mem / req_rem_grp_mem: a group and users. */
export const GroupUsersRequest = z
  .object({ tgid: Tgid, uids: UidList, extuids: ExtIdList })
  .refine((g) => g.uids.length + g.extuids.length > 0, { error: 'validation.required', path: ['uids'] });
export type GroupUsersRequest = z.infer<typeof GroupUsersRequest>;
/** Answer of the membership and attachment codes: the group and the users it concerned. */
export const GroupUsersAnswer = z.object({ tgid: z.number().int(), uids: z.array(z.number().int()) });

/** notice_enter_group / notice_leave_group: users attached to or detached from a group (`force` 1: by a console). */
export const EnterLeaveNotice = z.object({
  tgid: z.number().int(),
  uids: z.array(z.number().int()),
  ext_ids: z.array(z.string()),
  force: z.union([z.literal(0), z.literal(1)]),
  /** uid of who did it */
  operator: z.number().int(),
});
/** notice_add_grp_mem / notice_rem_grp_mem */
export const MembersNotice = z.object({
  tgid: z.number().int(),
  tg_name: z.string(),
  uids: z.array(z.number().int()),
  ext_ids: z.array(z.string()),
  operator: z.number().int(),
});
/** notice_grp_mem_status (the spec's "group member status"): a member of a group went online or offline. */
export const GrpMemStatusNotice = z.object({
  tgid: z.number().int(),
  uid: z.number().int(),
  ext_id: z.string(),
  state: z.number().int(),
});
