/** Tables of the media gateway (migration 0013), merged into db/types.ts Database. */
export interface MediaPublishKeyTable {
  /** the nonce of a publish key that was used */
  nonce: string;
  device_id: number;
  /** ISO: when the key expires (the row may go then) */
  expires: string;
}

declare module '../../db/types' {
  interface Database {
    media_publish_keys: MediaPublishKeyTable;
  }
}
