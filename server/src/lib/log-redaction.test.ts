import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction';

describe('redactUrl', () => {
  it('masks the tokens of the visit link, the calendar feed and the reset page, and nothing else', () => {
    expect(redactUrl('/rdv/abcDEF_-123')).toBe('/rdv/[masqué]');
    expect(redactUrl('/api/site-visits/abcDEF_-123/confirm')).toBe('/api/site-visits/[masqué]/confirm');
    expect(redactUrl('/api/calendar/abcDEF_-123.ics')).toBe('/api/calendar/[masqué].ics');
    expect(redactUrl('/technician/reset-password?token=s3cr3t&x=1')).toBe('/technician/reset-password?token=[masqué]&x=1');
    expect(redactUrl('/api/applications/1234/work')).toBe('/api/applications/1234/work');
  });
});
