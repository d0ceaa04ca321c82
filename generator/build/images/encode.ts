/** Converting one source picture into the published PNG and WebP (sharp). */
import sharp from 'sharp';
import type { ImageFormat } from '../../contract/format.ts';

export type Encoded = Record<ImageFormat, Buffer>;

/** Icons are shown at up to 128 px in the game; larger sources are scaled down, smaller ones kept. */
export const ICON_SETTINGS = {
  maxSize: 128,
  png: { compressionLevel: 9, adaptiveFiltering: true },
  webp: { quality: 82, alphaQuality: 90, effort: 4 },
} as const;

export type EncodeSettings = typeof ICON_SETTINGS;

/** What decides the output bytes besides the source: part of every cache key. */
export const encoderFingerprint = (settings: EncodeSettings) =>
  JSON.stringify({ settings, sharp: sharp.versions.sharp, vips: sharp.versions.vips });

/** Throws when the source is not a decodable picture. */
export async function encodeImage(source: Buffer, settings: EncodeSettings): Promise<Encoded> {
  // failOn 'error': a truncated or corrupt file is unreadable, not silently half-decoded.
  const resized = sharp(source, { failOn: 'error' })
    .resize(settings.maxSize, settings.maxSize, { fit: 'inside', withoutEnlargement: true });
  const [png, webp] = await Promise.all([
    resized.clone().png(settings.png).toBuffer(),
    resized.clone().webp(settings.webp).toBuffer(),
  ]);
  return { png, webp };
}
