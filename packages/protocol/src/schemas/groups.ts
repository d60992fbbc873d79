import { z } from 'zod';
import { FlagInput } from '../envelope';
import { numberInput } from './inputs';

/**
 * Talk groups of the dispatch map (spec part 2 sections 2.2, 3 Group, 5, 7.1, 9): fixed groups
 * (cate '1', preconfig 1) and temporary groups (cate '0') made from devices selected on the map.
 * Members are devices; a device takes part in trunked talk only with a cluster number
 * (jq_hostcode). A temporary group is named `<localised prefix><YYYYMMDDHHmmss><one random digit>`
 * when no name is given, lives GROUP_TEMP_TTL_H hours and is deleted after that. Unit scope: the
 * owning unit (`bh`) and every member must be inside the caller's scope. Talking in the group
 * comes with a later issue.
 */

export const GROUP_TEMP_TTL_H = 24;
export const GROUP_NAME_MAX = 50;
export const GROUP_MEMBERS_MAX = 1_000;
/** Delay before the console reloads the group tree after a create or edit (spec part 2 section 9). */
export const GROUP_RELOAD_DELAY_MS = 1_000;
/** Lazy-load delay per group tree node (spec part 2 section 9). */
export const GROUP_TREE_LOAD_DELAY_MS = 150;
/** cate: '1' fixed group, '0' temporary */
export const GROUP_CATES = ['0', '1'] as const;
/** External group ids starting with this prefix belong to another system and cannot be edited. */
export const GROUP_EXTERNAL_PREFIX = 'jg_';

const cate = z.preprocess(
  (v) => (typeof v === 'number' ? String(v) : v),
  z.enum(GROUP_CATES, { error: 'validation.group.cate' }),
);
const groupName = z.string({ error: 'validation.type' }).trim().max(GROUP_NAME_MAX, { error: 'validation.tooLong' });
const remark = z.string({ error: 'validation.type' }).trim().max(255, { error: 'validation.tooLong' }).default('');
const bh = z
  .string({ error: 'validation.required' })
  .trim()
  .regex(/^\d{12}$/, { error: 'validation.unit.code' });
const positiveId = numberInput(
  z
    .number({ error: 'validation.required' })
    .int({ error: 'validation.integer' })
    .positive({ error: 'validation.range' }),
);

/**
 * POST rest/gis/gischanneladd/add (spec create group): `device` is the list of cluster numbers
 * (jq_hostcode) of the members; a code no device in scope has is refused naming it.
 * `channel_name` may be empty for a temporary group (cate '0'): the server names it. Answers `{groupid}`.
 */
export const GroupAddRequest = z
  .object({
    channel_name: groupName.default(''),
    cate: cate.default('0'),
    remark,
    device: z
      .array(
        z
          .string({ error: 'validation.type' })
          .trim()
          .min(1, { error: 'validation.required' })
          .max(32, { error: 'validation.tooLong' }),
        { error: 'validation.required' },
      )
      .min(1, { error: 'validation.required' })
      .max(GROUP_MEMBERS_MAX, { error: 'validation.tooLong' }),
    bh,
  })
  .refine((g) => g.cate === '0' || g.channel_name !== '', { error: 'validation.group.name', path: ['channel_name'] });
export type GroupAddRequest = z.infer<typeof GroupAddRequest>;
export const GroupAddAnswer = z.object({
  groupid: z.number().int(),
  tg_name: z.string(),
  expires: z.string().nullable(),
});
export type GroupAddAnswer = z.infer<typeof GroupAddAnswer>;

/**
 * POST rest/gis/gischanneladd/addgroup `{ids, confirm, channel_name?, remark?, bh?}`: a temporary
 * group from devices selected on the map (ids = Device.id). Devices without jq_hostcode are listed
 * in `missing`. When none has one: code 400 with a msg naming them and nothing is created. When
 * some lack one and `confirm` is 0: nothing is created, `groupid` null, the console asks the user
 * and calls again with `confirm: 1`. `bh` defaults to the caller's unit.
 */
