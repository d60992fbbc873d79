import { AUDIO_FRAME_MS } from '@bwc/protocol';

/** The capture processor's registered name. */
export const CAPTURE_PROCESSOR = 'bwc-talk-capture';

/**
 * Source of the AudioWorklet that hands the microphone's samples to the main thread in whole
 * 20 ms frames (mono: the first channel), so the encoder gets 50 AudioData a second instead of
 * one per 128-sample render quantum. Loaded from a Blob URL: the worklet is a few lines and needs
 * no build step of its own.
 */
export function captureWorkletSource(): string {
  return `
class Capture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.size = Math.round(sampleRate * ${AUDIO_FRAME_MS} / 1000);
    this.frame = new Float32Array(this.size);
    this.filled = 0;
  }
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!channel) return true;
    let i = 0;
    while (i < channel.length) {
      const n = Math.min(channel.length - i, this.size - this.filled);
      this.frame.set(channel.subarray(i, i + n), this.filled);
      this.filled += n;
      i += n;
      if (this.filled === this.size) {
        this.port.postMessage(this.frame, [this.frame.buffer]);
        this.frame = new Float32Array(this.size);
        this.filled = 0;
      }
    }
    return true;
  }
}
registerProcessor('${CAPTURE_PROCESSOR}', Capture);
`;
}
