import { areaDir, storedPath } from './file-store';

/** Image kinds accepted as login background, recognised by their first bytes, not their name. */
const IMAGE_SIGNATURES = [
  {
    kind: 'png',
    mime: 'image/png',
    exts: ['png'],
    magic: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { kind: 'jpeg', mime: 'image/jpeg', exts: ['jpg', 'jpeg'], magic: Buffer.from([0xff, 0xd8, 0xff]) },
  { kind: 'gif', mime: 'image/gif', exts: ['gif'], magic: Buffer.from('GIF8', 'latin1') },
] as const;

export type ImageKind = (typeof IMAGE_SIGNATURES)[number];

export function sniffImage(head: Buffer): ImageKind | null {
  return IMAGE_SIGNATURES.find((s) => head.subarray(0, s.magic.length).equals(s.magic)) ?? null;
}

/** True when the content is an image of the kind its extension claims. */
export function imageMatchesExtension(head: Buffer, ext: string): boolean {
  const kind = sniffImage(head);
  return kind !== null && (kind.exts as readonly string[]).includes(ext);
}

export function mimeOfExtension(ext: string): string {
  return IMAGE_SIGNATURES.find((s) => (s.exts as readonly string[]).includes(ext))?.mime ?? 'application/octet-stream';
}

const AREA = 'backgrounds';

/** backset.background_path of a stored upload: `backgrounds/<generated name>` relative to DATA_DIR. */
export function backgroundPathOf(storedName: string): string {
  return `${AREA}/${storedName}`;
}

/** Absolute file of a backset.background_path, or null when it is not one of our uploads. */
export function backgroundFile(dataDir: string, backgroundPath: string): string | null {
  const [area, name, ...rest] = backgroundPath.split('/');
  if (area !== AREA || !name || rest.length) return null;
  return storedPath(dataDir, AREA, name);
}

export const backgroundDir = (dataDir: string): string => areaDir(dataDir, AREA);
