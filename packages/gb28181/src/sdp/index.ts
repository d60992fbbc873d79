/** GB/T 28181-2016 SDP (9.2, Appendix F): offers, answers, the y= SSRC and the f= line. See README.md. */
export { SdpError, type SdpErrorCode } from './errors';
export {
  SDP_LIMITS,
  GB_VIDEO_RTPMAPS,
  parseSdp,
  buildSdp,
  buildOffer,
  buildAnswer,
  planFromOffer,
  parseMediaFormat,
  printMediaFormat,
  type GbSdp,
  type GbSessionName,
  type SdpMedia,
  type SdpTransport,
  type SdpDirection,
  type SdpSetup,
  type RtpMap,
  type MediaFormatDescription,
  type OfferOptions,
  type AnswerOptions,
  type MediaPlan,
} from './sdp';
export { SsrcAllocator, parseSsrc, ssrcNumber, ssrcDomain, type GbSsrc, type SsrcKind } from './ssrc';
