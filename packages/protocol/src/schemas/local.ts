import { z } from 'zod';
import { RECORDING_DURATIONS_MIN, SPLIT_SCREEN_CHOICES } from '../limits';

/** Local save settings, kept in browser storage with PRODUCT_PREFIX (spec part 1 section 3). */
export const LocalSaveForm = z.object({
  videoPath: z.string().trim().max(255, { error: 'validation.tooLong' }),
  shootPath: z.string().trim().max(255, { error: 'validation.tooLong' }),
  time: z.number().refine((n) => (RECORDING_DURATIONS_MIN as readonly number[]).includes(n), { error: 'validation.choice' }),
  LocalIp: z.union([z.literal(''), z.ipv4({ error: 'validation.ip' })]),
  screen: z.number().refine((n) => (SPLIT_SCREEN_CHOICES as readonly number[]).includes(n), { error: 'validation.choice' }),
  autoSave: z.boolean(),
  player_version: z.string().max(50).optional(),
  gbplayer_version: z.string().max(50).optional(),
});
export type LocalSaveForm = z.infer<typeof LocalSaveForm>;

export const LOCAL_SAVE_DEFAULTS: LocalSaveForm = {
  videoPath: '',
  shootPath: '',
  time: 30,
  LocalIp: '',
  screen: 1,
  autoSave: true,
};
