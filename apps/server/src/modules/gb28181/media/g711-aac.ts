import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { FFMPEG } from '../../evidence/ingest/media-tools';
import { AdtsSplitter, type AdtsFrame } from './adts';

/**
 * G.711 to AAC: browsers decode neither A-law nor µ-law from FLV/MSE, so the audio goes through an
 * ffmpeg child that reads raw 8 kHz mono G.711 on stdin and writes ADTS on stdout. Time stamps
 * come from the sample count since the first byte: a hole in the input (lost packets) is filled
 * with silence (up to `maxFillMs`) so that the sample clock stays on the device's clock.
 */
export interface G711TranscoderOptions {
  law: 'alaw' | 'mulaw';
  /** AAC bit rate. Default 32 kbit/s. */
  bitrate?: number;
  /** Largest hole filled with silence; a longer one leaves audio early by the rest. Default 2,000 ms. */
  maxFillMs?: number;
  /** Input held for ffmpeg beyond this is dropped (ffmpeg not keeping up). Default 256 KiB. */
  maxQueuedBytes?: number;
  onFrame(frame: AdtsFrame, ms: number): void;
  onExit(reason: string): void;
}

const RATE = 8000;
/** Silence: A-law 0xD5, µ-law 0xFF (G.711 table 1/2: the codes nearest to zero). */
const SILENCE = { alaw: 0xd5, mulaw: 0xff };

export class G711Transcoder {
  readonly stats = { bytesIn: 0, framesOut: 0, filledMs: 0, droppedBytes: 0 };
  private child: ChildProcessWithoutNullStreams | null;
  private readonly adts = new AdtsSplitter();
  /** ms of the first sample; null until the first input */
  private startMs: number | null = null;
  private samplesIn = 0;
  private samplesOut = 0;
  private exited = false;

  constructor(private readonly opts: G711TranscoderOptions) {
    const child = spawn(
      FFMPEG,
      [
        ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
        // raw input needs no probing: without these ffmpeg holds ~2 s of live audio before its first frame
        ...['-probesize', '32', '-analyzeduration', '0', '-fflags', '+nobuffer'],
        ...['-f', opts.law, '-ar', String(RATE), '-ac', '1', '-i', 'pipe:0'],
        ...['-c:a', 'aac', '-b:a', String(opts.bitrate ?? 32000), '-flush_packets', '1', '-f', 'adts', 'pipe:1'],
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.child = child;
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-500)));
    child.stdin.on('error', () => {}); // EPIPE when ffmpeg died: reported by 'close'
    child.stdout.on('data', (chunk: Buffer) => {
      for (const f of this.adts.push(chunk)) {
        // AAC frames are 1024 samples
        const ms = (this.startMs ?? 0) + (this.samplesOut * 1000) / f.sampleRate;
        this.samplesOut += 1024;
        this.stats.framesOut++;
        opts.onFrame(f, Math.round(ms));
      }
    });
    child.on('error', (e) => this.exit(`ffmpeg: ${e.message}`));
    child.on('close', (code, signal) => this.exit(`ffmpeg exited ${code ?? signal}${err ? `: ${err.trim()}` : ''}`));
  }

  /** G.711 bytes whose first sample is at `ms`. */
  write(data: Buffer, ms: number): void {
    const child = this.child;
    if (!child || !data.length) return;
    if (this.startMs === null) this.startMs = ms;
    const at = this.startMs + (this.samplesIn * 1000) / RATE;
    const hole = Math.min(ms - at, this.opts.maxFillMs ?? 2000);
    const queued = child.stdin.writableLength;
    if (queued > (this.opts.maxQueuedBytes ?? 256 * 1024)) {
      this.stats.droppedBytes += data.length;
      return;
    }
    if (hole >= 20) {
      const fill = Math.round((hole * RATE) / 1000);
      child.stdin.write(Buffer.alloc(fill, SILENCE[this.opts.law]));
      this.samplesIn += fill;
      this.stats.filledMs += hole;
    }
    child.stdin.write(data);
    this.samplesIn += data.length;
    this.stats.bytesIn += data.length;
  }

  /** Ends the input; the last frames still come, then onExit('ffmpeg exited 0'). */
  end(): void {
    this.child?.stdin.end();
  }

  /** Stops ffmpeg at once. */
  close(): void {
    const child = this.child;
    this.child = null;
    child?.stdout.removeAllListeners('data');
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  private exit(reason: string): void {
    if (this.exited) return;
    this.exited = true;
    this.child = null;
    this.opts.onExit(reason);
  }
}
