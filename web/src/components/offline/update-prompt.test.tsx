import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

const registerSW = vi.fn();
vi.mock('virtual:pwa-register', () => ({ registerSW }));

afterEach(() => {
  vi.unstubAllEnvs();
  registerSW.mockReset();
});

describe('UpdatePrompt', () => {
  it('offers « Nouvelle version disponible » when a new build waits, and reloads into it on « Recharger »', async () => {
    vi.stubEnv('PROD', true);
    Object.defineProperty(navigator, 'serviceWorker', { value: {}, configurable: true });
    const updateSW = vi.fn(async () => undefined);
    let needRefresh: (() => void) | undefined;
    registerSW.mockImplementation((options: { onNeedRefresh: () => void }) => {
      needRefresh = options.onNeedRefresh;
      return updateSW;
    });
    const { UpdatePrompt } = await import('./update-prompt');
    render(<UpdatePrompt />);
    await vi.waitFor(() => expect(registerSW).toHaveBeenCalledTimes(1));
    expect(screen.queryByText('Nouvelle version disponible')).toBeNull();
    needRefresh!();
    expect(await screen.findByText('Nouvelle version disponible')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Recharger' }));
    expect(updateSW).toHaveBeenCalledWith(true);
  });
});
