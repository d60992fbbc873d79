/** SIP message codec (the `sip` package wrapped, see sip-adapter.ts) and RFC 2617 digest, for both ends of GB28181. */
export {
  parseSip,
  uriUser,
  buildResponse,
  type SipMessage,
  type SipUri,
  type SipNameAddr,
  type SipVia,
  type ResponseExtra,
} from './sip-adapter';
export { newNonce, challengeHeader, unquote, readCredentials, verifyDigest, type DigestCredentials } from './digest';
export {
  MANSRTSP_CONTENT_TYPE,
  buildMansrtsp,
  parseMansrtsp,
  isPlaybackScale,
  type MansrtspControl,
  type MansrtspCommand,
  type MansrtspRequest,
} from './mansrtsp';
