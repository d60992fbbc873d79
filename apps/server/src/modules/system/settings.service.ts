import { stat } from 'node:fs/promises';
import type { ServerDeps } from '../../deps';
import {
  DISPATCH_CONFIG_TYPES,
  gbSettingsProblem,
  MenuId,
  SettingsSchemas,
  UPLOAD_LIMIT_MB,
  UPLOAD_TYPES,
  type Action,
  type MapConfig,
  type Settings,
  type SettingsType,
} from '@bwc/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/connection';
import { authorize, type AuthUser } from '../../http/auth';
import { Errors } from '../../http/errors';
import { issueToFieldError } from '../../http/validation';
import { roleCan } from '../auth/permission.repository';
import { backgroundDir, backgroundFile, backgroundPathOf, imageMatchesExtension } from './background';
import { commitFile, readMultipart, removeQuietly } from './file-store';
import { readPlayConfig, readSettings, writeSettings } from './settings.repository';

/** Settings under /system/player (dispatch config) belong to menu 10003 (replay_auth), the rest to 10002 (systerm_auth). */
export function menuOfType(type: SettingsType): number {
  return DISPATCH_CONFIG_TYPES.includes(type) ? MenuId.DISPATCH_CONFIG : MenuId.SYSTEM_SETTINGS;
}

/** Fields of one settings type validated with its protocol schema (unknown fields dropped). */
export function parseSettings<T extends SettingsType>(type: T, input: unknown): Settings<T> {
  const parsed = SettingsSchemas[type].safeParse(input, { reportInput: true });
  if (!parsed.success)
    throw issueToFieldError(parsed.error.issues[0] as Parameters<typeof issueToFieldError>[0], 'body');
  return parsed.data as Settings<T>;
}

/** The guard of a settings route, with the menu picked from the settings type. */
export async function authorizeType(
  app: FastifyInstance,
  req: FastifyRequest,
  type: SettingsType,
  action: Action,
): Promise<void> {
  await authorize(app, req, { kind: 'menu', menu: menuOfType(type), action });
}

export async function mayEditType(db: Db, user: AuthUser, type: SettingsType): Promise<boolean> {
  return roleCan(db, user.role_id, menuOfType(type), 'edit');
}

/**
 * Store one settings type. backset.background_path is only ever set by the upload: an update
 * may keep it or clear it, not point it elsewhere. A cleared background file is removed after
 * the row is written. gbconfig's port ranges are checked across fields.
 */
export async function updateSettings<T extends SettingsType>(
  deps: ServerDeps,
  type: T,
  value: Settings<T>,
): Promise<void> {
  if (type === 'backset') {
    const next = (value as Settings<'backset'>).background_path;
    const current = (await readSettings(deps.db, 'backset')).background_path;
    if (next !== '' && next !== current) throw Errors.field('background_path', 'validation.background');
    await writeSettings(deps.db, type, value);
    if (next === '' && current !== '') await removeQuietly(backgroundFile(deps.config.dataDir, current));
    return;
  }
  if (type === 'gbconfig') {
    const problem = gbSettingsProblem(value as Settings<'gbconfig'>);
    if (problem) throw Errors.field(problem.field, problem.key, problem.params);
  }
  await writeSettings(deps.db, type, value);
}

/**
 * Login background upload: an image (jpg/png/gif/jpeg whose bytes match the extension) up to
 * UPLOAD_LIMIT_MB.background, stored under DATA_DIR/backgrounds, its path saved into backset.
 * The previous image is removed only after the new path is committed.
 */
export async function uploadBackground(deps: ServerDeps, req: FastifyRequest): Promise<Settings<'backset'>> {
  const { dataDir } = deps.config;
  const { file } = await readMultipart(req, {
    dataDir,
    area: 'backgrounds',
    maxMb: UPLOAD_LIMIT_MB.background,
    allowed: UPLOAD_TYPES.image,
  });
  if (!file) throw Errors.field('file', 'validation.file.required');
  if (!imageMatchesExtension(file.head, file.ext)) {
    await removeQuietly(file.tmpPath);
    throw Errors.field('file', 'validation.file.type');
  }
  const previous = (await readSettings(deps.db, 'backset')).background_path;
  const storedName = await commitFile(dataDir, 'backgrounds', file);
  const value = { background_path: backgroundPathOf(storedName) };
  try {
    await writeSettings(deps.db, 'backset', value);
  } catch (err) {
    await removeQuietly(`${backgroundDir(dataDir)}/${storedName}`);
    throw err;
  }
  if (previous) await removeQuietly(backgroundFile(dataDir, previous));
  return value;
}

/** The stored background image, or null when none is configured or its file is gone. */
export async function currentBackground(deps: ServerDeps): Promise<{ path: string; size: number; ext: string } | null> {
  const { background_path } = await readSettings(deps.db, 'backset');
  const path = background_path ? backgroundFile(deps.config.dataDir, background_path) : null;
  if (!path) return null;
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) return null;
  return { path, size: info.size, ext: path.slice(path.lastIndexOf('.') + 1) };
}

/** Map config of the console: the electronic-map settings plus the live-video split count. */
export async function mapConfig(db: Db): Promise<MapConfig> {
  const map = await readSettings(db, 'digitailmap');
  const play = await readPlayConfig(db);
  const alarms = await readSettings(db, 'alarmset');
  return {
    mapinfo: map.mapinfo,
    gpscenter_lon: map.gpscenter_lon,
    gpscenter_lat: map.gpscenter_lat,
    map_url: map.map_url,
    map_crs: map.map_crs,
    live_num: play.video_live_num,
    // the alarm bell sound and the face-alarm column flag of the alarms module's settings (type alarmset)
    sos_alarm_audio: alarms.sos_alarm_audio,
    alerm_face: alarms.alerm_face,
    video: {
      getvideo_switch: map.getvideo_switch,
      getvideo_time: map.getvideo_time,
      getvideo_num: map.getvideo_num,
      getvideo_path: map.getvideo_path,
      getpic_path: map.getpic_path,
    },
  };
}
