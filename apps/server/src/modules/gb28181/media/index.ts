/** GB/T 28181-2016 live media: RTP receivers, PS access units to FLV bodies for the gateway. See README.md. */
export { PortAllocator } from './ports';
export {
  RtpReceiver,
  UdpRtpReceiver,
  TcpPassiveRtpReceiver,
  TcpActiveRtpReceiver,
  type ReceiverOptions,
  type TcpPassiveOptions,
  type TcpActiveOptions,
  type ReceiverEvents,
  type DropReason,
  type Transport,
} from './receiver';
export {
  FlvPacketizer,
  FLV_CODEC_AVC,
  FLV_CODEC_AAC,
  FLV_CODEC_HVC1,
  type FlvPacketizerOptions,
  type MediaLog,
} from './flv-packets';
export { GbMediaSession, type GbMediaSessionOptions, type GbMediaSessionEvents, type GbTracks } from './session';
export { MediaError, parseH264Sps, parseH265Sps, type H264Sps, type H265Sps } from './h26x';
