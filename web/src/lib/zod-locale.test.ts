import { describe, expect, it } from 'vitest';
import { changePasswordFormSchema } from '@maillon/common/schemas/profile';
import './zod-locale';

// The profile schemas are zod/mini: their checks without a message of their own keep zod's English default text.
describe('zod/mini locale', () => {
  it('gives the default English message to a check without a message of its own', () => {
    const result = changePasswordFormSchema.safeParse({ currentPassword: 'actuel', newPassword: 'nouveau', confirmPassword: 42 });
    expect(result.error?.issues[0]?.message).toBe('Invalid input: expected string, received number');
  });
});
