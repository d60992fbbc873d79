import { z } from 'zod';

/** Tree node (spec part 1 section 3): units and, below them, terminals. */
export const TreeNode = z.object({
  id: z.union([z.number(), z.string()]),
  unitname: z.string(),
  /** 1 when the node has children to load */
  sub: z.number().int(),
  /** 1 for a leaf */
  last: z.number().int(),
  /** 'unit' or 'device' */
  treecate: z.string(),
  lineon: z.number().int().optional(),
  hostid: z.union([z.number(), z.string()]).optional(),
  hostname: z.string().optional(),
  did: z.string().optional(),
  jq_hostcode: z.string().optional(),
  lion_count: z.number().int().optional(),
  ext_id: z.string().optional(),
  display_name: z.string().optional(),
  bh: z.string().optional(),
});
export type TreeNode = z.infer<typeof TreeNode>;

/** other/unitjson/gdlist, gdlist_dv, dweilist */
export const UnitTreeRequest = z.object({
  id: z.coerce.number().int().min(0).optional(),
  bh: z.string().max(64).optional(),
  text: z.string().max(100).optional(),
  key: z.string().max(100).optional(),
});
export type UnitTreeRequest = z.infer<typeof UnitTreeRequest>;
