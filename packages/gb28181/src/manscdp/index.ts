/** MANSCDP (GB/T 28181-2016 Appendix A): the XML bodies of MESSAGE, NOTIFY and SUBSCRIBE. */
export { ManscdpError, type ManscdpErrorCode } from './errors';
export { GB_ID_RE, GB_TYPE, gbIdKind, isGbId, makeGbId, parseGbId, type GbId, type GbIdKind } from './ids';
export {
  decodePtz,
  encodePtz,
  tryDecodePtz,
  PTZ_ACTIONS,
  PTZ_INSTRUCTION,
  type PtzAction,
  type PtzCommand,
  type PtzInput,
} from './ptz';
export { MANSCDP_CONTENT_TYPE, MANSCDP_LIMITS, type ManscdpCharset } from './xml';
export {
  MANSCDP_SCHEMAS,
  GbIdSchema,
  type CatalogItem,
  type ManscdpMessage,
  type ManscdpRoot,
  type MessageOf,
  type RecordItem,
} from './schemas';
export {
  alarmNotify,
  alarmResponse,
  alarmSubscription,
  catalogQuery,
  catalogResponsePages,
  decodeManscdp,
  deviceInfoQuery,
  deviceInfoResponse,
  deviceStatusQuery,
  encodeManscdp,
  gbTime,
  keepalive,
  mobilePositionNotify,
  mobilePositionSubscription,
  ptzControl,
  recordInfoQuery,
  tryDecodeManscdp,
  type ManscdpDecoded,
  type ManscdpUnsupported,
} from './codec';
export {
  CatalogAssembler,
  RecordInfoAssembler,
  MAX_ASSEMBLED_ITEMS,
  type AddResult,
  type Assembled,
  type AssembledCatalog,
  type AssembledRecordInfo,
  type CatalogPage,
  type RecordInfoPage,
} from './catalog-assembler';
