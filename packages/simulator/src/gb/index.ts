/** Simulated GB/T 28181-2016 devices (see README.md). */
export { GbSimHub, type GbSimHubOptions } from './hub';
export { GbDevice, digestAuthorization, type GbDeviceOptions, type GbDeviceEvents } from './device';
export { GbStream, streamArgs, runningGbStreams, GB_STREAM_FPS, GB_STREAM_SIZE } from './media';
export { UdpHub, connectTcp, type SipLink, type GbTransport } from './sip-link';
