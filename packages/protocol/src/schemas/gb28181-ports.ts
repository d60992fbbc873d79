import type { GbSettings } from './gb28181';

/** A rule across GB settings fields that the schema (field by field) cannot check. */
export interface GbSettingsProblem {
  field: 'VideoPort' | 'AudioPort' | 'LocalPort';
  /** validation catalogue key */
  key: string;
  params?: Record<string, number>;
}

type GbPorts = Pick<GbSettings, 'LocalPort' | 'VideoPort' | 'AudioPort' | 'PortCount'>;

/**
 * The RTP port ranges (VideoPort and AudioPort, PortCount ports each) stay under 65536 and apart,
 * and the SIP port lies in neither. Checked by the server on save and by the settings page.
 */
export function gbSettingsProblem(s: GbPorts): GbSettingsProblem | null {
  const video = { start: s.VideoPort, end: s.VideoPort + s.PortCount - 1 };
  const audio = { start: s.AudioPort, end: s.AudioPort + s.PortCount - 1 };
  if (video.end > 65_535) return { field: 'VideoPort', key: 'validation.gb.portRange', params: video };
  if (audio.end > 65_535) return { field: 'AudioPort', key: 'validation.gb.portRange', params: audio };
  if (video.start <= audio.end && audio.start <= video.end)
    return { field: 'AudioPort', key: 'validation.gb.portOverlap' };
  const inside = (r: { start: number; end: number }) => s.LocalPort >= r.start && s.LocalPort <= r.end;
  if (inside(video) || inside(audio)) return { field: 'LocalPort', key: 'validation.gb.sipPortInRange' };
  return null;
}
