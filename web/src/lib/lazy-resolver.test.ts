import { describe, expect, it, vi } from 'vitest';
import type { ResolverOptions } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordFormSchema, type ChangePasswordForm } from '@maillon/common/schemas/profile';
import { lazyResolver } from './lazy-resolver';
import './zod-locale';

const options: ResolverOptions<ChangePasswordForm> = { fields: {}, shouldUseNativeValidation: false };

describe('lazyResolver', () => {
  it('answers as the resolver it loads, which it loads once', async () => {
    const loaded = zodResolver(changePasswordFormSchema);
    const load = vi.fn(async () => loaded);
    const resolver = lazyResolver<ChangePasswordForm>(load);
    const inputs: ChangePasswordForm[] = [
      { currentPassword: '', newPassword: '', confirmPassword: '' },
      { currentPassword: 'actuel', newPassword: 'court', confirmPassword: 'court' },
      { currentPassword: 'actuel', newPassword: 'nouveau-mot', confirmPassword: 'autre-mot' },
      { currentPassword: 'actuel', newPassword: 'nouveau-mot', confirmPassword: 'nouveau-mot' },
    ];
    for (const values of inputs) {
      expect(await resolver(values, undefined, options)).toEqual(await loaded(values, undefined, options));
    }
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries to load again on the next validation when a load failed', async () => {
    const loaded = zodResolver(changePasswordFormSchema);
    const load = vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module')).mockResolvedValue(loaded);
    const resolver = lazyResolver<ChangePasswordForm>(load);
    const values = { currentPassword: 'actuel', newPassword: 'nouveau-mot', confirmPassword: 'nouveau-mot' };
    await expect(resolver(values, undefined, options)).rejects.toThrow('Failed to fetch');
    expect(await resolver(values, undefined, options)).toEqual({ values, errors: {} });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
