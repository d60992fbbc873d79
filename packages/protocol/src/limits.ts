/** Business constants, timings and limits of spec part 1 sections 5 and 9 (and part 2 section 9 where shared). */

export const PRODUCT_PREFIX = 'bwc_';
/** Key of the realtime token in browser storage (spec part 1 section 3), stored with PRODUCT_PREFIX. */
export const USER_TOKEN_KEY = 'USER_TOKEN';
/** Session storage key of the logged-in flag. */
export const LOGGED_IN_KEY = 'logged_in';

export const SESSION_HEARTBEAT_MS = 20_000;
/**
 * A session counts as online (and as a workstation in use) while its console was heard from within
 * this window (ours): an open console heartbeats every 20 s, a hidden tab at least once a minute
 * (browser timer throttling), so a closed tab stops counting within 2.5 minutes instead of at the
 * session timeout. The session itself stays valid until the timeout: a reopened console resumes it.
 */
export const SESSION_PRESENCE_MS = 150_000;
export const VERSION_CHECK_INTERVAL_MS = 1_200_000;
export const TOAST_DURATION_MS = 5_000;
export const LAZY_CHUNK_TIMEOUT_MS = 120_000;
/* The realtime client layer's ports, timings and log levels live with the console service's contract (console/limits.ts). */

export const ALARM_SOUND_DEFAULT_MS = 30_000;
export const ALARM_SOUND_DELAY_MS = 200;
export const ALARM_MAP_ZOOM = 12;
export const ALARM_MAP_SIZE = { width: 750, height: 300 } as const;
export const ALARM_MARKER_SIZE = 65;
export const CLUSTER_DEFAULTS = { gridSize: 60, maxZoom: 18, minimumClusterSize: 2 } as const;
export const MARKER_LABEL_DELAY_MS = 300;
export const MAP_MODE_SWITCH_DELAY_MS = 300;
export const MAP_REFRESH_MS = 20_000;
export const MAP_START_ZOOM = 15;
/**
 * A device shows the SOS icon on the dispatch map while it has an SOS alarm (type 1) that is not
 * acknowledged and was raised within this window (older unhandled SOS stay in the bell and alarm
 * history, not on the map). The server applies it to the point snapshot's `sos`, the console to
 * pushed alarms.
 */
export const MAP_SOS_WINDOW_MS = 30 * 60_000;

export const RECORDING_DURATIONS_MIN = [20, 30, 60] as const;
export const SPLIT_SCREEN_CHOICES = [1, 4, 6, 9, 16] as const;
export const DEFAULT_VIDEO_LIVE_NUM = 9;
export const GROUP_DIALOG_WIDTH = 800;
export const DIALOG_WIDTH = '40%';
export const DIALOG_HEIGHT = '400px';
export const DIALOG_FULLSCREEN_HEIGHT = '85vh';
/** Image zoom dialog (spec part 2 sections 2.4 and 9): scale 0.5 to 2, step 0.1. */
export const IMAGE_ZOOM_MIN = 0.5;
export const IMAGE_ZOOM_MAX = 2;
export const IMAGE_ZOOM_STEP = 0.1;

export const TABLE_PAGE_SIZES = [10, 20, 50, 100] as const;
export const TABLE_DEFAULT_PAGE_SIZE = 20;
export const HOST_LIST_PAGE_SIZE = 30;
export const TABLE_INDEX_COLUMN_WIDTH = 55;

/** Passwords (spec part 1 section 5). */
export const PASSWORD_LOGIN_MIN = 6;
export const PASSWORD_SET_MIN = 8;
export const PASSWORD_SET_MAX = 12;
export const PASSWORD_SET_CLASSES = 3;

/** System title (spec part 1 section 5). */
export const TITLE_MIN = 1;
export const TITLE_MAX = 17;
/** The shipped system title (titleset); while it is unchanged the console shows the product name in its language. */
export const SYSTEM_TITLE_DEFAULT = '移动执法电子证据管理';
export const TITLE_FORBIDDEN_CHARS = ['\\', '/', ':', '*', '?', '<', '|', '’', '%', '>'] as const;

export const ID_CARD_LENGTH = 18;

/** Login security defaults (normalset). */
export const LOGIN_FAIL_LIMIT_DEFAULT = 5;
export const LOGIN_LOCK_MINUTES_DEFAULT = 10;
/**
 * Failed logins from one source address are throttled, never locked (a control room behind one
 * proxy shares an address): the first LOGIN_SOURCE_FREE_FAILURES within LOGIN_SOURCE_WINDOW_MS
 * cost nothing, each further one doubles the address's wait from LOGIN_SOURCE_DELAY_FIRST_MS up to
 * LOGIN_SOURCE_DELAY_MAX_MS.
 */
export const LOGIN_SOURCE_FREE_FAILURES = 10;
export const LOGIN_SOURCE_WINDOW_MS = 15 * 60_000;
export const LOGIN_SOURCE_DELAY_FIRST_MS = 1_000;
export const LOGIN_SOURCE_DELAY_MAX_MS = 30_000;
export const CAPTCHA_TTL_MS = 5 * 60_000;
export const SIGNATURE_MAX_SKEW_MS = 5 * 60_000;

/** Uploads (spec part 2 section 5), sizes in MB. */
export const UPLOAD_TYPES = {
  video: ['avi', 'mpg', 'wmv', 'mp4', 'mov'],
  audio: ['wav', 'mp3', 'wma', 'aac'],
  image: ['jpg', 'png', 'gif', 'jpeg'],
  zip: ['zip'],
  exe: ['exe'],
  doc: ['doc', 'docx', 'txt', 'pdf', 'xls'],
} as const;
export const UPLOAD_LIMIT_MB = { upgrade: 800, controlImage: 10, excelImport: 5, background: 10, download: 800 } as const;
export const MB = 1024 * 1024;

/**
 * GB28181 playback (GB/T 28181-2016 9.8): a span of at most 7 days (gbplay, gbsearch), and the
 * speeds a running playback may be set to by MANSRTSP `Scale` (the values WVP, the reference
 * platform, offers).
 */
export const GB_PLAYBACK_MAX_S = 7 * 86_400;
export const GB_PLAYBACK_SCALES = [0.25, 0.5, 1, 2, 4] as const;
export type GbPlaybackScale = (typeof GB_PLAYBACK_SCALES)[number];
