/** GB/T 28181-2016 SIP platform, registration half: REGISTER, keepalive and MANSCDP MESSAGE. */
export { GbSipPlatform, type GbSipEvents, type GbSipPlatformOptions, type RegisteredDevice } from './platform';
export type { SipLog, SipRemote, SipTransportName } from './transport';
