import type { Api, ApiData, ApiInput, ApiName, EndpointDef } from '@bwc/protocol';

/**
 * What `call()` answers: the zod output of the endpoint's `data` schema in the protocol registry,
 * the same schema the server serialises its answer with. Nothing here is typed by hand.
 */

/** Name of an endpoint given its definition object (`Api.login` -> 'login'). */
type NameOfDef<D> = {
  [N in ApiName]: (typeof Api)[N] extends D ? (D extends (typeof Api)[N] ? N : never) : never;
}[ApiName];

export type Endpoint = ApiName | EndpointDef;
export type DataOf<E extends Endpoint> = E extends ApiName
  ? ApiData<E>
  : [NameOfDef<E>] extends [never]
    ? unknown
    : ApiData<NameOfDef<E>>;

/** What `call()` sends: the zod input of the endpoint's body (POST) or query (GET) schema. */
export type InputOf<E extends Endpoint> = E extends ApiName
  ? ApiInput<E>
  : [NameOfDef<E>] extends [never]
    ? Record<string, unknown> | FormData | undefined
    : ApiInput<NameOfDef<E>>;
