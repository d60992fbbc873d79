import type { DeviceTrack, TrackPoint } from '@bwc/protocol';

/** XML text/attribute escape. */
export function xmlEscape(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

/** Points split where a gap starts (a new GPX trkseg / KML LineString after each gap). */
function segments(t: DeviceTrack): TrackPoint[][] {
  const cuts = t.gaps.map((g) => g.index);
  const out: TrackPoint[][] = [];
  let from = 0;
  for (const cut of [...cuts, t.points.length]) {
    if (cut > from) out.push(t.points.slice(from, cut));
    from = cut;
  }
  return out;
}

const trackName = (t: DeviceTrack) => `${t.hostname} (${t.hostbody})`;

export interface ExportTexts {
  name: string;
  stop: (minutes: number) => string;
}

/** GPX 1.1: stops as waypoints, one <trk> per device, one <trkseg> per gap-free run. */
export function toGpx(tracks: DeviceTrack[], texts: ExportTexts, createdIso: string): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gpx version="1.1" creator="bwc-console" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">',
    `  <metadata><name>${xmlEscape(texts.name)}</name><time>${createdIso}</time></metadata>`,
  ];
  for (const t of tracks)
    for (const s of t.stops)
      lines.push(
        `  <wpt lat="${s.lat}" lon="${s.lng}"><time>${s.start}</time><name>${xmlEscape(`${trackName(t)} ${texts.stop(Math.round(s.duration_s / 60))}`)}</name><type>stop</type></wpt>`,
      );
  for (const t of tracks) {
    lines.push(`  <trk><name>${xmlEscape(trackName(t))}</name>`);
    for (const seg of segments(t)) {
      lines.push('    <trkseg>');
      for (const p of seg) lines.push(`      <trkpt lat="${p.lat}" lon="${p.lng}"><time>${p.time}</time></trkpt>`);
      lines.push('    </trkseg>');
    }
    lines.push('  </trk>');
  }
  lines.push('</gpx>', '');
  return lines.join('\n');
}

/** KML 2.2: per device a Placemark with a MultiGeometry of LineStrings (split at gaps) and a TimeSpan; stops as Point placemarks. */
export function toKml(tracks: DeviceTrack[], texts: ExportTexts): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<kml xmlns="http://www.opengis.net/kml/2.2">',
    '  <Document>',
    `    <name>${xmlEscape(texts.name)}</name>`,
  ];
  for (const t of tracks) {
    lines.push('    <Folder>', `      <name>${xmlEscape(trackName(t))}</name>`);
    if (t.points.length) {
      lines.push(
        '      <Placemark>',
        `        <name>${xmlEscape(trackName(t))}</name>`,
        `        <TimeSpan><begin>${t.points[0]!.time}</begin><end>${t.points[t.points.length - 1]!.time}</end></TimeSpan>`,
        '        <MultiGeometry>',
      );
      for (const seg of segments(t)) {
        const coords = seg.map((p) => `${p.lng},${p.lat},0`).join(' ');
        // a LineString needs two coordinates: a lone fix is drawn as a point
        lines.push(
          seg.length > 1
            ? `          <LineString><tessellate>1</tessellate><coordinates>${coords}</coordinates></LineString>`
            : `          <Point><coordinates>${coords}</coordinates></Point>`,
        );
      }
      lines.push('        </MultiGeometry>', '      </Placemark>');
    }
    for (const s of t.stops)
      lines.push(
        '      <Placemark>',
        `        <name>${xmlEscape(texts.stop(Math.round(s.duration_s / 60)))}</name>`,
        `        <TimeSpan><begin>${s.start}</begin><end>${s.end}</end></TimeSpan>`,
        `        <Point><coordinates>${s.lng},${s.lat},0</coordinates></Point>`,
        '      </Placemark>',
      );
    lines.push('    </Folder>');
  }
  lines.push('  </Document>', '</kml>', '');
  return lines.join('\n');
}
