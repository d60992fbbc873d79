/** GB/T 28181-2016 media: RTP carrying MPEG-2 program stream (Appendix C). See README.md. */
export { PsError, type PsErrorCode } from './errors.js';
export {
  parseRtp,
  buildRtp,
  frameRtpTcp,
  RtpTcpFramer,
  RTP_PT_PS,
  type RtpPacket,
  type RtpHeaderFields,
} from './rtp.js';
export {
  RtpReassembler,
  type RtpFrame,
  type RtpGap,
  type ReassemblyEvent,
  type ReassemblerOptions,
} from './reassembler.js';
export {
  PsDemuxer,
  parsePackHeader,
  parseSystemHeader,
  parsePsm,
  parsePes,
  mpegCrc32,
  codecOfStreamType,
  STREAM_TYPE,
  type AccessUnit,
  type PsCodec,
  type PackHeader,
  type SystemHeader,
  type ProgramStreamMap,
  type PesPacket,
  type DemuxResult,
  type DemuxerOptions,
} from './ps-demux.js';
export {
  PsMuxer,
  RtpPacketizer,
  VIDEO_STREAM_ID,
  AUDIO_STREAM_ID,
  type AudioCodec,
  type PsMuxerOptions,
  type RtpPacketizerOptions,
} from './ps-mux.js';
export { splitAnnexB, splitH264AccessUnits, isKeyframe, type VideoCodec } from './nal.js';
