import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { AppError } from '../app-error';
import { isValidKey, storageUnavailable, type ObjectStorage, type StoredObject } from './object-storage';

export interface S3Location {
  endpoint: string;
  region: string;
  bucket: string;
  /** Keys are stored under this prefix in the bucket ('' or 'folder/'). */
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * STORAGE_URL: `s3+http://KEY:SECRET@host:port/bucket[/prefix][?region=eu-west-3]` (or `s3+https://…`). Credentials are
 * URL-encoded. The endpoint is any S3-compatible server (MinIO, Garage, Ceph, Scaleway, OVH, AWS…).
 */
export function parseStorageUrl(value: string): S3Location {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('STORAGE_URL invalide : attendu s3+https://CLE:SECRET@hote/bucket');
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme !== 's3+http' && scheme !== 's3+https') throw new Error('STORAGE_URL : le schéma doit être s3+https ou s3+http');
  const [bucket, ...rest] = url.pathname.replace(/^\/+/, '').split('/').filter(Boolean);
  if (!bucket) throw new Error('STORAGE_URL : le nom du bucket manque (s3+https://CLE:SECRET@hote/bucket)');
  if (!url.username || !url.password) throw new Error('STORAGE_URL : la clé d’accès et le secret manquent');
  return {
    endpoint: `${scheme.slice(3)}://${url.host}`,
    region: url.searchParams.get('region') ?? 'us-east-1',
    bucket,
    prefix: rest.length ? `${rest.join('/')}/` : '',
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
  };
}

/** Objects in an S3-compatible bucket: shared by every instance. */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  readonly description: string;
  private readonly client: S3Client;

  constructor(private readonly location: S3Location) {
    this.description = `S3 ${location.endpoint}/${location.bucket}${location.prefix ? `/${location.prefix}` : ''}`;
    this.client = new S3Client({
      endpoint: location.endpoint,
      region: location.region,
      credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey },
      // Path-style addressing (host/bucket/key) and checksums only when an operation requires them: what S3-compatible
      // servers other than AWS understand.
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 2000, requestTimeout: 15_000 },
    });
  }

  private objectKey(key: string): string {
    if (!isValidKey(key)) throw new AppError('NOT_FOUND', 'Fichier introuvable');
    return this.location.prefix + key;
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await this.call(() =>
      this.client.send(
        new PutObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key), Body: body, ContentType: contentType }),
      ),
    );
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | null> {
    const objectKey = this.objectKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: objectKey }));
      return { stream: answer.Body as Readable, size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw storageUnavailable(error);
    }
  }

  async read(key: string): Promise<Buffer | null> {
    const object = await this.open(key);
    if (!object) return null;
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of object.stream) chunks.push(Buffer.from(chunk as Uint8Array));
    } catch (error) {
      throw storageUnavailable(error);
    }
    return Buffer.concat(chunks);
  }

  async remove(key: string): Promise<void> {
    if (!isValidKey(key)) return;
    await this.call(() => this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) })));
  }

  async *list(prefix = ''): AsyncIterable<StoredObject> {
    let token: string | undefined;
    do {
      const page = await this.call(() =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.location.bucket,
            Prefix: this.location.prefix + prefix,
            ContinuationToken: token,
          }),
        ),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield {
          key: object.Key.slice(this.location.prefix.length),
          size: object.Size ?? 0,
          lastModified: object.LastModified ?? new Date(0),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async check(): Promise<void> {
    await this.call(() => this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket })));
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private async call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw storageUnavailable(error);
    }
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.$metadata?.httpStatusCode === 404);
}
