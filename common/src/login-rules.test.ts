import { describe, expect, it } from 'vitest';
import { regexes } from 'zod/v4/core';
import { EMAIL_PATTERN } from './login-rules';
import { loginRequestSchema } from './schemas/auth';

describe('login rules', () => {
  it("keep zod's email pattern, which the server's schema applies", () => {
    expect(EMAIL_PATTERN.source).toBe(regexes.email.source);
    for (const email of ['a@b.fr', 'prenom.nom+test@exemple.com', 'a..b@c.fr', 'a@b', '.a@b.fr', 'a@-b.fr']) {
      expect(EMAIL_PATTERN.test(email)).toBe(loginRequestSchema.shape.email.safeParse(email).success);
    }
  });
});
