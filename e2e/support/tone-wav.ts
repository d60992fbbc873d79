// Imports only Node: the e2e specs and bench/talk-latency.ts load it directly.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A WAV (48 kHz mono 16-bit) of a `hz` tone at half scale for `seconds`, 0.8 s on and 0.2 s off
 * like speech (a microphone's noise suppression takes a steady tone for noise after a while): what
 * Chromium's fake microphone plays (--use-file-for-fake-audio-capture).
 */
export function toneWav(hz: number, seconds: number): Buffer {
  const rate = 48_000;
  const samples = rate * seconds;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    const on = i % rate < rate * 0.8;
    wav.writeInt16LE(on ? Math.round(0.5 * 32767 * Math.sin((2 * Math.PI * hz * i) / rate)) : 0, 44 + i * 2);
  }
  return wav;
}

/**
 * A folder of its own with a 1 kHz tone WAV (6 s, see toneWav), and the Chromium flags that make
 * it the fake microphone and let received audio play without a gesture (a launch flag: one file
 * for the whole browser). `dispose` removes the folder.
 */
export function toneMicrophone(prefix: string): { dir: string; args: string[]; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const wav = join(dir, 'tone-1k.wav');
  writeFileSync(wav, toneWav(1000, 6));
  return {
    dir,
    args: [`--use-file-for-fake-audio-capture=${wav}`, '--autoplay-policy=no-user-gesture-required'],
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
