import {
  HTTP_STATUS_NOT_ACCEPTABLE,
  LANGUAGE_HEADER,
  ResultCode,
  Routes,
  type EndpointRoute,
  type Envelope,
} from '@bwc/protocol';
import { currentLanguage, i18next } from '../i18n';
import { currentPath, navigateTo } from './navigation';
import { notify } from './notify';
import { clearSession } from './session';
import type { DataOf, Endpoint, InputOf } from './types';

/**
 * The one place that maps the envelope `{code, msg, data}` to the UI (spec part 1 section 8):
 * - code 200: resolves with `data`; shows msg (or the caller's text) as success when asked;
 * - code 401: clears the session and goes to Login, showing msg (e.g. forced offline) once;
 * - HTTP status 406: goes to /406;
 * - any other code: error toast `msg + code: {code}` for TOAST_DURATION_MS, then rejects with ApiError.
 */

export const LOGIN_PATH = '/login';
export const NOT_ACCEPTABLE_PATH = '/406';

export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly status: number,
    readonly data: unknown = null,
  ) {
    super(msg);
    this.name = 'ApiError';
  }
}

export type Payload = Record<string, unknown> | FormData | undefined;

export interface CallOptions {
  /** show a success toast: true shows the envelope msg, a string shows that text */
  success?: boolean | string;
  /** do not toast errors (the caller shows them itself, e.g. in a form); 401/406 still redirect */
  silent?: boolean;
  signal?: AbortSignal;
}

/** The route only (path, method, encoding): the client never loads the contract's schemas, see routes.ts. */
function resolveEndpoint(endpoint: Endpoint): EndpointRoute {
  return typeof endpoint === 'string' ? Routes[endpoint] : endpoint;
}

function appendQuery(path: string, payload: Payload): string {
  if (!payload || payload instanceof FormData) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(payload)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  const query = params.toString();
  return query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path;
}

function formValue(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function buildBody(def: EndpointRoute, payload: Payload): { body?: BodyInit; contentType?: string } {
  if (payload instanceof FormData) return { body: payload };
  const entries = Object.entries(payload ?? {}).filter(([, v]) => v !== undefined && v !== null);
  if (def.encoding === 'form') {
    const params = new URLSearchParams();
    for (const [key, value] of entries) params.append(key, formValue(value));
    return { body: params, contentType: 'application/x-www-form-urlencoded;charset=UTF-8' };
  }
  if (def.encoding === 'multipart') {
    const form = new FormData();
    for (const [key, value] of entries) form.append(key, value instanceof Blob ? value : formValue(value));
    return { body: form };
  }
  return { body: JSON.stringify(payload ?? {}), contentType: 'application/json' };
}

function request(def: EndpointRoute, payload: Payload, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { [LANGUAGE_HEADER]: currentLanguage(), Accept: 'application/json' };
  const init: RequestInit = { method: def.method, headers, credentials: 'include' };
  if (signal) init.signal = signal;
  let url = def.path;
  if (def.method === 'GET') url = appendQuery(def.path, payload);
  else {
    const { body, contentType } = buildBody(def, payload);
    if (body !== undefined) init.body = body;
    if (contentType) headers['Content-Type'] = contentType;
  }
  return fetch(url, init);
}

export function toastText(msg: string, code: number): string {
  return i18next.t('common:http.withCode', { msg, code });
}

let leavingForLogin = false;

/** After a successful login the next 401 may redirect (and toast) again. */
export function resetUnauthenticatedGuard(): void {
  leavingForLogin = false;
}

function handleUnauthenticated(msg: string): void {
  if (leavingForLogin) return;
  leavingForLogin = true;
  clearSession();
  notify.warning(msg || i18next.t('errors:unauthenticated'), 'session');
  if (currentPath() !== LOGIN_PATH) navigateTo(LOGIN_PATH, { replace: true });
}

function handleNotAcceptable(): void {
  if (currentPath() !== NOT_ACCEPTABLE_PATH) navigateTo(NOT_ACCEPTABLE_PATH, { replace: true });
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as Envelope<unknown>).code === 'number';
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** The envelope of an answer, null when the body is not one; a cancelled read stays a cancellation. */
async function readEnvelope(res: Response): Promise<Envelope<unknown> | null> {
  try {
    const parsed: unknown = await res.json();
    return isEnvelope(parsed) ? parsed : null;
  } catch (error) {
    if (isAbort(error)) throw error;
    return null;
  }
}

/** Maps one envelope (and its HTTP status) to the UI; returns data or throws ApiError. */
function settle(env: Envelope<unknown> | null, status: number, options: CallOptions): unknown {
  if (status === HTTP_STATUS_NOT_ACCEPTABLE) {
    handleNotAcceptable();
    throw new ApiError(env?.code ?? status, env?.msg ?? i18next.t('errors:notAcceptable'), status);
  }
  if (!env) {
    const msg = i18next.t('common:http.badAnswer', { status });
    if (!options.silent) notify.error(msg);
    throw new ApiError(ResultCode.SERVER_ERROR, msg, status);
  }
  if (env.code === ResultCode.OK) {
    if (options.success) notify.success(typeof options.success === 'string' ? options.success : env.msg);
    return env.data;
  }
  if (env.code === ResultCode.UNAUTHENTICATED) {
    handleUnauthenticated(env.msg);
    throw new ApiError(env.code, env.msg, status, env.data);
  }
  if (!options.silent) notify.error(toastText(env.msg, env.code));
  throw new ApiError(env.code, env.msg, status, env.data);
}

function networkFailure(error: unknown, options: CallOptions): never {
  if (isAbort(error)) throw error;
  const msg = i18next.t('common:http.network');
  if (!options.silent) notify.error(msg);
  throw new ApiError(0, msg, 0);
}

/**
 * Calls an endpoint of the protocol `Api` registry by name (`call('login', body)`) or by
 * definition (`call(Api.login, body)`) and resolves with the envelope's data.
 * GET payloads go into the query string; POST bodies are JSON, form-encoded or multipart as the
 * registry says.
 */
export async function call<E extends Endpoint>(
  endpoint: E,
  payload?: InputOf<E>,
  options: CallOptions = {},
): Promise<DataOf<E>> {
  const def = resolveEndpoint(endpoint);
  let res: Response;
  try {
    res = await request(def, payload as Payload, options.signal);
  } catch (error) {
    networkFailure(error, options);
  }
  return settle(await readEnvelope(res), res.status, options) as DataOf<E>;
}

/** File name from content-disposition: RFC 5987 `filename*=UTF-8''...` first, then `filename="..."`. */
export function filenameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // malformed escape: fall back to the plain parameter
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const value = plain?.[2] ?? plain?.[1];
  return value ? value.trim() : null;
}

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = filename;
  anchor.style.display = 'none';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export interface DownloadResult {
  filename: string;
  blob: Blob;
}

