import { VISIT_PHOTO_MAX_SIDE } from '@maillon/common/device-rules';

/**
 * Shrinks a photo in the browser before it is sent (mobile data): at most 1600 px on its longer side, upright, JPEG.
 * Drawing it on a canvas also leaves its EXIF (GPS position) behind, though the server rewrites every photo anyway.
 * Anything the browser cannot decode is sent as it is, for the server to judge.
 */
export async function resizeImage(file: File): Promise<Blob> {
  if (!/^image\/(jpeg|png)$/.test(file.type) || typeof createImageBitmap !== 'function') return file;
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    const scale = Math.min(1, VISIT_PHOTO_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    const width = Math.round(bitmap.width * scale);
    const height = Math.round(bitmap.height * scale);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) return file;
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
    return blob && blob.size < file.size ? blob : file;
  } catch {
    return file;
  }
}
