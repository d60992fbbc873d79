/** GB/T 28181-2016 SIP platform: REGISTER, keepalive, MANSCDP queries, SUBSCRIBE/NOTIFY, INVITE dialogs. */
export { GbSipPlatform, type GbSipEvents, type GbSipPlatformOptions, type RegisteredDevice } from './platform';
export type { GbDialog, GbSubscription, SubscriptionKind } from './outgoing';
export { GbRequestError, type GbRequestErrorCode } from './requests';
export type { SipLog, SipRemote, SipTransportName } from './transport';
