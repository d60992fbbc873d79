import type { ApiName } from '@bwc/protocol';
import { call, type CallOptions, type Payload } from '../../api/http';

/** `call` with the answer typed by the caller (endpoints of issue 4 not yet listed in api/types.ts). */
export function callAs<T>(name: ApiName, payload?: Payload, options?: CallOptions): Promise<T> {
  return call(name, payload, options) as Promise<T>;
}
