/**
 * Ports, timings and limits of the console service (spec part 1 sections 4, 5 and 9). Values the
 * spec fixes carry its numbers; the few it leaves open are ours and say so.
 */

/** Candidate ports of the console service, tried in this order by the SDK (spec part 1 section 9). */
export const REALTIME_PORTS = [9080, 3001, 3002, 3003, 3004, 3005] as const;
/** The console service's default websocket port (server config CONSOLE_PORT). */
export const CONSOLE_PORT_DEFAULT = REALTIME_PORTS[0];
/**
 * The same service under a path of the main HTTP port, for deployments behind one reverse proxy
 * (ours: the spec shows only the local address with a port placeholder).
 */
export const CONSOLE_WS_PATH = '/ws/console';

/** SDK heartbeat period; three heartbeats are sent at open, then one every period. */
export const REALTIME_HEARTBEAT_MS = 10_000;
export const REALTIME_HEARTBEATS_AT_OPEN = 3;
/** Heartbeat figure the spec's configuration also lists, with the error budget beside it. */
export const REALTIME_HEARTBEAT_CONFIG_MS = 15_000;
export const REALTIME_MAX_HEARTBEAT_ERRORS = 20;
/** The SDK reconnects after this long when a login is cached. */
export const REALTIME_RECONNECT_MS = 5_000;
/** Init status becomes 3 (done) at the latest after this long. */
export const REALTIME_INIT_TIMEOUT_MS = 10_000;
/** Logon: client_alive_time (minutes) is capped to this, with a warning. */
export const REALTIME_MAX_CLIENT_ALIVE_MINUTES = 120;
/** The SDK's empty callback marker. */
export const REALTIME_EMPTY_CALLBACK = '_empty_';
export const REALTIME_SDK_VERSION = 'R08.00.35';
export const GPS_TIMEOUT_MS = 30_000;
/** Video list: length 0 or below becomes this; start below 0 becomes 0 (spec part 1 section 5). */
export const DEFAULT_VIDEO_LIST_LENGTH = 100;

/** SDK log levels (spec part 1 section 9); default 20. */
export const LogLevel = {
  all: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  notice: 90,
  none: 100,
} as const;
export const DEFAULT_LOG_LEVEL = LogLevel.debug;
/** Log lines longer than this are shortened; the on-page log area is cleared past LOG_AREA_MAX characters. */
export const LOG_LINE_MAX = 500;
export const LOG_AREA_MAX = 15_000;

// ---------------------------------------------------------------------------------------------
// Server-side limits (ours: the spec leaves them open)
// ---------------------------------------------------------------------------------------------

/**
 * Largest message the service accepts, in bytes. Files never travel inside a message (they go to
 * the chunk upload address), so 64 KiB leaves ample room for the longest text message.
 */
export const CONSOLE_MESSAGE_MAX_BYTES = 64 * 1024;
/**
 * A connection that sent nothing (not even a heartbeat) for this long is closed. The SDK
 * heartbeats every 10 s, so this allows five missed heartbeats.
 */
export const CONSOLE_SILENCE_LIMIT_MS = 60_000;
/** Position notices are merged per console and sent at most this often (the map's cadence). */
export const GPS_NOTICE_MERGE_MS = 1_000;
/** Most uids (or ext ids) one request may name. */
export const CONSOLE_TARGETS_MAX = 1_000;
/** Most positions one terminal report may carry (as the device API). */
export const GPS_REPORT_MAX = 500;
/** Most fixes one historical GPS answer carries (the oldest first; narrow the time range for more). */
export const HISTORY_GPS_MAX_POINTS = 10_000;
/** Longest time range of one historical GPS query. */
export const HISTORY_GPS_MAX_DAYS = 31;
/** params_set: most keys of paraminfo and the longest value. */
export const PARAMINFO_MAX_KEYS = 32;
export const PARAMINFO_VALUE_MAX = 256;
/** Instant messages: longest text, default and largest page of req_im_list. */
export const IM_TEXT_MAX = 2_000;
export const IM_LIST_DEFAULT_COUNT = 20;
export const IM_LIST_MAX_COUNT = 100;
/** Conversations answered by req_im_sessions (ours): by default and at most. */
export const IM_SESSIONS_DEFAULT_COUNT = 50;
export const IM_SESSIONS_MAX_COUNT = 200;
/** Ids of unread messages a conversation of req_im_sessions names at most (its count is exact). */
export const IM_SESSIONS_UNREAD_IDS = 100;
/** Largest video list page. */
export const VIDEO_LIST_MAX_LENGTH = 1_000;

/**
 * Console-service user ids: a terminal's uid is its device id and its ext id its cluster number
 * (jq_hostcode); a console's uid is CONSOLE_UID_BASE + its user id and its ext id
 * CONSOLE_EXT_PREFIX + its username. Member lists hide ext ids containing `itrunk` (spec part 2
 * section 3), which keeps consoles out of the group trees.
 */
export const CONSOLE_UID_BASE = 100_000_000;
export const CONSOLE_EXT_PREFIX = 'itrunk_';

/** Path of the group-file chunk upload on the console service's port (and under CONSOLE_WS_PATH's host). */
export const GFILE_UPLOAD_PATH = '/gfile/upload';
/** Path of a stored file, followed by its fid. */
export const GFILE_DOWNLOAD_PATH = '/gfile/file';
/** Largest chunk of one upload request. */
export const GFILE_CHUNK_MAX_BYTES = 1024 * 1024;

/**
 * The group-file upload address of the login cache (spec part 1 section 3: built from ip, port,
 * token and uid). A chunk is POSTed to it with `&fid=..&offset=..&size=..&filename=..`.
 */
export function gfileUploadUrl(login: { ip: string; port: number | string; token: string; uid: number }): string {
  const query = new URLSearchParams({ token: login.token, uid: String(login.uid) });
  return `http://${login.ip}:${login.port}${GFILE_UPLOAD_PATH}?${query.toString()}`;
}