export const GroupFromDevicesRequest = z.object({
  ids: z
    .array(
      numberInput(
        z
          .number({ error: 'validation.number' })
          .int({ error: 'validation.integer' })
          .positive({ error: 'validation.range' }),
      ),
      { error: 'validation.required' },
    )
    .min(1, { error: 'validation.required' })
    .max(GROUP_MEMBERS_MAX, { error: 'validation.tooLong' }),
  confirm: FlagInput.default(0),
  channel_name: groupName.default(''),
  remark,
  bh: bh.optional(),
});
export type GroupFromDevicesRequest = z.infer<typeof GroupFromDevicesRequest>;
const DeviceBrief = z.object({
  id: z.number().int(),
  hostbody: z.string(),
  hostname: z.string(),
  hostcode: z.string(),
  jq_hostcode: z.string(),
});
export const GroupFromDevicesAnswer = z.object({
  /** null when nothing was created (confirmation needed) */
  groupid: z.number().int().nullable(),
  tg_name: z.string(),
  expires: z.string().nullable(),
  included: z.array(DeviceBrief),
  missing: z.array(DeviceBrief),
});
export type GroupFromDevicesAnswer = z.infer<typeof GroupFromDevicesAnswer>;

/**
 * POST rest/gis/gischanneledit/edit (spec edit group): `device` is the list of member hostids
 * (Device.id). Groups whose ext_tgid starts with `jg_` are refused. Changing cate to '1' makes a
 * temporary group fixed (no expiry); to '0' starts a new 24 h life.
 */
export const GroupEditRequest = z
  .object({
    channel_id: positiveId,
    channel_name: groupName.default(''),
    cate,
    remark,
    device: z
      .array(
        numberInput(
          z
            .number({ error: 'validation.number' })
            .int({ error: 'validation.integer' })
            .positive({ error: 'validation.range' }),
        ),
        { error: 'validation.required' },
      )
      .min(1, { error: 'validation.required' })
      .max(GROUP_MEMBERS_MAX, { error: 'validation.tooLong' }),
    bh,
  })
  .refine((g) => g.channel_name !== '', { error: 'validation.group.name', path: ['channel_name'] });
export type GroupEditRequest = z.infer<typeof GroupEditRequest>;

/** POST rest/gis/gischanneledit/get and rest/gis/gischannel/del_group `{channel_id}` */
export const GroupIdRequest = z.object({ channel_id: positiveId });
export type GroupIdRequest = z.infer<typeof GroupIdRequest>;

/** A member row of the group tree (treecate '0'). */
export const GroupMember = z.object({
  uid: z.number().int(),
  ext_id: z.string(),
  display_name: z.string(),
  hostbody: z.string(),
  hostcode: z.string(),
  jq_hostcode: z.string(),
  lineon: z.number().int(),
  attachg: z.number().int(),
  speaking: z.number().int(),
  treecate: z.literal('0'),
});
export type GroupMember = z.infer<typeof GroupMember>;

/** A group (spec part 2 section 3 Group); treecate '1'. */
export const TalkGroup = z.object({
  tgid: z.number().int(),
  ext_tgid: z.string(),
  tg_name: z.string(),
  /** 1 fixed group, 0 temporary */
  preconfig: z.number().int(),
  uids: z.array(z.number().int()),
  treecate: z.literal('1'),
  lineonNum: z.number().int(),
  total: z.number().int(),
  speak: z.boolean(),
  hear: z.boolean(),
  unit_id: z.number().int(),
  bh: z.string(),
  remark: z.string(),
  /** ISO; null for fixed groups */
  expires: z.string().nullable(),
  created: z.string(),
  children: z.array(GroupMember),
});
export type TalkGroup = z.infer<typeof TalkGroup>;

/** POST rest/gis/gischannel/grouplist `{keyword?, online?}`: groups of the caller's scope; expired temporary groups are removed first. */
export const GroupListRequest = z.object({
  keyword: z.string().trim().max(100, { error: 'validation.tooLong' }).optional(),
  /** 1: only members online */
  online: FlagInput.default(0),
});
export type GroupListRequest = z.infer<typeof GroupListRequest>;