/**
 * Downloads a file endpoint (`file: true` in the registry, or any endpoint answering a file) and
 * saves it under the name of its content-disposition header. An envelope answer (an error sent
 * instead of the file) goes through the same mapping as `call`; any other failure toasts
 * 'download failed, http status: {status}'.
 */
export async function download<E extends Endpoint>(
  endpoint: E,
  payload?: InputOf<E>,
  options: CallOptions & { fallbackName?: string; save?: boolean } = {},
): Promise<DownloadResult> {
  const def = resolveEndpoint(endpoint);
  let res: Response;
  try {
    res = await request(def, payload as Payload, options.signal);
  } catch (error) {
    networkFailure(error, options);
  }
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    settle(await readEnvelope(res), res.status, options);
    // a 200 envelope where a file was expected
    throw new ApiError(
      ResultCode.SERVER_ERROR,
      i18next.t('common:http.downloadFailed', { status: res.status }),
      res.status,
    );
  }
  if (!res.ok) {
    if (res.status === HTTP_STATUS_NOT_ACCEPTABLE) handleNotAcceptable();
    const msg = i18next.t('common:http.downloadFailed', { status: res.status });
    if (!options.silent) notify.error(msg);
    throw new ApiError(res.status, msg, res.status);
  }
  const blob = await res.blob();
  const filename =
    filenameFromDisposition(res.headers.get('content-disposition')) ??
    options.fallbackName ??
    def.path.split('/').pop() ??
    'download';
  if (options.save !== false) saveBlob(blob, filename);
  return { filename, blob };
}

/** Copies text and shows 'copied successfully'. */
export async function copyText(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
  notify.success(i18next.t('common:toast.copied'));
}

/** 'saved successfully' for browser-local saves (the server's saves answer their own msg). */
export function notifySaved(): void {
  notify.success(i18next.t('success:saved'));
}

export interface UploadOptions extends CallOptions {
  /** upload progress, 0 to 100 */
  onProgress?: (percent: number) => void;
}

/**
 * Posts a multipart endpoint with upload progress (XMLHttpRequest; fetch has no upload progress)
 * and maps the answer exactly like `call`. Values that are Blobs go as file parts.
 */
export function upload<E extends Endpoint>(
  endpoint: E,
  payload: Record<string, unknown> | FormData,
  options: UploadOptions = {},
): Promise<DataOf<E>> {
  const def = resolveEndpoint(endpoint);
  const { body } = buildBody({ ...def, encoding: 'multipart' }, payload);
  return new Promise<DataOf<E>>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', def.path);
    xhr.withCredentials = true;
    xhr.setRequestHeader(LANGUAGE_HEADER, currentLanguage());
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && options.onProgress)
        options.onProgress(Math.round((event.loaded / event.total) * 100));
    };
    const fail = () => {
      try {
        networkFailure(new Error('upload failed'), options);
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = fail;
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    xhr.onload = () => {
      let env: Envelope<unknown> | null = null;
      try {
        const parsed: unknown = JSON.parse(xhr.responseText);
        env = isEnvelope(parsed) ? parsed : null;
      } catch {
        env = null;
      }
      try {
        resolve(settle(env, xhr.status, options) as DataOf<E>);
      } catch (error) {
        reject(error);
      }
    };
    options.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(body as XMLHttpRequestBodyInit);
  });
}
