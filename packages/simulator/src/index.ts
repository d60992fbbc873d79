export {
  startSimulator,
  simulatedIdentity,
  type SimulatorOptions,
  type SimulatorStats,
  type StopSimulator,
} from './fleet';
export {
  DeviceApiError,
  DeviceClient,
  postAiResult,
  provisionDevices,
  Transport,
  type Position,
  type TransportOptions,
} from './client';
export {
  haversineM,
  metresPerDegree,
  rng,
  SPEED_KMH,
  StreetWalker,
  type Fix,
  type MoverKind,
  type PathOptions,
} from './path';
export {
  AI_TOKEN_FILE,
  findAiToken,
  findProvisionKey,
  parseChance,
  parseConsoleUrl,
  parseInterval,
  parseRatePerMin,
  parseRecordEvery,
  parseTalkEvery,
} from './options';
export {
  ConsoleRequestError,
  ConsoleTerminal,
  consoleUrlOf,
  type TerminalOptions,
  type TerminalStats,
} from './terminal';
export {
  CAMERA_FPS,
  CAMERA_HEIGHT,
  CAMERA_WIDTH,
  cameraArgs,
  findFfmpeg,
  findFont,
  SimCamera,
  type CameraCommand,
  type SimCameraOptions,
} from './camera';
export { CLOCK_STRIP, CLOCK_STRIP_MODULUS, clockStripAgeMs, readClockStrip } from './clock-strip';
export { WebSocket, WS_OPEN, type WsClient, type WsClientOptions } from './ws';
export { buildAiResult, nextAiDelayMs, randomPlate, type AiKind, type AiShot } from './ai';
export { Canvas, crc32, drawFace, drawPlate, drawScene, encodePng, randomFace, type FaceFeatures } from './picture';
export {
  TerminalTalk,
  type HeardSummary,
  type TalkRequest,
  type TalkResult,
  type TalkSummary,
  type TerminalTalkOptions,
} from './talk/terminal-talk';
export { oggOf, TalkListener, type HeardBurst, type HearingStats } from './talk/listener';
export { burstPackets, decodeOgg, findEspeak, TalkMediaError, TALK_CACHE_DIR, type BurstSource } from './talk/media';
export { dominantTone, toneDetect, toneOf, type DetectedTone } from './talk/tone';
export { TerminalCall, type CallSummary, type TerminalCallOptions } from './talk/terminal-call';
export { TerminalConference, type ConferenceSummary, type TerminalConferenceOptions } from './talk/terminal-conference';
export {
  AUDIO_SECONDS,
  CLIP_HEIGHT,
  CLIP_WIDTH,
  recordClip,
  RecorderError,
  VIDEO_SECONDS,
  type ClipKind,
  type RecordedClip,
  type RecordInput,
} from './evidence/recorder';
export { ClipQueue, QUEUE_MAX, type QueuedClip } from './evidence/queue';
export {
  EvidenceUploadError,
  sendQueued,
  uploadClip,
  type SendSummary,
  type UploadOutcome,
  type UploadTarget,
} from './evidence/uploader';
export { CameraEvidence, evidenceRoot, Gate, pickKind, type CameraEvidenceOptions } from './evidence/camera-evidence';
export {
  SimWorkstation,
  startWorkstations,
  type WorkstationOptions,
  type WorkstationsOptions,
  type WorkstationStats,
} from './workstation/station';
