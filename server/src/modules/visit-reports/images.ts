import crypto from 'node:crypto';
import sharp from 'sharp';
import { REPORT_MESSAGES, VISIT_PHOTO_MAX_SIDE } from '@maillon/common/device-rules';
import { AppError } from '../../lib/app-error';
import { MAX_IMAGE_PIXELS, sniffFileType } from '../../lib/file-type';

/**
 * Photos and signatures are decoded and written again on the server, whatever the phone did: the type is decided
 * from the bytes (JPEG or PNG, whole and of sane size), the image is turned upright from its EXIF orientation, resized
 * to at most 1600 px on its longer side, and written without any metadata (EXIF with the GPS position, XMP, ICC
 * comments): sharp keeps none unless asked. Photos are stored as JPEG, signatures as PNG (docs/decisions/024).
 */

export interface ProcessedImage {
  bytes: Buffer;
  width: number;
  height: number;
  sha256: string;
}

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');

export async function processPhoto(buffer: Buffer): Promise<ProcessedImage> {
  const type = await sniffFileType(buffer);
  if (type !== 'jpeg' && type !== 'png') throw new AppError('INVALID_FILE', REPORT_MESSAGES.photoNotImage);
  try {
    const { data, info } = await sharp(buffer, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .resize({ width: VISIT_PHOTO_MAX_SIDE, height: VISIT_PHOTO_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height, sha256: sha256(data) };
  } catch {
    throw new AppError('INVALID_FILE', REPORT_MESSAGES.photoUnreadable);
  }
}

/** The signature drawn on the screen: a PNG, re-encoded (transparent background kept, at most 1200 × 600). */
export async function processSignature(base64: string): Promise<ProcessedImage> {
  const buffer = Buffer.from(base64, 'base64');
  const type = await sniffFileType(buffer);
  if (type !== 'png') throw new AppError('VALIDATION_ERROR', 'Signature invalide : image PNG attendue', { signature: 'Signature invalide' });
  try {
    const { data, info } = await sharp(buffer, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS })
      .resize({ width: 1200, height: 600, fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height, sha256: sha256(data) };
  } catch {
    throw new AppError('VALIDATION_ERROR', 'Signature illisible : signez à nouveau', { signature: 'Signature illisible' });
  }
}

/** A lighter copy for the PV (at most 900 px, JPEG quality 70): six photos keep the PDF small enough to e-mail. */
export async function photoForPdf(bytes: Buffer): Promise<Buffer> {
  return sharp(bytes).resize({ width: 900, height: 900, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 70 }).toBuffer();
}
