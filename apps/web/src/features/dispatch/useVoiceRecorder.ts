import { useCallback, useEffect, useRef, useState } from 'react';

/** Longest voice note (s): recording stops and sends by itself then. */
export const VOICE_NOTE_MAX_S = 60;
/** Shortest voice note worth sending (ms). */
export const VOICE_NOTE_MIN_MS = 700;

/** Recording formats tried in order: Opus in WebM (Chromium, Firefox), Opus in Ogg, then the browser's default. */
const MIME_TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm'];

export type RecorderState = { kind: 'idle' } | { kind: 'starting' } | { kind: 'recording'; seconds: number };

/** Why a recording could not start or was dropped: an i18n key of the dispatch catalogue and its values. */
export class RecorderError extends Error {
  constructor(
    readonly key: 'im.micFailed' | 'im.micMissing' | 'im.tooShort',
    readonly values: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

export interface VoiceNote {
  blob: Blob;
  /** a file name with the extension of the recorded format (the service checks it) */
  name: string;
  durationMs: number;
}

function pickMime(): string | undefined {
  const supported = globalThis.MediaRecorder?.isTypeSupported;
  return MIME_TYPES.find((type) => supported?.call(MediaRecorder, type));
}

const extensionOf = (mime: string) => (mime.includes('ogg') ? 'ogg' : 'webm');

/**
 * A voice note from the microphone (MediaRecorder, Opus): `start` asks for the microphone and
 * records, `finish` stops and answers the note (`onNote`), `cancel` drops it. Recording stops by
 * itself after VOICE_NOTE_MAX_S and the note is handed over; the microphone is released at once.
 */
export function useVoiceRecorder(onNote: (note: VoiceNote) => void, onError: (error: RecorderError) => void) {
  const [state, setState] = useState<RecorderState>({ kind: 'idle' });
  const session = useRef<{
    recorder: MediaRecorder;
    stream: MediaStream;
    chunks: Blob[];
    started: number;
    timer: ReturnType<typeof setInterval>;
    keep: boolean;
  } | null>(null);
  const handlers = useRef({ onNote, onError });
  handlers.current = { onNote, onError };

  const stop = useCallback((keep: boolean) => {
    const current = session.current;
    if (!current) return;
    current.keep = keep;
    clearInterval(current.timer);
    if (current.recorder.state !== 'inactive') current.recorder.stop();
    else current.stream.getTracks().forEach((track) => track.stop());
  }, []);

  const start = useCallback(async () => {
    if (session.current) return;
    if (!globalThis.MediaRecorder || !navigator.mediaDevices?.getUserMedia) {
      handlers.current.onError(new RecorderError('im.micMissing'));
      return;
    }
    setState({ kind: 'starting' });
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      setState({ kind: 'idle' });
      handlers.current.onError(
        new RecorderError('im.micFailed', { reason: error instanceof Error ? error.message : String(error) }),
      );
      return;
    }
    const mime = pickMime();
    const recorder = new MediaRecorder(stream, mime ? { mimeType: mime } : undefined);
    const started = Date.now();
    const current = {
      recorder,
      stream,
      chunks: [] as Blob[],
      started,
      keep: true,
      timer: setInterval(() => {
        const seconds = Math.floor((Date.now() - started) / 1000);
        setState({ kind: 'recording', seconds });
        if (seconds >= VOICE_NOTE_MAX_S) stop(true);
      }, 250),
    };
    session.current = current;
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) current.chunks.push(event.data);
    };
    recorder.onstop = () => {
      stream.getTracks().forEach((track) => track.stop());
      session.current = null;
      setState({ kind: 'idle' });
      if (!current.keep) return;
      const durationMs = Date.now() - current.started;
      const type = recorder.mimeType || mime || 'audio/webm';
      const blob = new Blob(current.chunks, { type });
      if (durationMs < VOICE_NOTE_MIN_MS || blob.size === 0) {
        handlers.current.onError(new RecorderError('im.tooShort'));
        return;
      }
      const stamp = new Date(current.started).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
      handlers.current.onNote({ blob, name: `voice-${stamp}.${extensionOf(type)}`, durationMs });
    };
    recorder.start(250);
    setState({ kind: 'recording', seconds: 0 });
  }, [stop]);

  // leaving the screen drops a recording under way and frees the microphone
  useEffect(() => () => stop(false), [stop]);

  return {
    state,
    start,
    finish: useCallback(() => stop(true), [stop]),
    cancel: useCallback(() => stop(false), [stop]),
  };
}
