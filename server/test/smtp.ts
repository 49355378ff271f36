import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** Decoded Subject header. */
  subject: string;
  /** The decoded text of the message (every text part, transfer encodings undone). */
  body: string;
  raw: string;
}

export interface TestSmtpServer {
  url: string;
  messages: ReceivedMail[];
  /** Makes the server refuse every message with this error (null: accept again). */
  refuseWith(message: string | null): void;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeEncodedWords(header: string): string {
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function splitEntity(raw: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  return match ? { head: raw.slice(0, match.index), body: raw.slice(match.index + match[0].length) } : { head: raw, body: '' };
}

function headerValue(raw: string, name: string): string {
  const unfolded = splitEntity(raw).head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : '';
}

/** The decoded text of a MIME entity: its own body by transfer encoding, or its parts joined. */
function decodeEntity(raw: string): string {
  const { body } = splitEntity(raw);
  const type = headerValue(raw, 'Content-Type');
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .map((part) => decodeEntity(part.replace(/^\r?\n/, '')))
      .join('\n');
  }
  const encoding = headerValue(raw, 'Content-Transfer-Encoding').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** A real SMTP server on a random local port that keeps what it receives (no TLS, no auth). */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const messages: ReceivedMail[] = [];
  let refusal: string | null = null;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusal) {
          const error = new Error(refusal) as Error & { responseCode: number };
          error.responseCode = 550;
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: decodeEncodedWords(headerValue(raw, 'Subject')),
          body: decodeEntity(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    refuseWith: (message) => {
      refusal = message;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
